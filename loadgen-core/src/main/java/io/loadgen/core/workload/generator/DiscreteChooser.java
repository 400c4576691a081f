package io.loadgen.core.workload.generator;

import java.util.SplittableRandom;

/**
 * Picks an index with probability proportional to its weight: the operation mix (YCSB's
 * {@code DiscreteGenerator} over {@code readproportion}, {@code updateproportion}, ...); one worker
 * thread owns each instance.
 *
 * <p>Weights are normalised, so they need not sum to 1; an index of weight 0 is never returned.
 * {@link #next()} is one uniform draw and a count over the precomputed cumulative array (op mixes
 * have a handful of entries), allocating nothing.
 */
public final class DiscreteChooser {
    /** cumulative[i] = (w[0] + ... + w[i]) / total; exactly 1.0 from the last positive weight on. */
    private final double[] cumulative;
    private final SplittableRandom random;

    /**
     * @param weights non-negative, finite, at least one positive; copied
     * @param random  the owning worker's generator
     */
    public DiscreteChooser(double[] weights, SplittableRandom random) {
        this.cumulative = cumulative(weights);
        this.random = random;
    }

    /** Number of entries, including those of weight 0. */
    public int size() {
        return cumulative.length;
    }

    /** An index in {@code [0, size())}, never one of weight 0. */
    public int next() {
        double u = random.nextDouble();
        final double[] c = cumulative;
        // The index is the number of bounds at or below u (c is non-decreasing and u < 1.0 = the last bound,
        // so it never passes the last positive entry; a zero-weight entry repeats its predecessor's bound, so
        // it is counted together with it and never returned). Counting every bound, rather than stopping at
        // the first above u, leaves the CPU nothing to mispredict: in a 50/50 mix the early exit cost 10 ns.
        int i = 0;
        for (int j = 0; j < c.length - 1; j++) {
            i += u >= c[j] ? 1 : 0;
        }
        return i;
    }

    private static double[] cumulative(double[] weights) {
        if (weights.length == 0) {
            throw new IllegalArgumentException("no weights");
        }
        double total = 0;
        int lastPositive = -1;
        for (int i = 0; i < weights.length; i++) {
            double w = weights[i];
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weight " + i + " must be non-negative and finite: " + w);
            }
            total += w;
            if (w > 0) {
                lastPositive = i;
            }
        }
        if (lastPositive < 0) {
            throw new IllegalArgumentException("all weights are zero");
        }
        double[] c = new double[weights.length];
        double running = 0;
        for (int i = 0; i < weights.length; i++) {
            running += weights[i];
            c[i] = i >= lastPositive ? 1.0 : running / total;
        }
        return c;
    }
}
