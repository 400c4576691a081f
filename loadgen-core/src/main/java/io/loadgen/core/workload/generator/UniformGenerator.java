package io.loadgen.core.workload.generator;

import java.util.SplittableRandom;

/**
 * Uniform integers in {@code [lo, hi]}, inclusive (YCSB's {@code UniformLongGenerator},
 * {@code requestdistribution=uniform}); one worker thread owns each instance.
 */
public final class UniformGenerator implements NumberGenerator {
    private final long lo;
    private final long count;
    private final SplittableRandom random;

    /**
     * @param lo     smallest value returned
     * @param hi     largest value returned; {@code hi - lo + 1} must fit in a positive {@code long}
     * @param random the owning worker's generator
     */
    public UniformGenerator(long lo, long hi, SplittableRandom random) {
        long count = hi - lo + 1;
        if (hi < lo || count <= 0) {
            throw new IllegalArgumentException("need lo <= hi and a range that fits a long: [" + lo + ", " + hi + "]");
        }
        this.lo = lo;
        this.count = count;
        this.random = random;
    }

    @Override
    public long next() {
        // Unbiased bounded draw (YCSB's abs(nextLong()) % n is slightly biased; same distribution otherwise).
        return lo + random.nextLong(count);
    }
}
