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

    /** Remembers one park's overshoot (at least 0), measured at {@code nowNs}; forgets the oldest if full. */
    void record(long overshootNs, long nowNs) {
        int capacity = this.overshootNs.length;
        if (count == capacity) {
            oldest = (oldest + 1) % capacity;
            count--;
        }
        int slot = (oldest + count) % capacity;
        this.overshootNs[slot] = Math.max(0, overshootNs);
        recordedAtNs[slot] = nowNs;
        count++;
        stale = true;
    }

    /** The margin at {@code nowNs}: the percentile of the samples not older than the maximum age, capped. */
    long marginNs(long nowNs) {
        while (count > 0 && nowNs - recordedAtNs[oldest] > maxAgeNs) {
            oldest = (oldest + 1) % overshootNs.length;
            count--;
            stale = true;
        }
        if (stale) {
            marginNs = count == 0 ? emptyMarginNs : Math.min(maxMarginNs, percentileOfLive());
            stale = false;
        }
        return marginNs;
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
        for (int i = 0; i < count; i++) {
            long v = overshootNs[(oldest + i) % overshootNs.length];
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
