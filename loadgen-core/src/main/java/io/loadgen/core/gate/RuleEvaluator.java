package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Judges rules against one body of {@link Measurements}: finds the operation types a rule names,
 * reads the observed value and compares it with the limit. Stateless; any thread.
 */
final class RuleEvaluator {
    private RuleEvaluator() {
    }

    /**
     * The verdicts of a rule that is not windowed: one, or one per operation type for {@code *}.
     * Nothing measured (no operations) fails: a gate on nothing does not pass. The one exception is a
     * latency rule on a failed series when nothing failed: that passes, as {@code no failures}.
     *
     * @throws BadInputException naming the rule, for an operation type, view or statistic the source lacks
     */
    static List<Verdict> evaluate(Rule rule, Measurements m) {
        try {
            List<Verdict> verdicts = new ArrayList<>();
            List<String> ops = operations(rule, m);
            if (ops.isEmpty()) {
                verdicts.add(new Verdict(rule.text(), "no operations", limitText(rule), false));
            }
            for (String op : ops) {
                double observed = observe(rule, m, op);
                if (Double.isNaN(observed) && nothingFailed(rule, m, op)) {
                    verdicts.add(new Verdict(rule.nameFor(op), NO_FAILURES, limitText(rule), true));
                    continue;
                }
                verdicts.add(new Verdict(rule.nameFor(op), describe(rule, m, op, observed), limitText(rule),
                        passes(rule, observed)));
            }
            return verdicts;
        } catch (BadInputException e) {
            throw inRule(rule, e);
        }
    }

    /** The observed value of a rule on a failed series that holds nothing: a pass. */
    static final String NO_FAILURES = "no failures";

    /** Whether the rule reads a latency of a failed series, and that series is empty (rather than absent). */
    static boolean nothingFailed(Rule rule, Measurements m, String op) {
        Metric metric = rule.metric();
        return metric.kind() == Metric.Kind.LATENCY && metric.view().failed()
                && m.latency(op, metric.view(), Stat.COUNT) == 0;
    }

    /** A rule's message with the rule in front, as every gate message has. */
    static BadInputException inRule(Rule rule, BadInputException e) {
        return new BadInputException("rule '" + rule.text() + "': " + e.getMessage(), e);
    }

    /** The source's names of the types the rule applies to: each for {@code *}, the one it names, or [null]. */
    static List<String> operations(Rule rule, Measurements m) {
        Metric metric = rule.metric();
        if (!metric.perOp()) {
            List<String> none = new ArrayList<>();
            none.add(null);
            return none;
        }
        List<String> present = m.operations();
        if (metric.everyOp()) {
            return present;
        }
        String op = find(metric.op(), present);
        if (op == null) {
            throw new BadInputException(m.source() + " has no operation '" + metric.op() + "'; it has "
                    + (present.isEmpty() ? "none" : String.join(", ", present)));
        }
        return List.of(op);
    }

    /** The name in {@code present} that matches {@code op} regardless of case, or null. */
    static String find(String op, List<String> present) {
        for (String p : present) {
            if (p.equals(op)) {
                return p;
            }
        }
        for (String p : present) {
            if (p.toUpperCase(Locale.ROOT).equals(op.toUpperCase(Locale.ROOT))) {
                return p;
            }
        }
        return null;
    }

    /** The observed value in the limit's unit; NaN when nothing was measured. */
    static double observe(Rule rule, Measurements m, String op) {
        Metric metric = rule.metric();
        switch (metric.kind()) {
            case LATENCY:
                return m.latency(op, metric.view(), metric.stat());
            case THROUGHPUT:
                return m.throughput(op);
            case VERDICT:
                return m.harnessVerdict().healthy() ? Limit.HEALTHY.value() : Limit.BEHIND.value();
            case DIAGNOSIS:
                return m.causes().contains(io.loadgen.core.diagnosis.CauseCode.values()[(int) rule.limit().value()])
                        ? rule.limit().value() : -1;
            default:
                break;
        }
        long errors = errors(m, op);
        if (rule.limit().unit() != Limit.Unit.FRACTION) {
            return errors;
        }
        long count = count(m, op);
        return count == 0 ? Double.NaN : (double) errors / count;
    }

    static boolean passes(Rule rule, double observed) {
        return rule.comparison().holds(observed, rule.limit().value());
    }

    static String limitText(Rule rule) {
        return rule.comparison().symbol() + " " + rule.limit().format();
    }

    /**
     * The observed value for a person; an error share also shows the counts, e.g. {@code 0.02% (3 of 15000)}.
     * A latency of the successes says how many failed operations it leaves out, e.g.
     * {@code 1.2 ms (3012 failed not included)}: during an outage, failures that return at once would
     * otherwise let a latency gate pass on the few operations that succeeded.
     */
    static String describe(Rule rule, Measurements m, String op, double observed) {
        String text = Units.format(observed, rule.limit().unit());
        if (rule.metric().kind() == Metric.Kind.VERDICT) {
            List<String> reasons = new ArrayList<>();
            m.harnessVerdict().reasons().forEach(r -> reasons.add(r.key()));
            return reasons.isEmpty() ? text : text + " (" + String.join(", ", reasons) + ")";
        }
        if (rule.metric().kind() == Metric.Kind.DIAGNOSIS) {
            List<String> causes = new ArrayList<>();
            m.causes().forEach(c -> causes.add(c.key()));
            return "causes: " + String.join(", ", causes);
        }
        if (rule.metric().kind() == Metric.Kind.THROUGHPUT) {
            long failed = failedOperations(m, op);
            return failed > 0 ? text + " (succeeded; " + failed + " failed not counted)" : text;
        }
        if (rule.metric().kind() == Metric.Kind.ERRORS && rule.limit().unit() == Limit.Unit.FRACTION) {
            long count = count(m, op);
            return count == 0 ? "no operations" : text + " (" + errors(m, op) + " of " + count + ")";
        }
        long failed = failedLeftOut(rule, m, op);
        return failed > 0 ? text + " (" + failed + " failed not included)" : text;
    }

    /** Failed operations of {@code op} that a latency rule on a success view does not see; 0 when none or unknown. */
    static long failedLeftOut(Rule rule, Measurements m, String op) {
        Metric metric = rule.metric();
        if (metric.kind() != Metric.Kind.LATENCY || op == null || metric.view() == GateView.LAG || metric.view().failed()) {
            return 0;
        }
        GateView failed = GateView.failedOf(metric.view() == GateView.CORRECTED ? GateView.SERVICE : metric.view());
        if (!m.has(op, failed)) {
            return 0;
        }
        double count = m.latency(op, failed, Stat.COUNT);
        return Double.isNaN(count) ? 0 : (long) count;
    }

    /** Failed operations of {@code op} (all types when null), or 0 when the source does not count them. */
    private static long failedOperations(Measurements m, String op) {
        try {
            return errors(m, op);
        } catch (io.loadgen.core.BadInputException noCounts) {
            return 0;
        }
    }

    private static long errors(Measurements m, String op) {
        if (op != null) {
            return m.errors(op);
        }
        long n = 0;
        for (String o : m.operations()) {
            n += m.errors(o);
        }
        return n;
    }

    private static long count(Measurements m, String op) {
        if (op != null) {
            return m.count(op);
        }
        long n = 0;
        for (String o : m.operations()) {
            n += m.count(o);
        }
        return n;
    }
}
