package io.loadgen.core.findmax;

/**
 * Decides when one findmax step has measured enough: fed the step's intervals one by one (each interval's
 * length, completed operations and intended p99), it says to go on, that the step is stable, that it has
 * decisively failed, or that it reached its longest length. One step, one detector; the thread that feeds it
 * (the run's aggregator thread).
 *
 * <p><b>The rules</b>, checked after each interval, in this order:
 * <ol>
 *   <li>Longest: at {@code max} measured seconds the step ends ({@link Decision#MAX}), judged as it stands.</li>
 *   <li>Nothing is decided before {@code min} seconds and {@value #WINDOW} intervals: a step shorter than that
 *       has too few intervals for its own variation to be estimated (the band's bootstrap wants at least 8).</li>
 *   <li>Backlog ({@link Decision#BACKLOG}): intended p99 rose in every one of the last {@value #WINDOW}
 *       intervals, ending at least {@value #BACKLOG_RISE}× where it began and at least {@link #FLOOR_NS} ns
 *       higher. A queue that grows without bound does exactly that (in M/D/1 above capacity the wait grows
 *       linearly in time); a stationary p99 rises {@value #WINDOW} times in a row by chance with probability
 *       1/{@value #WINDOW}! = 1/120 even before the size condition, which noise near a steady value does not meet.</li>
 *   <li>Short ({@link Decision#SHORT}): the last {@value #WINDOW} intervals completed fewer than
 *       {@code offered × (1 − }{@value #SHORT_FRACTION}{@code ) − 3·sqrt(offered × t)} operations over their
 *       {@code t} seconds: five times the 2 % the keep-up rule allows, beyond three standard deviations of a
 *       Poisson count, so it is no noise; the step cannot keep up.</li>
 *   <li>Stable ({@link Decision#STABLE}): over the last {@value #WINDOW} intervals, both interval throughput and
 *       intended p99 show no trend and a bounded spread:
 *       <ul>
 *         <li>trend: the least-squares slope over the window times its span, relative to the window's mean, at
 *             most {@value #RATE_TREND} for throughput (plus {@code 2/sqrt(c)}, c the mean count per interval:
 *             the slope's Poisson noise) and {@value #P99_TREND} for p99;</li>
 *         <li>spread: (max − min) / mean at most {@value #RATE_SPREAD} for throughput (plus {@code 6/sqrt(c)})
 *             and {@value #P99_SPREAD} for p99;</li>
 *         <li>p99 differences within {@link #FLOOR_NS} ns count as none (a wake-up's jitter on a busy machine is
 *             tens of µs; it is not the store's behaviour).</li>
 *       </ul>
 *   </li>
 * </ol>
 * A step that is neither stable nor decisively failed runs to {@code max}. The detector only decides when to stop
 * measuring; whether the step passed is judged afterwards on everything it measured.
 */
public final class StabilityDetector {
    /** The intervals the trend, spread, backlog and shortfall are judged over. */
    public static final int WINDOW = 5;
    static final double BACKLOG_RISE = 1.5;
    static final double SHORT_FRACTION = 0.10;
    static final double RATE_TREND = 0.05;
    static final double RATE_SPREAD = 0.10;
    static final double P99_TREND = 0.25;
    static final double P99_SPREAD = 1.0;
    /** p99 differences below this (100 µs) are a machine's jitter, not a trend or a backlog. */
    public static final long FLOOR_NS = 100_000;

    /** What the detector says after an interval. */
    public enum Decision {
        /** Keep measuring. */
        CONTINUE("running"),
        /** Throughput and p99 settled: the step has measured enough. */
        STABLE("stable"),
        /** p99 rising interval on interval: a backlog growing. */
        BACKLOG("backlog growing"),
        /** The achieved rate decisively short of the offered rate. */
        SHORT("rate short"),
        /** The longest step length reached without settling. */
        MAX("max length");

        private final String text;

        Decision(String text) {
            this.text = text;
        }

        /** For tables and the run's stop reason: {@code stable}, {@code backlog growing}, ... */
        public String text() {
            return text;
        }

        /** Whether the step ended because it decisively failed. */
        public boolean failed() {
            return this == BACKLOG || this == SHORT;
        }
    }

    private final double offeredOpsPerSec;
    private final double minSec;
    private final double maxSec;
    private final double[] lengths = new double[WINDOW];
    private final double[] counts = new double[WINDOW];
    private final double[] p99s = new double[WINDOW];
    private int seen;
    private double elapsedSec;

    /**
     * @param offeredOpsPerSec the step's offered rate
     * @param minSec           the shortest step (s)
     * @param maxSec           the longest step (s), at least {@code minSec}
     */
    public StabilityDetector(double offeredOpsPerSec, double minSec, double maxSec) {
        if (!(maxSec >= minSec) || !(minSec >= 0)) {
            throw new IllegalArgumentException("min " + minSec + " s, max " + maxSec + " s");
        }
        this.offeredOpsPerSec = offeredOpsPerSec;
        this.minSec = minSec;
        this.maxSec = maxSec;
    }

    /** The measured seconds fed so far. */
    public double elapsedSec() {
        return elapsedSec;
    }

    /**
     * Adds one measured interval and decides.
     *
     * @param lengthSec the interval's length (s)
     * @param completed operations completed in it (successes and failures)
     * @param p99Ns     its intended p99 over every operation type (ns); NaN when nothing completed
     */
    public Decision add(double lengthSec, long completed, double p99Ns) {
        int slot = seen % WINDOW;
        lengths[slot] = lengthSec;
        counts[slot] = completed;
        p99s[slot] = p99Ns;
        seen++;
        elapsedSec += lengthSec;
        // A rounding margin (a µs) so that intervals of 0.5 s add up to exactly min or max.
        if (elapsedSec >= maxSec - 1e-6) {
            return Decision.MAX;
        }
        if (elapsedSec < minSec - 1e-6 || seen < WINDOW) {
            return Decision.CONTINUE;
        }
        double[] c = window(counts);
        double[] p = window(p99s);
        double[] l = window(lengths);
        double t = 0;
        double total = 0;
        for (int i = 0; i < WINDOW; i++) {
            t += l[i];
            total += c[i];
        }
        if (backlog(p)) {
            return Decision.BACKLOG;
        }
        double expected = offeredOpsPerSec * t;
        if (total < expected * (1 - SHORT_FRACTION) - 3 * Math.sqrt(expected)) {
            return Decision.SHORT;
        }
        return stable(c, p) ? Decision.STABLE : Decision.CONTINUE;
    }

    /** The last {@link #WINDOW} values of a ring, oldest first. */
    private double[] window(double[] ring) {
        double[] out = new double[WINDOW];
        for (int i = 0; i < WINDOW; i++) {
            out[i] = ring[(seen + i) % WINDOW];
        }
        return out;
    }

    static boolean backlog(double[] p) {
        for (int i = 1; i < p.length; i++) {
            if (!(p[i] > p[i - 1])) {
                return false;
            }
        }
        double first = p[0];
        double last = p[p.length - 1];
        return last >= BACKLOG_RISE * first && last - first >= FLOOR_NS;
    }

    static boolean stable(double[] c, double[] p) {
        double meanCount = mean(c);
        if (!(meanCount > 0)) {
            return false;
        }
        double noise = 1 / Math.sqrt(meanCount);
        if (relativeTrend(c) > RATE_TREND + 2 * noise || relativeSpread(c) > RATE_SPREAD + 6 * noise) {
            return false;
        }
        for (double v : p) {
            if (Double.isNaN(v)) {
                return false;
            }
        }
        double range = max(p) - min(p);
        if (range <= FLOOR_NS) {
            return true;
        }
        return relativeTrend(p) <= P99_TREND && relativeSpread(p) <= P99_SPREAD;
    }

    /** |least-squares slope| × span / mean: how much the series moved across the window, relative to its level. */
    static double relativeTrend(double[] y) {
        int n = y.length;
        double xMean = (n - 1) / 2.0;
        double yMean = mean(y);
        double num = 0;
        double den = 0;
        for (int i = 0; i < n; i++) {
            num += (i - xMean) * (y[i] - yMean);
            den += (i - xMean) * (i - xMean);
        }
        return Math.abs(num / den) * (n - 1) / yMean;
    }

    /** (max − min) / mean. */
    static double relativeSpread(double[] y) {
        return (max(y) - min(y)) / mean(y);
    }

    private static double mean(double[] y) {
        double s = 0;
        for (double v : y) {
            s += v;
        }
        return s / y.length;
    }

    private static double max(double[] y) {
        double m = Double.NEGATIVE_INFINITY;
        for (double v : y) {
            m = Math.max(m, v);
        }
        return m;
    }

    private static double min(double[] y) {
        double m = Double.POSITIVE_INFINITY;
        for (double v : y) {
            m = Math.min(m, v);
        }
        return m;
    }
}
