package io.loadgen.core.record;

import java.util.Locale;

/**
 * The three views of the same operations (see DESIGN.md). Values are latencies in nanoseconds.
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
}
