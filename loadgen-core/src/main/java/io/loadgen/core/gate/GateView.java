package io.loadgen.core.gate;

import java.util.Locale;

/**
 * The series a latency rule reads: one of an operation's three views, or the harness's own
 * scheduling lag. Names and interval-log tags are those of the run's outputs. Immutable.
 */
public enum GateView {
    /** From the intended start: what users see. Tag {@code OP.intended}. */
    INTENDED,
    /** From the actual start: what a synchronous tool reports. Tag {@code OP.service}. */
    SERVICE,
    /** Service corrected at the end of a run; only in JSON summaries and finished runs, never in interval logs. */
    CORRECTED,
    /** The scheduler's own delay, one series for the whole run. Tag {@code harness.lag}. */
    LAG;

    /** The tag of the harness's lag in interval logs. */
    public static final String LAG_TAG = "harness.lag";

    /** The lower-case name: {@code intended}, {@code service}, {@code corrected} or {@code lag}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
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
