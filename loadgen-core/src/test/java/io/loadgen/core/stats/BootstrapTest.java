package io.loadgen.core.stats;

import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BootstrapTest {

    @Test
    void summingResampledIntervalsEqualsAddingTheirHistograms() {
        SplittableRandom rng = new SplittableRandom(7);
        List<Histogram> intervals = intervals(rng, 5, 300, 1_000_000);
        IntervalSeries series = IntervalSeries.of(intervals, new double[]{1, 1, 1, 1, 0.5});
        Histogram expected = Histograms.newHistogram();
        for (int i : new int[]{4, 0, 4, 2}) {
            expected.add(intervals.get(i));
        }
        Histogram got = Histograms.newHistogram();
        assertEquals(3.0, series.sum(new int[]{4, 0, 4, 2}, got), 1e-12);
        assertEquals(expected, got); // HdrHistogram's equals compares every bucket's count
        assertEquals(1500, series.totalCount());
        assertEquals(4.5, series.seconds(), 1e-12);
    }

    @Test
    void blocksAreConsecutiveAndWrapAround() {
        int[] idx = new int[10];
        Bootstrap.resample(10, 3, new SplittableRandom(1), idx);
        for (int k = 0; k < idx.length; k++) {
            if (k % 3 != 0) {
                assertEquals((idx[k - 1] + 1) % 10, idx[k], "index " + k + " of " + Arrays.toString(idx));
            }
        }
        assertEquals(1, Bootstrap.blockLength(1));
        assertEquals(4, Bootstrap.blockLength(60)); // cbrt(60) = 3.91
        assertEquals(10, Bootstrap.blockLength(1000));
    }

    /**
     * Coverage against a known answer. Each trial is a run of 60 intervals of 200 exponential latencies of mean
     * 1 ms: the true median is ln 2 ms = 693.1 µs. A 95 % interval must hold it in about 95 of 100 trials; the count
     * of trials that do is binomial(100, 0.95), standard deviation 2.2, so 88 is three deviations below. The seeds
     * are fixed, so the test is deterministic; the bound says the method, not the seed, is right.
     */
    @Test
    void ninetyFivePercentIntervalsCoverTheTrueMedian() {
        double trueMedianNs = Math.log(2) * 1_000_000;
        int covered = 0;
        for (int trial = 0; trial < 100; trial++) {
            SplittableRandom rng = new SplittableRandom(1000 + trial);
            List<Histogram> intervals = intervals(rng, 60, 200, 1_000_000);
            double[] lengths = new double[60];
            Arrays.fill(lengths, 1.0);
            double[] reps = Bootstrap.replicates(IntervalSeries.of(intervals, lengths),
                    (h, s) -> h.getValueAtPercentile(50), 400, trial);
            double[] ci = Bootstrap.interval(reps, 0.95);
            double lo = ci[0];
            double hi = ci[1];
            // HdrHistogram reports a bucket's highest equivalent value: 3 significant digits, so allow 0.1 %
            if (lo <= trueMedianNs * 1.001 && trueMedianNs <= hi * 1.001) {
                covered++;
            }
        }
        assertTrue(covered >= 88, covered + " of 100 intervals held the true median");
    }

    @Test
    void quantileInterpolatesAndSkipsNaN() {
        double[] sorted = {1, 2, 3, 4, Double.NaN};
        assertEquals(1, Bootstrap.quantile(sorted, 0), 1e-12);
        assertEquals(2.5, Bootstrap.quantile(sorted, 0.5), 1e-12);
        assertEquals(4, Bootstrap.quantile(sorted, 1), 1e-12);
        assertTrue(Double.isNaN(Bootstrap.quantile(new double[]{Double.NaN}, 0.5)));
    }

    @Test
    void tooFewIntervalsOrTailOperationsAreNotEnough() {
        SplittableRandom rng = new SplittableRandom(3);
        double[] ones = new double[20];
        Arrays.fill(ones, 1);
        IntervalSeries twenty = IntervalSeries.of(intervals(rng, 20, 100, 1000), ones);
        assertTrue(Bootstrap.enoughFor(twenty, 99));     // 2,000 ops: 20 beyond p99
        assertFalse(Bootstrap.enoughFor(twenty, 99.9));  // 2 beyond p99.9
        assertFalse(Bootstrap.enoughFor(twenty, 100));   // the maximum is one operation
        IntervalSeries seven = IntervalSeries.of(intervals(rng, 7, 10_000, 1000), Arrays.copyOf(ones, 7));
        assertFalse(Bootstrap.enoughFor(seven, 50));
    }

    @Test
    void percentilesSummedAsCountsAreHdrHistogramsToTheNanosecond() {
        // Exponential latencies (every bucket from µs to tens of ms) and an empty interval; 40 intervals, blocks of 3.
        List<Histogram> intervals = intervals(new SplittableRandom(3), 40, 150, 2_000_000);
        intervals.set(7, Histograms.newHistogram());
        double[] lengths = new double[40];
        Arrays.fill(lengths, 0.5);
        IntervalSeries series = IntervalSeries.of(intervals, lengths);
        double[] ps = {0.1, 50, 90, 99, 99.9, 100};
        Bootstrap.Statistic[] stats = new Bootstrap.Statistic[ps.length];
        for (int k = 0; k < ps.length; k++) {
            double p = ps[k];
            stats[k] = (sum, seconds) -> sum.getValueAtPercentile(p);
        }
        double[][] fast = Bootstrap.percentiles(series, ps, 300, 17);
        double[][] slow = Bootstrap.replicates(series, stats, 300, 17);
        for (int k = 0; k < ps.length; k++) {
            assertTrue(Arrays.equals(slow[k], fast[k]), "p" + ps[k] + ": the same resamples, the same values");
        }
    }

    private static List<Histogram> intervals(SplittableRandom rng, int n, int perInterval, double meanNs) {
        List<Histogram> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Histogram h = Histograms.newHistogram();
            for (int k = 0; k < perInterval; k++) {
                h.recordValue(Math.max(1, (long) (-Math.log(1 - rng.nextDouble()) * meanNs)));
            }
            out.add(h);
        }
        return out;
    }
}
