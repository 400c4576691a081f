package io.loadgen.core.stats;

import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The circular moving-block bootstrap over a run's intervals: how much a statistic of the whole run (a
 * percentile of its summed histogram, its throughput) would vary from run to run, estimated from the run's own
 * interval-to-interval variation. Stateless; any thread.
 *
 * <p><b>The method</b> (Künsch 1989; Politis and Romano 1992 for the circular form). A run of {@code n} intervals
 * is resampled by drawing {@code ceil(n / b)} blocks of {@code b} consecutive intervals, each starting at a
 * uniformly drawn interval and wrapping around the end, and keeping the first {@code n} intervals drawn; the
 * statistic is computed on the sum of the drawn intervals' histograms. Repeating that {@code R} times gives the
 * statistic's sampling distribution, and its 2.5th and 97.5th percentiles a 95 % interval (the percentile
 * method).
 *
 * <p><b>Why blocks.</b> Consecutive intervals are not independent: a store's slow minute, a GC, a backlog
 * spanning intervals. Resampling single intervals would treat them as independent and understate the variance;
 * blocks keep the dependence within {@code b} intervals. {@code b = round(n^(1/3))} (at least 1) is the
 * rate-optimal order for variance estimation (Hall, Horowitz and Jing 1995).
 *
 * <p><b>Assumptions</b>, which a user must know: the run is stationary after its warm-up (the same load
 * throughout; a ramp or a phased run is not); dependence between intervals dies out within a few blocks; and
 * there are enough intervals for the tail being estimated: a percentile needs operations beyond it in most
 * blocks, see {@link #enoughFor}. What it cannot see is variation between runs that is constant within one (a
 * different JIT outcome, another tenant on the machine for the whole run): two runs of the same build differ by
 * more than their intervals' variation says, which is why a comparison also asks for a material change.
 */
public final class Bootstrap {
    /** Resamples per estimate: 1,000 puts the 2.5 % and 97.5 % quantiles on the 25th and 975th replicate. */
    public static final int DEFAULT_RESAMPLES = 1000;
    /** The fewest intervals from which a run's variation is estimated at all. */
    public static final int MIN_INTERVALS = 8;

    /** A statistic of a resampled run: its summed histogram (ns) and its length (s). */
    @FunctionalInterface
    public interface Statistic {
        double of(Histogram sum, double seconds);
    }

    private Bootstrap() {
    }

    /** The block length for {@code n} intervals: {@code round(n^(1/3))}, at least 1. */
    public static int blockLength(int n) {
        return Math.max(1, (int) Math.round(Math.cbrt(n)));
    }

    /** Fills {@code into} (length n) with one circular moving-block resample of the indices {@code 0..n-1}. */
    public static void resample(int n, int block, SplittableRandom rng, int[] into) {
        int k = 0;
        while (k < into.length) {
            int start = rng.nextInt(n);
            for (int j = 0; j < block && k < into.length; j++) {
                into[k++] = (start + j) % n;
            }
        }
    }

    /**
     * {@code resamples} replicates of {@code stat} over block resamples of {@code series}, in the order drawn
     * (unsorted, so that two runs' replicates can be paired draw by draw for a ratio); the same {@code seed} gives
     * the same replicates. Sort a copy before {@link #quantile}, or use {@link #interval}.
     */
    public static double[] replicates(IntervalSeries series, Statistic stat, int resamples, long seed) {
        return replicates(series, new Statistic[]{stat}, resamples, seed)[0];
    }

    /**
     * {@link #replicates(IntervalSeries, Statistic, int, long)} of several statistics on the same resamples (one
     * sum per resample, read by each): {@code out[s][r]} is statistic {@code s} of resample {@code r}. The
     * resamples are those the one-statistic form draws with the same {@code seed}.
     */
    public static double[][] replicates(IntervalSeries series, Statistic[] stats, int resamples, long seed) {
        int n = series.size();
        double[][] out = new double[stats.length][resamples];
        if (n == 0) {
            for (double[] o : out) {
                Arrays.fill(o, Double.NaN);
            }
            return out;
        }
        SplittableRandom rng = new SplittableRandom(seed);
        int block = blockLength(n);
        int[] idx = new int[n];
        Histogram sum = Histograms.newHistogram();
        for (int r = 0; r < resamples; r++) {
            resample(n, block, rng, idx);
            double seconds = series.sum(idx, sum);
            for (int s = 0; s < stats.length; s++) {
                out[s][r] = stats[s].of(sum, seconds);
            }
        }
        return out;
    }

    /**
     * Percentiles' replicates, as {@link #replicates(IntervalSeries, Statistic[], int, long)} with statistics
     * {@code getValueAtPercentile(p)} give them for the same {@code seed} (the same resamples, the same values to
     * the nanosecond), but summed as counts over the series' distinct bucket values rather than recorded into a
     * histogram: several times faster on long runs. {@code out[k][r]}: percentile {@code k} (in (0, 100]) of
     * resample {@code r}; NaN for an empty resample.
     */
    public static double[][] percentiles(IntervalSeries series, double[] percentiles, int resamples, long seed) {
        int n = series.size();
        double[][] out = new double[percentiles.length][resamples];
        if (n == 0) {
            for (double[] o : out) {
                Arrays.fill(o, Double.NaN);
            }
            return out;
        }
        long[] values = series.dictionary();
        long[] counts = new long[values.length];
        SplittableRandom rng = new SplittableRandom(seed);
        int block = blockLength(n);
        int[] idx = new int[n];
        for (int r = 0; r < resamples; r++) {
            resample(n, block, rng, idx);
            long total = series.sumCounts(idx, counts);
            for (int k = 0; k < percentiles.length; k++) {
                out[k][r] = total == 0 ? Double.NaN : valueAtPercentile(values, counts, total, percentiles[k]);
            }
        }
        return out;
    }

    /** HdrHistogram's {@code getValueAtPercentile} (for a percentile above 0) over counts at ascending values. */
    static long valueAtPercentile(long[] values, long[] counts, long total, double percentile) {
        double requested = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0), 100.0);
        long countAtPercentile = Math.max((long) Math.ceil((requested * total) / 100.0), 1);
        long running = 0;
        for (int i = 0; i < counts.length; i++) {
            running += counts[i];
            if (running >= countAtPercentile) {
                return values[i];
            }
        }
        return values[values.length - 1];
    }

    /**
     * The central {@code level} interval (e.g. 0.95) of replicates by the percentile method: {@code {low, high}}.
     * Does not modify {@code replicates}.
     */
    public static double[] interval(double[] replicates, double level) {
        double[] sorted = replicates.clone();
        Arrays.sort(sorted);
        double tail = (1 - level) / 2;
        return new double[]{quantile(sorted, tail), quantile(sorted, 1 - tail)};
    }

    /**
     * The {@code q} quantile (0..1) of sorted replicates, by linear interpolation between order statistics
     * (Hyndman and Fan's type 7, as R and NumPy default), ignoring NaN (sorted last).
     */
    public static double quantile(double[] sorted, double q) {
        int n = sorted.length;
        while (n > 0 && Double.isNaN(sorted[n - 1])) {
            n--;
        }
        if (n == 0) {
            return Double.NaN;
        }
        double h = (n - 1) * q;
        int lo = (int) Math.floor(h);
        int hi = Math.min(n - 1, lo + 1);
        if (h == lo || sorted[lo] == sorted[hi]) {
            return sorted[lo]; // exact, and no 0 * infinity when a replicate is infinite (a ratio over 0)
        }
        return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
    }

    /**
     * Whether a run has enough for its {@code percentile} (0..100] to be estimated from its intervals: at least
     * {@link #MIN_INTERVALS} intervals, and at least 10 operations beyond the percentile in the whole run (so each
     * of the run's blocks holds some of the tail rather than the estimate resting on one or two operations).
     * The maximum ({@code percentile} 100) never has: it is one operation, whatever the run's length.
     */
    public static boolean enoughFor(IntervalSeries series, double percentile) {
        if (series.size() < MIN_INTERVALS || percentile >= 100) {
            return false;
        }
        double beyond = series.totalCount() * (1 - percentile / 100.0);
        return beyond >= 10;
    }
}
