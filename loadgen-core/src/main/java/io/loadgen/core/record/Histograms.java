package io.loadgen.core.record;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * The one histogram shape loadgen records into: nanoseconds from 1 ns to one hour at three
 * significant digits, preallocated so recording never resizes (and never allocates). Latencies
 * beyond an hour are recorded as one hour.
 */
public final class Histograms {
    public static final long LOWEST_NS = 1;
    public static final long HIGHEST_NS = TimeUnit.HOURS.toNanos(1);
    public static final int SIGNIFICANT_DIGITS = 3;

    private Histograms() {
    }

    public static Histogram newHistogram() {
        return new Histogram(LOWEST_NS, HIGHEST_NS, SIGNIFICANT_DIGITS);
    }

    /** Clamps a latency into the trackable range; branch-only, no allocation. */
    public static long clamp(long ns) {
        return ns < 0 ? 0 : Math.min(ns, HIGHEST_NS);
    }
}
