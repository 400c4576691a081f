package io.loadgen.core.log;

/**
 * One {@code #[event: ...]} line of an interval log ({@link io.loadgen.core.record.EventLine}), placed on
 * the epoch time line by the rules that place the log's interval lines. Immutable.
 *
 * @param kind             what happened, e.g. {@code stop-the-world}, {@code gc}
 * @param source           who saw it: a driver's name, or {@code harness}
 * @param absoluteStartSec when it began, seconds since the epoch
 * @param lengthSec        how long it lasted, in seconds
 * @param where            {@code file:line}, for messages
 * @param rateOpsPerSec    for a change of the target rate, the rate from then on; NaN for other events
 */
public record LogEvent(String kind, String source, double absoluteStartSec, double lengthSec, String where,
                       double rateOpsPerSec) {
    /** An event without a rate (a pause). */
    public LogEvent(String kind, String source, double absoluteStartSec, double lengthSec, String where) {
        this(kind, source, absoluteStartSec, lengthSec, where, Double.NaN);
    }

    /** Whether this event is a change of the target rate (it has one). */
    public boolean isRateChange() {
        return !Double.isNaN(rateOpsPerSec);
    }

    /** When it ended, seconds since the epoch. */
    public double absoluteEndSec() {
        return absoluteStartSec + lengthSec;
    }
}
