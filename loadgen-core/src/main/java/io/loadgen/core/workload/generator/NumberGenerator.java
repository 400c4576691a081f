package io.loadgen.core.workload.generator;

/**
 * A source of {@code long} values (key numbers, offsets) with some distribution; one worker thread
 * owns and calls each instance.
 *
 * <p>Implementations draw from the {@link java.util.SplittableRandom} given at construction, so a
 * worker's sequence is fixed by the run's seed, and {@link #next()} allocates nothing.
 */
public interface NumberGenerator {

    /** The next value. Owner thread only; allocates nothing. */
    long next();
}
