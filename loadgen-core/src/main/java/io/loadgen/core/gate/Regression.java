package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How much worse than a baseline a run may be: {@code p99:+10%,p99.9:+20%} allows each latency
 * statistic to grow by that share, {@code throughput:-5%} allows throughput to drop by that share.
 * It makes one rule per operation type and view present in both runs and per statistic, with the
 * limit taken from the baseline: observed &le; baseline &times; (1 + x), or for throughput
 * observed &ge; baseline &times; (1 + x). An unsigned share is an allowed worsening. Immutable.
 *
 * @param text  the specification as given
 * @param items what may regress, by how much
 */
public record Regression(String text, List<Item> items) {
    private static final Pattern ITEM = Pattern.compile("^([^:]+):\\s*([-+]?)([0-9]+(?:\\.[0-9]+)?)\\s*%$");
    private static final String HOW = "write STAT:+N%, e.g. 'p99:+10%,p99.9:+20%' (STAT is p50, p99.9, max, mean"
            + " or another latency statistic; or throughput:-N%)";
    private static final GateView[] VIEWS = {GateView.INTENDED, GateView.SERVICE, GateView.CORRECTED};

    /**
     * One allowance.
     *
     * @param stat   the latency statistic, or null for throughput
     * @param change the allowed relative change, signed: +0.10 for 10% more latency, -0.05 for 5% less throughput
     * @param text   as written back, e.g. {@code +10%}
     */
    public record Item(Stat stat, double change, String text) {
    }

    /** @throws BadInputException naming the item at fault and the accepted form */
    public static Regression parse(String spec) {
        List<Item> items = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.trim();
            Matcher m = ITEM.matcher(p);
            if (!m.matches()) {
                throw new BadInputException("--max-regression '" + spec + "': '" + p + "' is not an allowance; " + HOW);
            }
            String what = m.group(1).trim().toLowerCase(Locale.ROOT);
            double share = new BigDecimal(m.group(3)).doubleValue() / 100.0;
            boolean throughput = what.equals("throughput");
            Stat stat = throughput ? null : stat(spec, m.group(1).trim());
            String sign = m.group(2).isEmpty() ? (throughput ? "-" : "+") : m.group(2);
            double change = sign.equals("-") ? -share : share;
            items.add(new Item(stat, change, sign + m.group(3) + "%"));
        }
        return new Regression(spec, items);
    }

    private static Stat stat(String spec, String text) {
        Stat stat;
        try {
            stat = RuleParser.stat(spec, text);
        } catch (BadInputException e) {
            throw new BadInputException("--max-regression '" + spec + "': unknown statistic '" + text + "'; " + HOW);
        }
        if (!stat.isLatency()) {
            throw new BadInputException("--max-regression '" + spec + "': " + text + " is not a latency; " + HOW);
        }
        return stat;
    }

    /**
     * Judges {@code current} against {@code baseline}: one verdict per operation type and view present in both and
     * per allowance, then throughput. A rule fails only on a regression beyond its allowance that is also
     * significant: the change's 95 % confidence interval ({@link Estimator}, from each run's intervals) lies
     * entirely on the worse side of 0. Without an interval (a JSON summary has no intervals; the max is one
     * operation; too few samples) it falls back to the plain comparison of the two figures, and says so.
     *
     * @throws BadInputException when the two have no operation type in common, or the baseline lacks a statistic
     */
    List<Verdict> verdicts(RunIntervals baseline, RunIntervals current) {
        List<String> common = new ArrayList<>();
        for (String op : current.operations()) {
            if (RuleEvaluator.find(op, baseline.operations()) != null) {
                common.add(op);
            }
        }
        if (common.isEmpty()) {
            throw new BadInputException("the baseline " + baseline.source() + " and " + current.source() + " have no"
                    + " operation type in common (baseline: " + String.join(", ", baseline.operations()) + "; current: "
                    + String.join(", ", current.operations()) + "); compare runs of the same workload");
        }
        List<Verdict> verdicts = new ArrayList<>();
        for (String op : common) {
            String baseOp = RuleEvaluator.find(op, baseline.operations());
            for (GateView view : VIEWS) {
                if (!baseline.has(baseOp, view) || !current.has(op, view)) {
                    continue;
                }
                for (Item item : items) {
                    if (item.stat() != null) {
                        double base = baselineValue(baseline, baseOp, view, item.stat());
                        if (Double.isNaN(base)) {
                            continue; // nothing measured in the baseline: nothing to regress from
                        }
                        Estimate e = Estimator.latencies(baseline, current, baseOp, op, view, List.of(item.stat()),
                                CompareOptions.DEFAULTS).get(0);
                        String metric = op + "." + view.key() + "." + item.stat().name();
                        Metric m = new Metric(Metric.Kind.LATENCY, op, view, item.stat());
                        add(verdicts, current, metric, m, Comparison.LESS_OR_EQUAL, item, base, Limit.Unit.NANOS, e);
                    }
                }
            }
        }
        for (Item item : items) {
            if (item.stat() == null) {
                Metric m = new Metric(Metric.Kind.THROUGHPUT, null, null, null);
                double base = baseline.throughput(null);
                if (!Double.isNaN(base)) {
                    add(verdicts, current, "throughput", m, Comparison.GREATER_OR_EQUAL, item, base,
                            Limit.Unit.OPS_PER_SEC, Estimator.throughput(baseline, current, null, null,
                                    CompareOptions.DEFAULTS));
                }
            }
        }
        return verdicts;
    }

    private static double baselineValue(RunIntervals baseline, String op, GateView view, Stat stat) {
        try {
            return baseline.latency(op, view, stat);
        } catch (BadInputException e) {
            throw new BadInputException("--baseline: " + e.getMessage(), e);
        }
    }

    /**
     * The plain comparison's verdict, then, with an interval, failed only when the change is also significant on the
     * worse side; the observed column gains the change and its interval, or why there is none.
     */
    private static void add(List<Verdict> verdicts, RunIntervals current, String metric, Metric m, Comparison cmp,
                            Item item, double base, Limit.Unit unit, Estimate e) {
        Limit limit = new Limit(base * (1 + item.change()), unit);
        Rule rule = new Rule(metric + " " + cmp.symbol() + " baseline " + item.text(), m, cmp, limit, null, false, null);
        for (Verdict v : RuleEvaluator.evaluate(rule, current.measurements())) {
            String limitText = v.limit() + " (baseline " + Units.format(base, unit) + " " + item.text() + ")";
            if (!e.hasInterval()) {
                String why = e.tooFew() ? "too few samples for an interval"
                        : e.reason().replace("; compare interval logs", "");
                verdicts.add(new Verdict(v.rule(), v.observed() + " (" + why + ": plain comparison)", limitText,
                        v.passed()));
                continue;
            }
            boolean worseSignificant = cmp == Comparison.LESS_OR_EQUAL ? e.ciLow() > 0 : e.ciHigh() < 0;
            boolean passed = v.passed() || !worseSignificant;
            String change = Estimate.changeText(e.change()) + ", 95 % CI " + e.intervalText();
            verdicts.add(new Verdict(v.rule(), v.observed() + " (" + change + (v.passed() || worseSignificant ? ""
                    : ": within noise, not significant") + ")", limitText + ", if significant", passed));
        }
    }
}
