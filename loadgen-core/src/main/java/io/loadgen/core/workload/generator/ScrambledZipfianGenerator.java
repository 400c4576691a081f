package io.loadgen.core.workload.generator;

import java.util.SplittableRandom;

/**
 * Zipfian popularity over {@code [min, max]} with the popular keys scattered across the range
 * (YCSB's {@code ScrambledZipfianGenerator}, {@code requestdistribution=zipfian}); one worker thread
 * owns each instance.
 *
 * <p>As in YCSB: draw a zipfian rank {@code r} in {@code [0, ITEM_COUNT]} ({@code ITEM_COUNT + 1}
 * items, theta 0.99) with the precomputed {@link #ZETAN}, then return
 * {@code min + fnvhash64(r) mod (max - min + 1)}. Construction is constant time whatever the
 * record count. The skew is therefore that of 10^10 items folded onto the key range: the most
 * popular key gets about {@code 1/ZETAN} (3.8%) of draws plus its share of the folded tail,
 * not {@code 1/zeta(recordcount)}.
 */
public final class ScrambledZipfianGenerator implements NumberGenerator {
    /** YCSB's {@code zeta(10^10, 0.99)}, precomputed (YCSB's constant, kept to match its skew). */
    public static final double ZETAN = 26.46902820178302;
    /** The zipfian constant {@link #ZETAN} was computed for. */
    public static final double USED_ZIPFIAN_CONSTANT = 0.99;
    /** YCSB's rank space: ranks {@code 0..ITEM_COUNT} are drawn before hashing. */
    public static final long ITEM_COUNT = 10_000_000_000L;

    private final long min;
    private final Remainder byKeyCount;
    private final ZipfianGenerator ranks;

    /**
     * @param min    smallest key number
     * @param max    largest key number
     * @param random the owning worker's generator
     */
    public ScrambledZipfianGenerator(long min, long max, SplittableRandom random) {
        long count = max - min + 1;
        if (max < min || count <= 0) {
            throw new IllegalArgumentException("need min <= max and a range that fits a long: [" + min + ", " + max + "]");
        }
        this.min = min;
        this.byKeyCount = new Remainder(count);
        this.ranks = new ZipfianGenerator(0, ITEM_COUNT, USED_ZIPFIAN_CONSTANT, ZETAN, random);
    }

    @Override
    public long next() {
        // floorMod equals YCSB's % for every hash but Long.MIN_VALUE, where it stays in range.
        return min + byKeyCount.of(Fnv.hash64(ranks.next()));
    }
}
