package io.loadgen.core.wait;

/**
 * How late parking has woken one thread lately: a high percentile of the overshoots (time slept beyond
 * the time asked) of its last parks, forgetting those older than a maximum age. {@link AdaptiveWaiter}
 * stops parking this long before a deadline and spins the rest. One thread only; nothing allocates after
 * construction.
 *
 * <p>The percentile is nearest-rank over the live samples: with {@code n} of them, the margin is the
 * {@code ceil(percentile * n / 100)}-th smallest, so with 256 samples at the 99th percentile the two
 * largest are ignored and the third largest is the margin. A rare stall (the thread descheduled for a
 * millisecond) therefore does not make every later wait spin, while a platform that wakes late often
 * raises the margin within a few parks. The margin is capped, and a window that has aged empty falls back
 * to a first guess, so a margin inflated above the gap between operations (which stops the parks that
 * would correct it) is forgotten after the maximum age.
 */
final class OvershootWindow {
    private final long[] overshootNs;
    private final long[] recordedAtNs;
    private final int percentile;
    private final long maxAgeNs;
    private final long emptyMarginNs;
    private final long maxMarginNs;
    /** The largest live samples, largest first, while recomputing the percentile; reused. */
    private final long[] largest;

    private int oldest;
    private int count;
    /** The percentile of the live samples, uncapped, and the margin it gives; valid unless stale. */
    private long percentileNs;
    private long marginNs;
    private boolean stale;

    /**
     * @param capacity      how many recent parks to remember
     * @param percentile    which nearest-rank percentile of them is the margin, 1 to 100
     * @param maxAgeNs      samples older than this are forgotten
     * @param emptyMarginNs the margin while no sample is live (before the first park, after a long gap)
     * @param maxMarginNs   the margin never exceeds this
     */
    OvershootWindow(int capacity, int percentile, long maxAgeNs, long emptyMarginNs, long maxMarginNs) {
        if (capacity < 1 || percentile < 1 || percentile > 100 || maxAgeNs <= 0 || emptyMarginNs < 0
                || maxMarginNs < emptyMarginNs) {
            throw new IllegalArgumentException("bad overshoot window: capacity " + capacity + ", percentile "
                    + percentile + ", max age " + maxAgeNs + " ns, margins " + emptyMarginNs + "/" + maxMarginNs + " ns");
        }
        this.overshootNs = new long[capacity];
        this.recordedAtNs = new long[capacity];
        this.percentile = percentile;
        this.maxAgeNs = maxAgeNs;
        this.emptyMarginNs = emptyMarginNs;
        this.maxMarginNs = maxMarginNs;
        this.largest = new long[rankFromTop(capacity)];
        this.marginNs = emptyMarginNs;
    }

    /**
     * Remembers one park's overshoot (at least 0), measured at {@code nowNs}; forgets the oldest if full.
     * A full window keeps its rank, so the percentile can move only when the arriving sample is above it
     * or the leaving one at or above it (about 2 parks in 100): only then is it recomputed.
     */
    void record(long overshootNs, long nowNs) {
        long v = Math.max(0, overshootNs);
        int slot;
        if (count == this.overshootNs.length) {
            slot = oldest;
            oldest = next(oldest);
            stale |= v > percentileNs || this.overshootNs[slot] >= percentileNs;
        } else {
            slot = oldest + count;
            slot = slot >= this.overshootNs.length ? slot - this.overshootNs.length : slot;
            count++;
            stale = true;
        }
        this.overshootNs[slot] = v;
        recordedAtNs[slot] = nowNs;
    }

    /** The margin at {@code nowNs}: the percentile of the samples not older than the maximum age, capped. */
    long marginNs(long nowNs) {
        while (count > 0 && nowNs - recordedAtNs[oldest] > maxAgeNs) {
            oldest = next(oldest);
            count--;
            stale = true;
        }
        if (stale) {
            percentileNs = count == 0 ? 0 : percentileOfLive();
            marginNs = count == 0 ? emptyMarginNs : Math.min(maxMarginNs, percentileNs);
            stale = false;
        }
        return marginNs;
    }

    private int next(int slot) {
        return slot + 1 == overshootNs.length ? 0 : slot + 1;
    }

    /** How many live samples lie at or above the percentile's rank: 1 is the largest. */
    private int rankFromTop(int n) {
        int ceilRank = (int) (((long) percentile * n + 99) / 100);
        return n - ceilRank + 1;
    }

    /** The k-th largest live sample, k = {@link #rankFromTop}: one pass keeping the k largest, in order. */
    private long percentileOfLive() {
        int k = rankFromTop(count);
        int kept = 0;
        for (int i = 0, slot = oldest; i < count; i++, slot = next(slot)) {
            long v = overshootNs[slot];
            if (kept < k) {
                kept++;
            } else if (v <= largest[k - 1]) {
                continue;
            }
            int j = kept - 1;
            while (j > 0 && largest[j - 1] < v) {
                largest[j] = largest[j - 1];
                j--;
            }
            largest[j] = v;
        }
        return largest[k - 1];
    }
}
