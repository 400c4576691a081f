package io.loadgen.core.workload.generator;

import java.util.SplittableRandom;

/**
 * Integers in {@code [lo, hi]} where a fraction of operations goes to a hot set at the low end
 * (YCSB's {@code HotspotIntegerGenerator}, {@code requestdistribution=hotspot}); one worker thread
 * owns each instance.
 *
 * <p>The hot set is the first {@code floor((hi - lo + 1) * hotsetFraction)} values; with probability
 * {@code hotOpnFraction} a draw is uniform over it, otherwise uniform over the rest (the cold set).
 * Differences from YCSB, which clamps bad fractions to 0 and fails on an empty set: fractions
 * outside [0, 1] are rejected, and if one set is empty every draw goes to the other.
 */
public final class HotspotGenerator implements NumberGenerator {
    private final long lo;
    private final long hotCount;
    private final long coldCount;
    private final double hotOpnFraction;
    private final SplittableRandom random;

    /**
     * @param lo             smallest value
     * @param hi             largest value
     * @param hotsetFraction fraction of {@code [lo, hi]} in the hot set ({@code hotspotdatafraction})
     * @param hotOpnFraction fraction of draws from the hot set ({@code hotspotopnfraction})
     * @param random         the owning worker's generator
     */
    public HotspotGenerator(long lo, long hi, double hotsetFraction, double hotOpnFraction, SplittableRandom random) {
        long count = hi - lo + 1;
        if (hi < lo || count <= 0) {
            throw new IllegalArgumentException("need lo <= hi and a range that fits a long: [" + lo + ", " + hi + "]");
        }
        if (!(hotsetFraction >= 0 && hotsetFraction <= 1) || !(hotOpnFraction >= 0 && hotOpnFraction <= 1)) {
            throw new IllegalArgumentException("hotset and hot operation fractions must be in [0, 1]: "
                    + hotsetFraction + ", " + hotOpnFraction);
        }
        this.lo = lo;
        this.hotCount = (long) (count * hotsetFraction);
        this.coldCount = count - hotCount;
        this.hotOpnFraction = hotCount == 0 ? 0.0 : coldCount == 0 ? 1.0 : hotOpnFraction;
        this.random = random;
    }

    /** Size of the hot set, {@code floor((hi - lo + 1) * hotsetFraction)}: values {@code lo .. lo + hotSetSize() - 1}. */
    public long hotSetSize() {
        return hotCount;
    }

    @Override
    public long next() {
        if (random.nextDouble() < hotOpnFraction) {
            return lo + random.nextLong(hotCount);
        }
        return lo + hotCount + random.nextLong(coldCount);
    }
}
