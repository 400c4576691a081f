package io.loadgen.core.schedule;

import java.util.SplittableRandom;

/**
 * Poisson arrivals: gaps between intended starts are exponentially distributed with the given mean,
 * drawn from the worker's own seeded generator. One worker thread only; allocates nothing per call.
 */
public final class PoissonSchedule implements Schedule {
    private final double meanIntervalNs;
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

    @Override
    public double meanIntervalNs() {
        return meanIntervalNs;
    }
}
