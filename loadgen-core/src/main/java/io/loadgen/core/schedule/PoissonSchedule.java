package io.loadgen.core.schedule;

import java.util.SplittableRandom;

/**
 * Poisson arrivals: gaps between intended starts are exponentially distributed with the given mean,
 * drawn from the worker's own seeded generator. One worker thread only; allocates nothing per call.
 */
public final class PoissonSchedule implements RestartableSchedule {
    /**
     * {@link #countUntil} draws the arrivals themselves up to this many (about a millisecond's work), then
     * adds the expected count of the rest.
     */
    static final int COUNT_DRAWS = 1 << 16;

    private double meanIntervalNs;
    private final SplittableRandom random;
    private double nextNs;

    /**
     * @param startNs        intended start of operation 0
     * @param meanIntervalNs mean gap: threads / target rate, in nanoseconds
     * @param random         this worker's generator (split from the run's seed)
     */
    public PoissonSchedule(long startNs, double meanIntervalNs, SplittableRandom random) {
        if (!(meanIntervalNs > 0)) {
            throw new IllegalArgumentException("meanIntervalNs must be positive: " + meanIntervalNs);
        }
        this.meanIntervalNs = meanIntervalNs;
        this.random = random;
        this.nextNs = startNs;
    }

    @Override
    public long nextIntendedStartNs() {
        long intended = (long) nextNs;
        // Inverse transform: -ln(U) * mean with U in (0, 1]; 1 - nextDouble() never returns 0.
        nextNs += -Math.log(1.0 - random.nextDouble()) * meanIntervalNs;
        return intended;
    }

    /**
     * Exact while at most {@link #COUNT_DRAWS} arrivals fall due (they are drawn, as the run would have); beyond
     * that, the expected number in the rest of the window, {@code remaining / mean}, rounded: arrivals never
     * drawn have no exact count, and the estimate's standard deviation is its square root (under 0.1% of it
     * past 10^6).
     */
    @Override
    public long countUntil(long pendingNs, long untilNs) {
        if (pendingNs - untilNs >= 0) {
            return 0;
        }
        long n = 1;
        for (int i = 0; i < COUNT_DRAWS; i++) {
            if (nextIntendedStartNs() - untilNs >= 0) {
                return n;
            }
            n++;
        }
        long remainingNs = untilNs - (long) nextNs;
        return remainingNs > 0 ? n + 1 + Math.round(remainingNs / meanIntervalNs) : n; // the one at nextNs, and the rest
    }

    @Override
    public double meanIntervalNs() {
        return meanIntervalNs;
    }

    @Override
    public long peekNs() {
        return (long) nextNs;
    }

    /** Memoryless: the rescaled residual {@code nextNs} is itself an exponential gap at the new mean. */
    @Override
    public void restart(long nextNs, double meanIntervalNs) {
        this.nextNs = nextNs;
        this.meanIntervalNs = meanIntervalNs;
    }
}
