package io.loadgen.core.schedule;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScheduleTest {

    @Test
    void fixedRateIntendsOperationKAtStartPlusKIntervalsWithoutDrift() {
        // 3 threads at 1000 ops/s total: each worker's interval is 3 ms.
        double intervalNs = 3 * 1e9 / 1000;
        FixedRateSchedule s = new FixedRateSchedule(1_000, intervalNs);
        long last = 0;
        for (long k = 0; k < 1_000_000; k++) {
            last = s.nextIntendedStartNs();
            if (k < 3) {
                assertEquals(1_000 + k * 3_000_000L, last);
            }
        }
        // Op 999,999 is exactly 999,999 intervals after op 0: computed from k, so no rounding builds up.
        assertEquals(1_000 + 999_999L * 3_000_000L, last);
    }

    @Test
    void fixedRateKeepsFractionalIntervalsExactOverTheLongRun() {
        // 3 ops/s per worker: 333,333,333.33 ns; after 3 million ops the schedule is exactly 1e6 s on.
        FixedRateSchedule s = new FixedRateSchedule(0, 1e9 / 3);
        for (int k = 0; k < 3_000_000; k++) {
            s.nextIntendedStartNs();
        }
        assertEquals(1_000_000_000_000_000L, s.nextIntendedStartNs(), 1_000);
    }

    @Test
    void poissonGapsHaveTheTargetMeanAndCoefficientOfVariationOne() {
        // Exponential gaps: mean = 1/rate, standard deviation = mean, so CV = 1.
        // 200,000 gaps: the sample mean's relative standard error is 1/sqrt(200,000) = 0.22%, so 2% is ~9 sigma.
        double meanNs = 250_000; // 4,000 ops/s
        PoissonSchedule s = new PoissonSchedule(0, meanNs, new SplittableRandom(42));
        int n = 200_000;
        long prev = s.nextIntendedStartNs();
        double sum = 0;
        double sumSq = 0;
        for (int i = 0; i < n; i++) {
            long next = s.nextIntendedStartNs();
            double gap = next - prev;
            assertTrue(gap >= 0, "gaps are never negative");
            sum += gap;
            sumSq += gap * gap;
            prev = next;
        }
        double mean = sum / n;
        double cv = Math.sqrt(sumSq / n - mean * mean) / mean;
        assertEquals(meanNs, mean, meanNs * 0.02, "mean gap");
        assertEquals(1.0, cv, 0.03, "coefficient of variation");
    }

    @Test
    void poissonScheduleIsRepeatableForASeed() {
        PoissonSchedule a = new PoissonSchedule(0, 1000, new SplittableRandom(7));
        PoissonSchedule b = new PoissonSchedule(0, 1000, new SplittableRandom(7));
        for (int i = 0; i < 1000; i++) {
            assertEquals(a.nextIntendedStartNs(), b.nextIntendedStartNs());
        }
    }

    /** What countUntil replaces: stepping through the schedule one operation at a time. */
    private static long stepped(Schedule s, long pendingNs, long untilNs) {
        long n = 0;
        for (long t = pendingNs; t - untilNs < 0; t = s.nextIntendedStartNs()) {
            n++;
        }
        return n;
    }

    @Test
    void fixedRateCountUntilEqualsSteppingEveryOperation() {
        SplittableRandom r = new SplittableRandom(7);
        for (int trial = 0; trial < 2_000; trial++) {
            double intervalNs = 1 + r.nextDouble() * 5_000; // fractional gaps, where rounding could bite
            long startNs = r.nextLong(-1_000_000, 1_000_000);
            int taken = r.nextInt(1, 50);
            long untilNs = startNs + r.nextLong(0, 2_000_000);
            FixedRateSchedule a = new FixedRateSchedule(startNs, intervalNs);
            FixedRateSchedule b = new FixedRateSchedule(startNs, intervalNs);
            long pa = 0;
            long pb = 0;
            for (int i = 0; i < taken; i++) {
                pa = a.nextIntendedStartNs();
                pb = b.nextIntendedStartNs();
            }
            assertEquals(stepped(b, pb, untilNs), a.countUntil(pa, untilNs),
                    "interval " + intervalNs + ", start " + startNs + ", until " + untilNs + ", taken " + taken);
        }
    }

    @Test
    void fixedRateCountUntilIsArithmeticAcrossTheClocksWrapAndAtTheHighestRate() {
        // One op per ns for an hour, starting 1 s before nanoTime wraps: 3.6e12 operations, counted at once
        // (stepping took minutes), and the wrap changes nothing.
        long startNs = Long.MAX_VALUE - 1_000_000_000L;
        FixedRateSchedule s = new FixedRateSchedule(startNs, 1.0);
        long pending = s.nextIntendedStartNs();
        long hourNs = 3_600_000_000_000L;
        assertEquals(hourNs, s.countUntil(pending, startNs + hourNs));
        assertEquals(startNs + hourNs, s.nextIntendedStartNs(), "the schedule goes on from the first one not counted");
    }

    @Test
    void poissonCountUntilDrawsSmallBacklogsAndEstimatesLargeOnes() {
        // A small window is drawn, as the run would have: exactly what stepping gives with the same seed.
        PoissonSchedule a = new PoissonSchedule(0, 1_000, new SplittableRandom(3));
        PoissonSchedule b = new PoissonSchedule(0, 1_000, new SplittableRandom(3));
        assertEquals(stepped(b, b.nextIntendedStartNs(), 5_000_000), a.countUntil(a.nextIntendedStartNs(), 5_000_000));
        // 10^9 arrivals due (1 s at a 1 ns mean gap): the first 65,536 drawn, the rest their expected count,
        // whose standard deviation is sqrt(10^9) ~ 3.2e4, so within 0.1%.
        PoissonSchedule c = new PoissonSchedule(0, 1.0, new SplittableRandom(3));
        long n = c.countUntil(c.nextIntendedStartNs(), 1_000_000_000L);
        assertEquals(1e9, n, 1e6);
    }
}
