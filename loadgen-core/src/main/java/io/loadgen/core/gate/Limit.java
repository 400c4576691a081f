package io.loadgen.core.gate;

/**
 * A rule's limit, in the unit of what it limits. Immutable.
 *
 * @param value the limit: ns, a fraction (0.001 for 0.1%), a count, or operations per second
 * @param unit  what {@code value} is
 */
public record Limit(double value, Unit unit) {
    /** The units a limit (and an observed value) can have. */
    public enum Unit {
        /** A latency, in nanoseconds. */
        NANOS,
        /** A share of the operations (0.001 = 0.1%). */
        FRACTION,
        /** A number of operations. */
        COUNT,
        /** Operations per second. */
        OPS_PER_SEC,
        /** The harness's verdict: 0 = healthy, 1 = behind ({@link io.loadgen.core.summary.HarnessVerdict}). */
        VERDICT,
        /**
         * A cause of the run's diagnosis, by its {@link io.loadgen.core.diagnosis.CauseCode} ordinal; an observed
         * value of -1 means the cause named is not among the run's.
         */
        CAUSE
    }

    /** The limit of a {@code harness.verdict} rule: {@code healthy}. */
    public static final Limit HEALTHY = new Limit(0, Unit.VERDICT);
    /** The limit of a {@code harness.verdict} rule: {@code behind}. */
    public static final Limit BEHIND = new Limit(1, Unit.VERDICT);

    /** The limit for a person, e.g. {@code 5 ms}, {@code 0.1%}, {@code 9500/s}. */
    public String format() {
        return Units.format(value, unit);
    }
}
