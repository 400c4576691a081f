package io.loadgen.plot;

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
     * The unit that shows {@code maxNs} with at most four digits before the point: µs below 10 ms, ms below
     * 10 s, s above (ns only below 1 µs).
     */
    public static LatencyUnit fit(double maxNs) {
        if (maxNs < 1e3) {
            return NS;
        }
        if (maxNs < 1e7) {
            return US;
        }
        return maxNs < 1e10 ? MS : S;
    }
}
