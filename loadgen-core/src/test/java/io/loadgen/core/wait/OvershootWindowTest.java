package io.loadgen.core.wait;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The margin is an exact nearest-rank percentile of the live overshoots; no timing involved. */
class OvershootWindowTest {
    private static final long AGE = 1_000_000;
    private static final long EMPTY = 50;
    private static final long CAP = 10_000;

    /** 10 samples, 80th percentile: the ceil(0.8 * 10) = 8th smallest, i.e. the third largest. */
    private static OvershootWindow tenAt80() {
        return new OvershootWindow(10, 80, AGE, EMPTY, CAP);
    }

    /** Records each sample at time 0. */
    private static OvershootWindow recorded(OvershootWindow w, long... samples) {
        for (long s : samples) {
            w.record(s, 0);
        }
        return w;
    }

    @Test
    void emptyWindowGivesTheFirstGuess() {
        assertEquals(EMPTY, tenAt80().marginNs(0));
    }

    @Test
    void fullWindowGivesTheNearestRankPercentile() {
        OvershootWindow w = recorded(tenAt80(), 40, 10, 90, 30, 70, 20, 100, 60, 50, 80);
        // Sorted: 10 20 30 40 50 60 70 80 90 100; the 8th smallest is 80 (the two largest are ignored).
        assertEquals(80, w.marginNs(0));
    }

    @Test
    void fewSamplesGiveTheirLargest() {
        OvershootWindow w = recorded(tenAt80(), 30, 70);
        // n = 2: ceil(0.8 * 2) = 2nd smallest = the largest.
        assertEquals(70, w.marginNs(0));
        recorded(w, 10, 20, 40);
        // n = 5: ceil(0.8 * 5) = 4th smallest of 10 20 30 40 70 = 40.
        assertEquals(40, w.marginNs(0));
    }

    @Test
    void aRareStallDoesNotRaiseTheMarginButRepeatedOnesDo() {
        OvershootWindow w = recorded(tenAt80(), 50, 50, 50, 50, 50, 50, 50, 50, 50, 5_000);
        assertEquals(50, w.marginNs(0), "one stall in ten is above the 80th percentile");
        w.record(6_000, 0);
        assertEquals(50, w.marginNs(0), "two are still ignored");
        w.record(7_000, 0);
        // The window now holds seven 50s and 5000, 6000, 7000: the third largest is 5000.
        assertEquals(5_000, w.marginNs(0));
    }

    @Test
    void theOldestSampleIsForgottenWhenFull() {
        OvershootWindow w = recorded(tenAt80(), 900, 800, 700, 10, 10, 10, 10, 10, 10, 10);
        assertEquals(700, w.marginNs(0));
        w.record(10, 0); // pushes out 900: 800 700 and eight 10s
        assertEquals(10, w.marginNs(0));
    }

    @Test
    void samplesOlderThanTheMaximumAgeAreForgotten() {
        OvershootWindow w = tenAt80();
        w.record(3_000, 0);
        w.record(20, 400_000);
        assertEquals(3_000, w.marginNs(AGE), "the first sample is exactly the maximum age old: still live");
        assertEquals(20, w.marginNs(AGE + 1), "then only the second is left");
        assertEquals(EMPTY, w.marginNs(400_000 + AGE + 1), "then none: back to the first guess");
    }

    @Test
    void marginIsCapped() {
        OvershootWindow w = tenAt80();
        w.record(CAP + 1, 0);
        assertEquals(CAP, w.marginNs(0));
    }

    @Test
    void negativeOvershootCountsAsZero() {
        OvershootWindow w = new OvershootWindow(1, 99, AGE, EMPTY, CAP);
        w.record(-5, 0);
        assertEquals(0, w.marginNs(0));
    }

    @Test
    void theRunsWindowIgnoresTheTwoLargestOf256() {
        OvershootWindow w = new OvershootWindow(AdaptiveWaiter.WINDOW, AdaptiveWaiter.PERCENTILE, AGE, EMPTY, CAP);
        for (int i = 1; i <= 256; i++) {
            w.record(i, 0);
        }
        // ceil(0.99 * 256) = 254th smallest of 1..256.
        assertEquals(254, w.marginNs(0));
    }

    /**
     * Against a sort of the live samples, recomputed from scratch at every step: 20,000 seeded samples with
     * stalls among them, the clock mostly creeping (the window full, samples evicted one by one) and now and
     * then leaping (many samples expiring at once).
     */
    @Test
    void agreesWithASortOfTheLiveSamplesThroughEvictionsAndExpiry() {
        int capacity = 64;
        long maxAge = 1_000;
        OvershootWindow w = new OvershootWindow(capacity, 95, maxAge, EMPTY, CAP);
        java.util.SplittableRandom random = new java.util.SplittableRandom(42);
        java.util.ArrayDeque<long[]> all = new java.util.ArrayDeque<>(); // {value, recordedAt}, oldest first
        long now = 0;
        for (int i = 0; i < 20_000; i++) {
            now += random.nextInt(200) == 0 ? random.nextLong(1_500) : random.nextLong(8);
            long v = random.nextInt(50) == 0 ? random.nextLong(20_000) : 40 + random.nextLong(20);
            w.record(v, now);
            all.addLast(new long[]{v, now});
            if (all.size() > capacity) {
                all.removeFirst();
            }
            long later = now + (random.nextInt(200) == 0 ? random.nextLong(maxAge + 200) : random.nextLong(8));
            assertEquals(reference(all, later, maxAge, 95), w.marginNs(later), "step " + i);
            now = later;
        }
    }

    /** Nearest rank over the samples not older than {@code maxAge} at {@code now}, capped; EMPTY if none. */
    private static long reference(java.util.Collection<long[]> samples, long now, long maxAge, int percentile) {
        long[] live = samples.stream().filter(s -> now - s[1] <= maxAge).mapToLong(s -> s[0]).sorted().toArray();
        if (live.length == 0) {
            return EMPTY;
        }
        int rank = (int) Math.ceil(percentile * live.length / 100.0);
        return Math.min(CAP, live[rank - 1]);
    }

    @Test
    void rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new OvershootWindow(0, 99, AGE, EMPTY, CAP));
        assertThrows(IllegalArgumentException.class, () -> new OvershootWindow(10, 101, AGE, EMPTY, CAP));
        assertThrows(IllegalArgumentException.class, () -> new OvershootWindow(10, 99, AGE, CAP + 1, CAP));
    }
}
