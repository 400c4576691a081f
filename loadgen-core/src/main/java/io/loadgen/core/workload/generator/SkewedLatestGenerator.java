package io.loadgen.core.workload.generator;

import java.util.SplittableRandom;

/**
 * Key numbers skewed towards the most recently inserted (YCSB's {@code SkewedLatestGenerator},
 * {@code requestdistribution=latest}); one worker thread owns each instance, the {@link KeyCounter}
 * is shared.
 *
 * <p>Each call reads {@code last = counter.lastValue()} and returns {@code last - z}, where
 * {@code z} is zipfian (theta 0.99) over the {@code last + 1} items {@code [0, last]}: the newest
 * key is the mode, and every key from 0 to {@code last} can be drawn. (YCSB draws {@code z} over
 * {@code last} items, so it never returns key 0; we include it.) As inserts are acknowledged the
 * zipfian's constants are extended incrementally, one pow per new key, without allocating.
 */
public final class SkewedLatestGenerator implements NumberGenerator {
    private final KeyCounter counter;
    private final ZipfianGenerator offsets;

    /**
     * Computes zeta over the keys inserted so far ({@code counter.lastValue() + 1} pow calls).
     *
     * @param counter the run's insert-key counter; at least key 0 must be acknowledged
     * @param random  the owning worker's generator
     */
    public SkewedLatestGenerator(KeyCounter counter, SplittableRandom random) {
        this(counter, items(counter), ZipfianGenerator.zeta(items(counter), ZipfianGenerator.ZIPFIAN_CONSTANT), random);
    }

    /**
     * With a precomputed {@code zetan = ZipfianGenerator.zeta(items, 0.99)}, shared by all workers.
     *
     * @param items  a key count at most {@code counter.lastValue() + 1}; typically the record count
     *               when the run phase starts
     * @param zetan  zeta of {@code items} at theta 0.99
     */
    public SkewedLatestGenerator(KeyCounter counter, long items, double zetan, SplittableRandom random) {
        if (items < 1 || items > items(counter)) {
            throw new IllegalArgumentException("items must be in [1, lastValue + 1]: " + items
                    + " with lastValue " + counter.lastValue());
        }
        this.counter = counter;
        this.offsets = new ZipfianGenerator(0, items - 1, ZipfianGenerator.ZIPFIAN_CONSTANT, zetan, random);
    }

    @Override
    public long next() {
        long last = counter.lastValue();
        return last - offsets.next(last + 1);
    }

    private static long items(KeyCounter counter) {
        long last = counter.lastValue();
        if (last < 0) {
            throw new IllegalArgumentException("no key acknowledged yet: lastValue is " + last);
        }
        return last + 1;
    }
}
