package io.loadgen.core.workload.generator;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Walks {@code lo, lo+1, ..., hi, lo, ...} (YCSB's {@code SequentialGenerator},
 * {@code requestdistribution=sequential}); each worker may own an instance, and instances built on
 * the same {@link AtomicLong} share one walk, so together they return each value once per cycle.
 *
 * <p>One {@code getAndIncrement} per call: lock-free, allocation-free. Unlike the other generators it
 * draws nothing random, so its interleaving across workers is not reproducible; only the multiset
 * of values per cycle is.
 */
public final class SequentialGenerator implements NumberGenerator {
    private final long lo;
    private final long count;
    private final AtomicLong position;

    /** A walk of its own, starting at {@code lo}. */
    public SequentialGenerator(long lo, long hi) {
        this(lo, hi, new AtomicLong());
    }

    /**
     * @param position draws taken so far, shared by every worker walking this sequence; start it at 0
     */
    public SequentialGenerator(long lo, long hi, AtomicLong position) {
        long count = hi - lo + 1;
        if (hi < lo || count <= 0) {
            throw new IllegalArgumentException("need lo <= hi and a range that fits a long: [" + lo + ", " + hi + "]");
        }
        this.lo = lo;
        this.count = count;
        this.position = position;
    }

    @Override
    public long next() {
        return lo + Math.floorMod(position.getAndIncrement(), count);
    }
}
