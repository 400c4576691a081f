package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Judges windowed rules ({@code ... over 10s windows}) window by window as intervals stream in, from
 * an interval log or a live run: consecutive windows of one length from an origin, each interval
 * counted in the window its start falls in. Keeps, per rule and operation type, the worst window and
 * how many failed, so a bad minute is not averaged away by a good hour; and stops a live run through
 * {@code abort} once an {@code abort-on-fail} rule has failed for its grace period. One thread (the
 * log reader's, or the run's interval sampler); read the verdicts after {@link #finish()}.
 *
 * <p>A window with no operations of a type is not judged for that type (nor a failed series' window
 * with no failures: a rule on a failed series that saw none in any window passes). A window that covers less
 * than half its length (typically a run's last, cut-short one) is not judged for throughput, whose
 * rate over a few milliseconds means nothing; its latencies are.
 */
final class WindowTracker {
    private static final String ALL = "";

    private final long windowMs;
    private final long originMs;
    private final List<Rule> rules;
    private final String source;
    private final Consumer<String> abort;
    private final HistogramSet current = new HistogramSet();
    private final List<Map<String, Record>> records = new ArrayList<>();
    private final Set<String> operationsSeen = new LinkedHashSet<>();
    private long index = Long.MIN_VALUE;

    /**
     * @param windowMs the window length; every rule's window must have it
     * @param originMs where window 0 starts, in the ms of the intervals added
     * @param abort    called once with the reason when an abort-on-fail rule has failed long enough, or null
     */
    WindowTracker(long windowMs, long originMs, List<Rule> rules, String source, Consumer<String> abort) {
        this.windowMs = windowMs;
        this.originMs = originMs;
        this.rules = List.copyOf(rules);
        this.source = source;
        this.abort = abort;
        for (int i = 0; i < rules.size(); i++) {
            records.add(new LinkedHashMap<>());
        }
    }

    /** Adds one interval histogram; ms relative to the log's (or run's) start. */
    void add(String tag, Histogram interval, long startMs, long endMs) {
        long k = Math.floorDiv(startMs - originMs, windowMs);
        if (k != index) {
            close();
            index = k;
        }
        current.add(tag, interval, startMs, endMs);
    }

    /** Every tag of an interval ending at {@code endMs} was added: judges the window now if the interval ends it. */
    void endOfInterval(long endMs) {
        if (index != Long.MIN_VALUE && endMs >= windowEndMs()) {
            close();
        }
    }

    /** No more intervals: judges the window in progress. */
    void finish() {
        close();
    }

    private long windowStartMs() {
        return originMs + index * windowMs;
    }

    private long windowEndMs() {
        return windowStartMs() + windowMs;
    }

    private void close() {
        if (current.isEmpty()) {
            return;
        }
        long startMs = windowStartMs();
        long endMs = windowEndMs();
        String where = Units.seconds(startMs) + "-" + Units.seconds(endMs) + " s";
        Measurements m = HistogramMeasurements.ofLog(source + " @ " + where, current.byTag(),
                current.spanMs() / 1000.0);
        operationsSeen.addAll(m.operations());
        boolean full = current.spanMs() * 2 >= windowMs;
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rules.get(i);
            if (rule.metric().kind() == Metric.Kind.THROUGHPUT && !full) {
                continue;
            }
            for (String op : operations(rule, m)) {
                double observed = observe(rule, m, op);
                if (!Double.isNaN(observed)) {
                    Record r = records.get(i).computeIfAbsent(op == null ? ALL : op, o -> new Record());
                    judge(rule, op, r, observed, startMs, endMs, where);
                }
            }
        }
        current.reset();
    }

    private static List<String> operations(Rule rule, Measurements m) {
        if (!rule.metric().perOp()) {
            return RuleEvaluator.operations(rule, m);
        }
        String op = rule.metric().everyOp() ? null : RuleEvaluator.find(rule.metric().op(), m.operations());
        return rule.metric().everyOp() ? m.operations() : op == null ? List.of() : List.of(op);
    }

    private static double observe(Rule rule, Measurements m, String op) {
        try {
            return RuleEvaluator.observe(rule, m, op);
        } catch (BadInputException e) {
            throw RuleEvaluator.inRule(rule, e);
        }
    }

    private void judge(Rule rule, String op, Record r, double observed, long startMs, long endMs, String where) {
        boolean passed = RuleEvaluator.passes(rule, observed);
        r.windows++;
        boolean worse = rule.comparison().isCeiling() ? observed > r.worst : observed < r.worst;
        if (Double.isNaN(r.worst) || worse) {
            r.worst = observed;
            r.worstWhere = where;
        }
        if (passed) {
            r.failingSinceMs = Long.MIN_VALUE;
            return;
        }
        r.failed++;
        if (r.failingSinceMs == Long.MIN_VALUE) {
            r.failingSinceMs = startMs;
        }
        long failedForMs = endMs - r.failingSinceMs;
        long graceMs = rule.abortAfter() == null ? 0 : rule.abortAfter().toMillis();
        if (rule.abortOnFail() && abort != null && !r.aborted && failedForMs >= graceMs) {
            r.aborted = true;
            abort.accept("gate failed: " + rule.nameFor(op) + " (" + Units.format(observed, rule.limit().unit())
                    + " @ " + where + ", failing for " + Units.seconds(failedForMs) + " s)");
        }
    }

    /**
     * One verdict per rule and operation type, in rule order.
     *
     * @throws BadInputException for a rule naming an operation type no window held, when some type was seen
     */
    Map<Rule, List<Verdict>> verdicts() {
        Map<Rule, List<Verdict>> out = new LinkedHashMap<>();
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rules.get(i);
            List<Verdict> verdicts = new ArrayList<>();
            for (String op : expectedOperations(rule)) {
                Record r = records.get(i).get(op == null ? ALL : op);
                verdicts.add(r != null ? r.verdict(rule, op) : failedSeries(rule)
                        ? new Verdict(rule.nameFor(op), RuleEvaluator.NO_FAILURES + " in any window",
                                RuleEvaluator.limitText(rule), true)
                        : new Verdict(rule.nameFor(op), "no data in any window", RuleEvaluator.limitText(rule), false));
            }
            if (verdicts.isEmpty()) {
                verdicts.add(new Verdict(rule.text(), "no operations", RuleEvaluator.limitText(rule), false));
            }
            out.put(rule, verdicts);
        }
        return out;
    }

    /** Whether the rule reads a latency of a failed series, where no data means nothing failed (a pass). */
    private static boolean failedSeries(Rule rule) {
        return rule.metric().kind() == Metric.Kind.LATENCY && rule.metric().view().failed();
    }

    private List<String> expectedOperations(Rule rule) {
        List<String> seen = new ArrayList<>(operationsSeen);
        if (!rule.metric().perOp()) {
            List<String> none = new ArrayList<>();
            none.add(null);
            return none;
        }
        if (rule.metric().everyOp()) {
            return seen;
        }
        String op = RuleEvaluator.find(rule.metric().op(), seen);
        if (op == null && !seen.isEmpty()) {
            throw new BadInputException("rule '" + rule.text() + "': " + source + " has no operation '"
                    + rule.metric().op() + "'; it has " + String.join(", ", seen));
        }
        return List.of(op == null ? rule.metric().op() : op);
    }

    /** What one rule saw of one operation type over the windows. */
    private static final class Record {
        double worst = Double.NaN;
        String worstWhere;
        int windows;
        int failed;
        long failingSinceMs = Long.MIN_VALUE;
        boolean aborted;

        Verdict verdict(Rule rule, String op) {
            String observed = Units.format(worst, rule.limit().unit()) + " @ " + worstWhere + ", "
                    + (failed > 0 ? failed + " of " + io.loadgen.core.diagnosis.Figures.plural(windows, "window") + " failed"
                    : windows == 1 ? "1 window" : "worst of " + windows + " windows");
            return new Verdict(rule.nameFor(op), observed, RuleEvaluator.limitText(rule), failed == 0);
        }
    }
}
