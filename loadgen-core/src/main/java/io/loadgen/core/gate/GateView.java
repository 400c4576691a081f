package io.loadgen.core.gate;

import java.util.Locale;

/**
 * The series a latency rule reads: one of an operation's three views (of the operations that returned
 * OK), the intended or service view of its failed operations, or the harness's own scheduling lag. Names and interval-log tags are those of the run's outputs. Immutable.
 */
public enum GateView {
    /** From the intended start: what users see. Tag {@code OP.intended}. */
    INTENDED,
    /** From the actual start: what a synchronous tool reports. Tag {@code OP.service}. */
    SERVICE,
    /** Service corrected at the end of a run; only in JSON summaries and finished runs, never in interval logs. */
    CORRECTED,
    /** From the intended start, of the operations that did not return OK. Tag {@code OP.failed.intended}. */
    FAILED_INTENDED,
    /** From the actual start, of the operations that did not return OK. Tag {@code OP.failed.service}. */
    FAILED_SERVICE,
    /** The scheduler's own delay, one series for the whole run. Tag {@code harness.lag}. */
    LAG;

    /** The tag of the harness's lag in interval logs. */
    public static final String LAG_TAG = "harness.lag";

    /**
     * The name in rules and tags: {@code intended}, {@code service}, {@code corrected}, {@code failed.intended},
     * {@code failed.service} or {@code lag}.
     */
    public String key() {
        return name().toLowerCase(Locale.ROOT).replace('_', '.');
    }

    /** Whether this is a series of the failed operations. */
    public boolean failed() {
        return this == FAILED_INTENDED || this == FAILED_SERVICE;
    }

    /** The failed series of an operation's {@code intended} or {@code service} view; null for any other. */
    static GateView failedOf(GateView view) {
        return view == INTENDED ? FAILED_INTENDED : view == SERVICE ? FAILED_SERVICE : null;
    }

    /** The interval-log tag of this view of {@code op} ({@code op} is ignored for {@link #LAG}). */
    public String tag(String op) {
        return this == LAG ? LAG_TAG : op + "." + key();
    }

    /** The view an operation's metric names, or null when {@code key} is none of intended, service, corrected. */
    static GateView ofOperation(String key) {
        return switch (key.toLowerCase(Locale.ROOT)) {
            case "intended" -> INTENDED;
            case "service" -> SERVICE;
            case "corrected" -> CORRECTED;
            default -> null;
        };
    }
}
