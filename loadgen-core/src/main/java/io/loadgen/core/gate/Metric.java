package io.loadgen.core.gate;

/**
 * What a rule measures: a latency statistic of one view ({@code READ.intended.p99}), errors
 * ({@code READ.errors}), throughput ({@code throughput}) or the harness's verdict on itself
 * ({@code harness.verdict}). Immutable.
 *
 * @param kind which family of metric
 * @param op   the operation type as written ({@code READ}); {@link #EVERY_OP} for each type present;
 *             null for the harness's lag and verdict and for errors or throughput over all types together
 * @param view for {@link Kind#LATENCY}, the series; otherwise null
 * @param stat for {@link Kind#LATENCY}, the statistic; otherwise null
 */
public record Metric(Kind kind, String op, GateView view, Stat stat) {
    /** The operation wildcard: the rule applies to every operation type present, one verdict each. */
    public static final String EVERY_OP = "*";

    /** The families of metric. */
    public enum Kind {
        /** A statistic of a latency series, in ns (or its count). */
        LATENCY,
        /** Operations that returned anything but OK: a count, or a share of the operations. */
        ERRORS,
        /** Completed operations per second. */
        THROUGHPUT,
        /** The harness's verdict on itself ({@code harness.verdict == healthy}), judged on a whole run. */
        VERDICT,
        /** Whether the run's diagnosis names a cause ({@code diagnosis != harness_stalled}), judged on a whole run. */
        DIAGNOSIS
    }

    public boolean everyOp() {
        return EVERY_OP.equals(op);
    }

    /** True when the metric belongs to one operation type (or each), false for lag and all-types totals. */
    public boolean perOp() {
        return op != null;
    }
}
