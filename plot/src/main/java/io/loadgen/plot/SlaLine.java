package io.loadgen.plot;

import io.loadgen.core.BadInputException;
import io.loadgen.core.gate.Comparison;
import io.loadgen.core.gate.Limit;
import io.loadgen.core.gate.Metric;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.gate.RuleParser;
import io.loadgen.core.gate.Stat;
import io.loadgen.core.sweep.SweepKnee;

/**
 * A latency objective drawn on a chart, written in the gate's rule syntax ({@link RuleParser}): a whole
 * rule such as {@code READ.intended.p99 < 5ms}, or just its statistic, limit and comparison, {@code p99 <
 * 5ms} (read as {@code *.intended.p99 < 5ms}). Only upper limits on a percentile or the maximum make a
 * line. Immutable.
 *
 * @param text       the objective as written
 * @param percentile 0 to 100 (100 for max)
 * @param limitNs    the limit, ns
 * @param inclusive  true for {@code <=}
 */
public record SlaLine(String text, double percentile, double limitNs, boolean inclusive) {
    private static final String HOW = "write a latency limit as the gate does, e.g. 'p99 < 5ms', 'max < 1s' or"
            + " 'READ.intended.p99.9 < 20ms'";

    /**
     * Parses an objective.
     *
     * @throws BadInputException quoting it, naming what is wrong and the accepted form
     */
    public static SlaLine parse(String text) {
        String t = text == null ? "" : text.strip();
        Rule rule;
        try {
            rule = RuleParser.parseObjective(t);
        } catch (BadInputException e) {
            throw new BadInputException("--sla '" + text + "': " + e.getMessage().replaceFirst("^rule '[^']*': ", ""), e);
        }
        Metric m = rule.metric();
        boolean upper = rule.comparison() == Comparison.LESS || rule.comparison() == Comparison.LESS_OR_EQUAL;
        boolean latency = m.kind() == Metric.Kind.LATENCY && rule.limit().unit() == Limit.Unit.NANOS
                && (m.stat().kind() == Stat.Kind.PERCENTILE || m.stat().kind() == Stat.Kind.MAX);
        if (!upper || !latency || rule.windowed()) {
            throw new BadInputException("--sla '" + text + "': a chart draws an upper limit on a percentile or the"
                    + " maximum, without windows; " + HOW);
        }
        double p = m.stat().kind() == Stat.Kind.MAX ? 100.0 : m.stat().percentile();
        return new SlaLine(t, p, rule.limit().value(), rule.comparison() == Comparison.LESS_OR_EQUAL);
    }

    /** The same objective for a sweep's knee. */
    public SweepKnee.Objective objective() {
        return new SweepKnee.Objective(text, percentile, limitNs, inclusive);
    }
}
