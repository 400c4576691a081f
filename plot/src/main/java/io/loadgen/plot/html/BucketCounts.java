package io.loadgen.plot.html;

/**
 * A merged window of one tag: counts per bucket of the tag's dictionary, and the statistics HdrHistogram
 * reads from such counts, computed step for step as {@code AbstractHistogram} computes them (same double
 * arithmetic, same order). The page's script ({@code explorer.js}, {@code Stats}) is this class in
 * JavaScript; tests hold both to {@code report}, and the page checks itself against the whole-range
 * figures this class embeds. Immutable; any thread.
 */
final class BucketCounts {
    private final long[] lows;
    private final long[] highs;
    private final long[] counts;
    private final long total;

    BucketCounts(long[] lows, long[] highs, long[] counts) {
        this.lows = lows;
        this.highs = highs;
        this.counts = counts;
        long sum = 0;
        for (long c : counts) {
            sum += c;
        }
        this.total = sum;
    }

    /** The count of bucket {@code i} (of the arrays given). */
    long count(int i) {
        return counts[i];
    }

    long totalCount() {
        return total;
    }

    /** {@code getValueAtPercentile}: the highest equivalent value of the bucket where the count reaches p (lowest for p = 0). */
    long valueAtPercentile(double percentile) {
        double requested = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0), 100.0);
        long countAtPercentile = Math.max((long) Math.ceil(requested * total / 100.0), 1);
        long running = 0;
        for (int i = 0; i < counts.length; i++) {
            running += counts[i];
            if (running >= countAtPercentile) {
                return percentile == 0.0 ? lows[i] : highs[i];
            }
        }
        return 0;
    }

    /** {@code getMinValue}: the lowest equivalent value of the first bucket with a count; 0 when empty. */
    long min() {
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                return lows[i];
            }
        }
        return 0;
    }

    /** {@code getMaxValue}: the highest equivalent value of the last bucket with a count; 0 when empty. */
    long max() {
        for (int i = counts.length - 1; i >= 0; i--) {
            if (counts[i] > 0) {
                return highs[i];
            }
        }
        return 0;
    }

    /** {@code getMean}: each bucket's median equivalent value times its count, summed in bucket order. */
    double mean() {
        if (total == 0) {
            return 0.0;
        }
        double sum = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                long median = lows[i] + ((highs[i] - lows[i] + 1) >> 1);
                sum += (double) median * (double) counts[i];
            }
        }
        return sum * 1.0 / total;
    }

    /** The count at bucket value {@code value} (a status ordinal, for {@code OP.status} tags). */
    long countAt(long value) {
        for (int i = 0; i < highs.length; i++) {
            if (lows[i] <= value && value <= highs[i]) {
                return counts[i];
            }
        }
        return 0;
    }
}
