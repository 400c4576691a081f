package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;

/**
 * The part of interval logs a gate reads: intervals whose start lies in [start, end), in seconds from
 * the logs' StartTime. Windows count from {@code start}. Immutable.
 *
 * @param startSec the first second, or null for the logs' start
 * @param endSec   the end, or null for the logs' end
 */
public record TimeRange(Double startSec, Double endSec) {
    /** The whole of the logs. */
    public static final TimeRange ALL = new TimeRange(null, null);

    /** @throws BadInputException when start is negative or not below end */
    public TimeRange {
        if (startSec != null && !(startSec >= 0)) {
            throw new BadInputException("--start must be 0 or more seconds from the log's start (got " + startSec + ")");
        }
        if (startSec != null && endSec != null && !(endSec > startSec)) {
            throw new BadInputException("--end (" + endSec + ") must be after --start (" + startSec + ")");
        }
        if (endSec != null && !(endSec > 0)) {
            throw new BadInputException("--end must be a positive number of seconds from the log's start (got " + endSec + ")");
        }
    }

    public boolean isAll() {
        return startSec == null && endSec == null;
    }

    long fromMs() {
        return startSec == null ? Long.MIN_VALUE : Math.round(startSec * 1000);
    }

    long toMs() {
        return endSec == null ? Long.MAX_VALUE : Math.round(endSec * 1000);
    }

    /** Where window 0 starts: at {@code start}, or the logs' start. */
    long originMs() {
        return startSec == null ? 0 : fromMs();
    }

    boolean contains(long startMs) {
        return startMs >= fromMs() && startMs < toMs();
    }

    String describe() {
        return "between --start " + (startSec == null ? 0 : startSec) + " s and --end "
                + (endSec == null ? "the end" : endSec + " s");
    }
}
