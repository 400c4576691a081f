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
     * A latency as a person reads it: three significant digits in the largest unit it reaches, e.g.
     * {@code 4.91 ms}, {@code 812 µs}, {@code 1.23 s}, {@code 511 ns} (rounded half up first, so 999.6 µs
     * is {@code 1.00 ms}); whole seconds from 1,000 s on. The pages' script ({@code human} in
     * {@code explorer.js} and {@code compare.js}) prints the same text for the same number.
     */
    public static String human(double ns) {
        if (ns == 0 || Double.isNaN(ns) || Double.isInfinite(ns)) {
            return ns == 0 ? "0 ns" : String.valueOf(ns);
        }
        java.math.BigDecimal r = new java.math.BigDecimal(Math.abs(ns))
                .round(new java.math.MathContext(3, java.math.RoundingMode.HALF_UP));
        double v = r.doubleValue();
        LatencyUnit unit = v < 1e3 ? NS : v < 1e6 ? US : v < 1e9 ? MS : S;
        int shift = unit == NS ? 0 : unit == US ? 3 : unit == MS ? 6 : 9;
        java.math.BigDecimal inUnit = r.movePointLeft(shift);
        String text = inUnit.compareTo(java.math.BigDecimal.valueOf(1000)) >= 0
                ? String.format(java.util.Locale.ROOT, "%,d", inUnit.setScale(0, java.math.RoundingMode.HALF_UP).longValue())
                : inUnit.setScale(Math.max(0, 3 - (inUnit.precision() - inUnit.scale())), java.math.RoundingMode.HALF_UP)
                        .toPlainString(); // 3 digits as JavaScript's toPrecision(3) writes them: 5.00, 81.2, 812
        return (ns < 0 ? "-" : "") + text + " " + unit.label;
    }
}
