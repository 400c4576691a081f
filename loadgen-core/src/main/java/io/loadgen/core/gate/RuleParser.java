package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.time.Durations;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses gate rules in the k6-like syntax CI users know. Stateless; any thread.
 *
 * <pre>
 * RULE    = METRIC CMP LIMIT [over DURATION windows] [abort-on-fail [after DURATION]]
 *         | harness.verdict (== | !=) (healthy | behind)
 *         | diagnosis (== | !=) CAUSE      (== : CAUSE is among the run's causes; != : it is not)
 * CAUSE   = ok | target_slow | target_stalled | target_failing | concurrency_limited | harness_saturated
 *         | harness_stalled | machine_noise
 * METRIC  = OP.VIEW.STAT | OP.failed.FVIEW.STAT | harness.lag.STAT | OP.errors | errors | OP.error_rate | error_rate
 *         | OP.throughput | throughput
 * OP      = an operation type (READ, UPDATE, PING, ...; any case) or * for each type present
 * VIEW    = intended | service | corrected (of the operations that returned OK)
 * FVIEW   = intended | service (of the operations that did not: the failed series)
 * STAT    = p50 | p99.9 | p(99.9) | p999 (= p99.9) | min | max | mean (avg) | med (= p50) | count
 * CMP     = &lt; | &lt;= | &gt; | &gt;=
 * LIMIT   = latency with a unit (ns, us, ms, s, m), e.g. 5ms; errors as a whole count (10) or a share (0.1%);
 *           error_rate as a fraction (0.01) or a share (1%); throughput in ops/s (9500/s); a count as a plain number
 * </pre>
 *
 * <p>k6's threshold expressions, which name no metric, are read as k6 means them and translated: a statistic
 * ({@code p(99)<200}, {@code avg<100}, {@code p(95)<=300}, {@code max<1s}) judges every operation type's
 * intended latency, a plain number being milliseconds (k6's unit); {@code rate<0.01} is {@code error_rate < 0.01}.
 * The rule is then named in loadgen's form ({@code *.intended.p99 < 200ms}), so tables show the unit.
 *
 * <p>Every mistake is a {@link BadInputException} whose one line quotes the rule, names what is
 * wrong and shows the accepted form.
 */
public final class RuleParser {
    static final String HOW = "write METRIC CMP LIMIT, e.g. 'READ.intended.p99 < 5ms', '*.intended.max < 1s',"
            + " 'READ.errors < 0.1%' or 'throughput > 9500/s'";
    static final String METRICS = "OP.VIEW.STAT (e.g. READ.intended.p99), OP.failed.VIEW.STAT (e.g."
            + " READ.failed.intended.p99), harness.lag.STAT, OP.errors, errors, OP.error_rate, error_rate,"
            + " OP.throughput or throughput (or the rule harness.verdict == healthy)";
    /** The metric whose limit is a fraction of the operations, as k6's {@code rate}. */
    static final String ERROR_RATE = "error_rate";
    static final String DIAGNOSIS_FORM = "write 'diagnosis != CAUSE' or 'diagnosis == CAUSE' with a CAUSE of "
            + io.loadgen.core.diagnosis.CauseCode.keys();
    static final String VERDICT_FORM = "write 'harness.verdict == healthy' (or != healthy, == behind, != behind)";
    static final String STATS = "p50, p99.9 (or p(99.9), p999), min, max, mean or count";
    static final String LATENCY_UNITS = "latency limits take ns, us, ms, s or m (e.g. 5ms)";

    private static final Pattern SPLIT = Pattern.compile("^([^<>=!]*?)\\s*(<=|>=|==|!=|=<|=>|<|>|=)\\s*(.*)$");
    private static final Pattern OP = Pattern.compile("\\*|[A-Za-z0-9_-]+");
    private static final Pattern NUMBER = Pattern.compile("^((?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:e[-+]?[0-9]+)?)(.*)$");
    private static final Pattern PERCENTILE = Pattern.compile("^p\\(?([0-9]*\\.?[0-9]+)\\)?$");
    /** A k6 threshold's statistic alone, with no metric: {@code p(99)}, {@code avg}, {@code rate}, ... */
    private static final Pattern K6_STAT = Pattern.compile("p\\([0-9.]+\\)|avg|min|max|med|rate",
            Pattern.CASE_INSENSITIVE);
    private static final Set<String> UNIT_WORDS = Set.of("ns", "us", "µs", "ms", "s", "m", "min", "h", "%", "/s", "ops/s");

    private RuleParser() {
    }

    /**
     * Parses one rule.
     *
     * @throws BadInputException naming what is wrong and the accepted form
     */
    public static Rule parse(String text) {
        String rule = text == null ? "" : text.trim().replaceAll("\\s+", " ");
        if (rule.isEmpty()) {
            throw new BadInputException("empty rule; " + HOW);
        }
        Matcher m = SPLIT.matcher(rule);
        if (!m.matches()) {
            throw bad(rule, "no comparison; " + HOW + " (CMP is <, <=, > or >=)");
        }
        Comparison cmp = Comparison.of(m.group(2));
        boolean diagnosis = m.group(1).equalsIgnoreCase("diagnosis");
        boolean verdict = m.group(1).equalsIgnoreCase("harness.verdict");
        if (cmp == null || cmp.isEquality() != (verdict || diagnosis)) {
            throw bad(rule, diagnosis ? "the diagnosis is compared with == or !=; " + DIAGNOSIS_FORM
                    : verdict ? "the verdict is compared with == or !=; " + VERDICT_FORM
                    : "unknown comparison '" + m.group(2) + "'; use <, <=, > or >=");
        }
        if (diagnosis) {
            return diagnosisRule(rule, cmp, m.group(3));
        }
        if (m.group(1).isEmpty()) {
            throw bad(rule, "no metric before '" + m.group(2) + "'; " + HOW);
        }
        if (verdict) {
            return verdictRule(rule, cmp, m.group(3));
        }
        if (K6_STAT.matcher(m.group(1)).matches()) {
            return parse(fromK6(rule, Metric.EVERY_OP, m.group(1).toLowerCase(Locale.ROOT), cmp, m.group(3)));
        }
        Metric metric = metric(rule, m.group(1));
        String[] tokens = m.group(3).isEmpty() ? new String[0] : m.group(3).split(" ");
        if (tokens.length == 0) {
            throw bad(rule, "no limit after '" + m.group(2) + "'; " + HOW);
        }
        int next = 1;
        String limitText = tokens[0];
        Matcher bare = NUMBER.matcher(tokens[0].toLowerCase(Locale.ROOT));
        if (tokens.length > 1 && bare.matches() && bare.group(2).isEmpty()
                && UNIT_WORDS.contains(tokens[1].toLowerCase(Locale.ROOT))) {
            limitText = tokens[0] + tokens[1]; // "5 ms"
            next = 2;
        }
        Limit limit = limit(rule, metric, limitText, isErrorRate(m.group(1)));
        return options(rule, metric, cmp, limit, tokens, next);
    }

    /** A statistic alone, as an objective names one: {@code p99}, {@code p(99.9)}, {@code max}, {@code mean}, ... */
    private static final Pattern STAT_ONLY = Pattern.compile("(?i)p\\(?[0-9.]+\\)?|max|min|mean|avg|med|median");

    /**
     * Parses an objective: a whole rule, or a statistic with its comparison and limit ({@code p99 < 5ms}), read as
     * every operation type's intended latency ({@code *.intended.p99 < 5ms}), what users see. Used where a
     * latency objective is named on its own (a chart's SLA line, {@code findmax --slo}).
     *
     * @throws BadInputException naming what is wrong and the accepted form
     */
    public static Rule parseObjective(String text) {
        String t = text == null ? "" : text.strip();
        Matcher m = SPLIT.matcher(t.replaceAll("\\s+", " "));
        boolean bare = m.matches() && STAT_ONLY.matcher(m.group(1)).matches();
        return parse(bare ? Metric.EVERY_OP + ".intended." + t : t);
    }

    /**
     * A k6 threshold expression on {@code op}'s requests ({@code *}: each type's latency, all types' errors) in
     * loadgen's form: {@code p(99)<200} is {@code *.intended.p99 < 200ms} (a plain number is k6's milliseconds;
     * a unit, as in {@code max<1s}, is kept), {@code rate<0.01} is {@code error_rate < 0.01}. What follows the
     * limit (windows) is kept.
     */
    static String fromK6(String rule, String op, String stat, Comparison cmp, String rest) {
        if (stat.equals("rate")) {
            return (op.equals(Metric.EVERY_OP) ? "" : op + ".") + ERROR_RATE + " " + cmp.symbol() + " " + rest;
        }
        String[] tokens = rest.split(" ", 2);
        Matcher bare = NUMBER.matcher(tokens[0].toLowerCase(Locale.ROOT));
        boolean unitFollows = tokens.length > 1
                && UNIT_WORDS.contains(tokens[1].split(" ")[0].toLowerCase(Locale.ROOT));
        String limit = bare.matches() && bare.group(2).isEmpty() && !unitFollows ? tokens[0] + "ms" : tokens[0];
        return op + ".intended." + stat(rule, stat).name() + " " + cmp.symbol() + " " + limit
                + (tokens.length > 1 ? " " + tokens[1] : "");
    }

    /** Whether the metric is {@code error_rate} or {@code OP.error_rate}. */
    private static boolean isErrorRate(String metric) {
        String[] parts = metric.split("\\.");
        return parts.length <= 2 && parts[parts.length - 1].equalsIgnoreCase(ERROR_RATE);
    }

    /**
     * {@code harness.verdict == healthy}: the harness's verdict on a whole run ({@link
     * io.loadgen.core.summary.HarnessVerdict}), so no windows and no abort.
     */
    private static Rule verdictRule(String rule, Comparison cmp, String limitText) {
        Limit limit = switch (limitText.toLowerCase(Locale.ROOT)) {
            case io.loadgen.core.summary.HarnessVerdict.HEALTHY -> Limit.HEALTHY;
            case io.loadgen.core.summary.HarnessVerdict.BEHIND -> Limit.BEHIND;
            default -> throw bad(rule, limitText.isEmpty() ? "no verdict after '" + cmp.symbol() + "'; " + VERDICT_FORM
                    : "'" + limitText + "' is not a verdict (healthy or behind); the verdict is judged on the whole"
                    + " run, without windows; " + VERDICT_FORM);
        };
        return new Rule(rule, new Metric(Metric.Kind.VERDICT, null, null, null), cmp, limit, null, false, null);
    }

    /** {@code diagnosis != harness_stalled}: whether the run's diagnosis names a cause, judged on the whole run. */
    private static Rule diagnosisRule(String rule, Comparison cmp, String limitText) {
        io.loadgen.core.diagnosis.CauseCode code = limitText.isEmpty() ? null
                : io.loadgen.core.diagnosis.CauseCode.ofKey(limitText);
        if (code == null) {
            throw bad(rule, limitText.isEmpty() ? "no cause after '" + cmp.symbol() + "'; " + DIAGNOSIS_FORM
                    : "'" + limitText + "' is not a cause; " + DIAGNOSIS_FORM);
        }
        return new Rule(rule, new Metric(Metric.Kind.DIAGNOSIS, null, null, null), cmp,
                new Limit(code.ordinal(), Limit.Unit.CAUSE), null, false, null);
    }

    private static Rule options(String rule, Metric metric, Comparison cmp, Limit limit, String[] tokens, int from) {
        Duration window = null;
        boolean abort = false;
        Duration after = null;
        int i = from;
        while (i < tokens.length) {
            String word = tokens[i].toLowerCase(Locale.ROOT);
            if (word.equals("over") && window == null) {
                boolean complete = i + 2 < tokens.length
                        && (tokens[i + 2].equalsIgnoreCase("windows") || tokens[i + 2].equalsIgnoreCase("window"));
                if (!complete) {
                    throw bad(rule, "write windows as 'over 10s windows'");
                }
                window = duration(rule, tokens[i + 1], "'over " + tokens[i + 1] + " windows' needs a window length"
                        + " with a unit, e.g. 'over 10s windows'");
                if (window.toMillis() < 1) {
                    throw bad(rule, "windows must be at least 1ms long");
                }
                i += 3;
            } else if (word.equals("abort-on-fail") && !abort) {
                abort = true;
                i++;
                if (i < tokens.length && tokens[i].equalsIgnoreCase("after")) {
                    if (i + 1 >= tokens.length) {
                        throw bad(rule, "'abort-on-fail after' needs a duration, e.g. 'abort-on-fail after 30s'");
                    }
                    after = duration(rule, tokens[i + 1], "'abort-on-fail after " + tokens[i + 1]
                            + "' needs a duration with a unit, e.g. 'abort-on-fail after 30s'");
                    i += 2;
                }
            } else {
                throw bad(rule, "unexpected '" + tokens[i] + "'; after the limit come only 'over 10s windows' and"
                        + " 'abort-on-fail [after 30s]'");
            }
        }
        if (abort && window == null) {
            throw bad(rule, "abort-on-fail needs windows: a run is stopped by a rule judged on every window,"
                    + " e.g. '... over 10s windows abort-on-fail'");
        }
        return new Rule(rule, metric, cmp, limit, window, abort, after);
    }

    private static Metric metric(String rule, String text) {
        if (text.contains(" ")) {
            throw bad(rule, "'" + text + "' is not a metric; write " + METRICS);
        }
        String[] parts = text.split("\\.", 3);
        String first = parts[0].toLowerCase(Locale.ROOT);
        if (parts.length == 1) {
            return switch (first) {
                case "throughput" -> new Metric(Metric.Kind.THROUGHPUT, null, null, null);
                case "errors", ERROR_RATE -> new Metric(Metric.Kind.ERRORS, null, null, null);
                default -> throw bad(rule, "unknown metric '" + text + "'; write " + METRICS);
            };
        }
        if (first.equals("harness")) {
            if (parts.length == 3 && parts[1].equalsIgnoreCase("lag")) {
                return new Metric(Metric.Kind.LATENCY, null, GateView.LAG, stat(rule, parts[2]));
            }
            throw bad(rule, "the harness has its lag, harness.lag.STAT (e.g. harness.lag.p99), and its verdict: "
                    + VERDICT_FORM);
        }
        String op = parts[0];
        if (!OP.matcher(op).matches()) {
            throw bad(rule, "'" + op + "' is not an operation type; write " + METRICS);
        }
        String second = parts[1].toLowerCase(Locale.ROOT);
        if (parts.length == 2 && (second.equals("errors") || second.equals(ERROR_RATE))) {
            return new Metric(Metric.Kind.ERRORS, op, null, null);
        }
        if (parts.length == 2 && second.equals("throughput")) {
            return new Metric(Metric.Kind.THROUGHPUT, op, null, null);
        }
        if (second.equals(io.loadgen.core.record.View.FAILED)) {
            return failedMetric(rule, text, op, parts.length == 3 ? parts[2] : "");
        }
        GateView view = GateView.ofOperation(second);
        if (view == null) {
            throw bad(rule, "unknown view '" + parts[1] + "'; an operation's views are intended, service and"
                    + " corrected (and the harness has harness.lag.STAT)");
        }
        if (parts.length == 2) {
            throw bad(rule, "'" + text + "' needs a statistic: " + text + ".p99, for example (" + STATS + ")");
        }
        return new Metric(Metric.Kind.LATENCY, op, view, stat(rule, parts[2]));
    }

    /** {@code OP.failed.VIEW.STAT}, from {@code rest} = {@code VIEW.STAT}. */
    private static Metric failedMetric(String rule, String text, String op, String rest) {
        String[] parts = rest.split("\\.", 2);
        GateView view = GateView.failedOf(GateView.ofOperation(parts[0]));
        if (view == null) {
            throw bad(rule, "'" + text + "': the failed series are " + op + ".failed.intended and " + op
                    + ".failed.service, e.g. " + op + ".failed.intended.p99");
        }
        if (parts.length == 1 || parts[1].isEmpty()) {
            throw bad(rule, "'" + text + "' needs a statistic: " + text + ".p99, for example (" + STATS + ")");
        }
        return new Metric(Metric.Kind.LATENCY, op, view, stat(rule, parts[1]));
    }

    static Stat stat(String rule, String text) {
        String s = text.toLowerCase(Locale.ROOT);
        switch (s) {
            case "min":
                return Stat.MIN;
            case "max":
                return Stat.MAX;
            case "mean":
            case "avg":
                return Stat.MEAN;
            case "med":
            case "median":
                return Stat.percentile(50);
            case "count":
                return Stat.COUNT;
            default:
                break;
        }
        Matcher m = PERCENTILE.matcher(s);
        if (!m.matches()) {
            throw bad(rule, "unknown statistic '" + text + "'; write " + STATS);
        }
        String digits = m.group(1);
        if (!s.contains("(") && digits.matches("99[0-9]+")) {
            digits = "99." + digits.substring(2); // p999 = p99.9, p9999 = p99.99 (the Dropwizard names)
        }
        double p = new BigDecimal(digits).doubleValue();
        if (!(p > 0 && p <= 100)) {
            throw bad(rule, "percentile '" + text + "' is outside (0, 100]; write " + STATS);
        }
        return p == 100 ? Stat.MAX : Stat.percentile(p);
    }

    private static Limit limit(String rule, Metric metric, String text, boolean errorRate) {
        Matcher m = NUMBER.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw bad(rule, "the limit '" + text + "' is not a number; " + HOW);
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2).trim();
        switch (metric.kind()) {
            case ERRORS:
                return errorsLimit(rule, text, value, unit, errorRate);
            case THROUGHPUT:
                if (unit.isEmpty() || unit.equals("/s") || unit.equals("ops/s")) {
                    return new Limit(value, Limit.Unit.OPS_PER_SEC);
                }
                throw bad(rule, "a throughput limit is in operations per second (e.g. 9500/s), not '" + text + "'");
            default:
                break;
        }
        if (!metric.stat().isLatency()) {
            if (unit.isEmpty()) {
                return new Limit(value, Limit.Unit.COUNT);
            }
            throw bad(rule, "a count limit is a plain number (e.g. 1000), not '" + text + "'");
        }
        if (unit.isEmpty()) {
            throw bad(rule, "the limit '" + text + "' needs a unit; " + LATENCY_UNITS);
        }
        if (unit.matches(".*[0-9].*")) { // several parts, as in 1m30s
            return new Limit(duration(rule, text, "'" + text + "' is not a latency; write its parts largest unit"
                    + " first, e.g. 1m30s").toNanos(), Limit.Unit.NANOS);
        }
        double nsPerUnit = switch (unit) {
            case "ns" -> 1;
            case "us", "µs" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            case "m", "min" -> 60e9;
            default -> throw bad(rule, "unknown unit '" + unit + "' in '" + text + "'; " + LATENCY_UNITS);
        };
        return new Limit(value * nsPerUnit, Limit.Unit.NANOS);
    }

    /**
     * {@code errors}: a whole count or a share ({@code 0.1%}); {@code error_rate}: a fraction ({@code 0.001}) or a
     * share. {@code errors < 0.01} is refused: as a count it would mean "no errors", which is not what it says.
     */
    private static Limit errorsLimit(String rule, String text, double value, String unit, boolean errorRate) {
        if (unit.equals("%")) {
            return new Limit(value / 100.0, Limit.Unit.FRACTION);
        }
        if (errorRate && unit.isEmpty()) {
            if (value > 1) {
                throw bad(rule, "an error_rate is a fraction of the operations, from 0 to 1 (e.g. 0.01), or a share"
                        + " (e.g. 1%), not '" + text + "'");
            }
            return new Limit(value, Limit.Unit.FRACTION);
        }
        if (!errorRate && unit.isEmpty() && value == Math.rint(value)) {
            return new Limit(value, Limit.Unit.COUNT);
        }
        if (!errorRate && unit.isEmpty()) {
            throw bad(rule, "an errors limit is a whole count (e.g. 10); for a fraction of the operations write"
                    + " 'error_rate < " + text + "' (or a share, 'errors < " + BigDecimal.valueOf(value * 100)
                    .stripTrailingZeros().toPlainString() + "%')");
        }
        throw bad(rule, errorRate ? "an error_rate limit is a fraction (e.g. 0.01) or a share of the operations"
                + " (e.g. 1%), not '" + text + "'"
                : "an errors limit is a count (e.g. 10) or a share of the operations (e.g. 0.1%), not '" + text + "'");
    }

    private static Duration duration(String rule, String text, String message) {
        try {
            return Durations.parse(text, "rule");
        } catch (BadInputException e) {
            throw bad(rule, message);
        }
    }

    private static BadInputException bad(String rule, String problem) {
        return new BadInputException("rule '" + rule + "': " + problem);
    }
}
