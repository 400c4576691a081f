package io.loadgen.core.driver;

/**
 * The outcome of one operation, with YCSB's names (printed as {@code Return=OK} in the summary).
 * Returned by a {@link Driver} on the worker thread; an enum so reporting it allocates nothing.
 */
public enum Status {
    OK,
    ERROR,
    NOT_FOUND,
    NOT_IMPLEMENTED,
    UNEXPECTED_STATE,
    BAD_REQUEST,
    FORBIDDEN,
    SERVICE_UNAVAILABLE,
    /**
     * No answer within the driver's own timeout ({@code redis.timeout}, {@code ping.timeout}): the operation
     * completed as failed at its deadline. Not one of YCSB's statuses; kept apart from {@link #ERROR} so that
     * timeouts are counted per operation type (status line, summary, JSON, the log's {@code OP.status} tag).
     * Last, so the ordinals of YCSB's statuses (and of interval logs written before it) are unchanged.
     */
    TIMEOUT;

    private static final Status[] VALUES = values();

    /** True only for {@link #OK}; every other status counts as an error in the summary. */
    public boolean isOk() {
        return this == OK;
    }

    /** All statuses in ordinal order, without the copy {@code values()} makes. */
    public static Status byOrdinal(int ordinal) {
        return VALUES[ordinal];
    }

    public static int count() {
        return VALUES.length;
    }
}
