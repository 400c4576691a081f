package io.loadgen.plot;

import io.loadgen.core.gate.Units;

/** The unit a chart's latency axis is drawn in, chosen to fit the largest value. Stateless. */
public enum LatencyUnit {
    NS("ns", 1.0),
    US("µs", 1e3),
    MS("ms", 1e6),
    S("s", 1e9);

    private final String label;
    private final double ns;

    LatencyUnit(String label, double ns) {
        this.label = label;
        this.ns = ns;
    }

    /** The unit's name on an axis, e.g. {@code ms}. */
    public String label() {
        return label;
    }

    /** {@code valueNs} in this unit. */
    public double of(double valueNs) {
        return valueNs / ns;
    }

    /** Nanoseconds in one of this unit. */
    public double nanos() {
        return ns;
    }

    /**
     * The unit of an axis whose largest value is {@code maxNs}: the unit a person reads, as {@link #human}
     * prints values: µs below 1 ms, ms below 10 s (so a stall of 2.5 s still reads in ms next to ms
     * latencies), s above; ns only below 1 µs. The pages' script ({@code unitFor}) has the same rule.
     */
    public static LatencyUnit fit(double maxNs) {
        if (maxNs < 1e3) {
            return NS;
        }
        if (maxNs < 1e6) {
            return US;
        }
        return maxNs < 1e10 ? MS : S;
    }

    /**
     * A latency as a person reads it, as the tool's tables and gate write it ({@link Units#latency}: three
     * significant digits in the largest unit reached, rounded half up first, trailing zeros dropped), with the
     * micro sign: {@code 4.91 ms}, {@code 812 µs}, {@code 1.23 s}, {@code 5 ms}. The pages' script
     * ({@code human} in {@code format.js}) prints the same text for the same number.
     */
    public static String human(double ns) {
        return Units.latency(ns).replace(" us", " µs");
    }
}
