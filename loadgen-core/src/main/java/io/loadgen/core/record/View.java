package io.loadgen.core.record;

import java.util.Locale;

/**
 * The three views of the same operations (see DESIGN.md). Values are latencies in nanoseconds.
 * Operations that did not return OK have their own series of the intended and service views
 * ({@link #failedTag}, {@link #failedYcsbLabel}), kept out of the success ones.
 */
public enum View {
    /** From the intended start to completion: what a user of the system actually waits (CO-free). */
    INTENDED("Intended-"),
    /** From the actual start to completion: what a naive, synchronous tool reports. */
    SERVICE(""),
    /** Service times repaired afterwards with HdrHistogram's expected-interval correction. */
    CORRECTED("Corrected-");

    private final String ycsbPrefix;

    View(String ycsbPrefix) {
        this.ycsbPrefix = ycsbPrefix;
    }

    /** The lower-case name used in log tags and JSON keys: {@code intended}, {@code service}, {@code corrected}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** YCSB's label for an operation in this view: {@code READ}, {@code Intended-READ}, {@code Corrected-READ}. */
    public String ycsbLabel(String op) {
        return ycsbPrefix + op;
    }

    /** The interval-log tag, e.g. {@code READ.intended}. */
    public String tag(String op) {
        return op + "." + key();
    }

    /** The failed series' key in tags and JSON: {@code failed.intended}, {@code failed.service}. */
    public String failedKey() {
        return FAILED + "." + key();
    }

    /** The interval-log tag of this view of the failed operations, e.g. {@code READ.failed.intended}. */
    public String failedTag(String op) {
        return op + "." + failedKey();
    }

    /** YCSB's label for failed operations in this view: {@code READ-FAILED}, {@code Intended-READ-FAILED}. */
    public String failedYcsbLabel(String op) {
        return ycsbPrefix + op + "-FAILED";
    }

    /** The word that marks a failed series: {@code OP.failed.VIEW}, JSON's {@code operations.OP.failed}. */
    public static final String FAILED = "failed";
}
