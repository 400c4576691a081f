package io.loadgen.core.stats;

import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.List;

/**
 * One series of a run (e.g. {@code READ.intended}) as the run's intervals recorded it: each interval's histogram,
 * kept sparsely (its non-empty buckets only) with the interval's length, so that the sum over any multiset of
 * intervals, a bootstrap resample, costs the recorded buckets rather than the whole counts array. Immutable
 * after {@link #of}; any thread, but {@link #sum} writes into the caller's histogram.
 */
public final class IntervalSeries {
    private final long[][] values;
    private final long[][] counts;
    private final double[] seconds;
    private final long totalCount;
    /** Every interval's bucket values, distinct and ascending: where {@link #sumCounts} adds. */
    private final long[] dictionary;
    /** Per interval, each bucket's position in {@link #dictionary}, parallel to {@link #counts}. */
    private final int[][] positions;

    private IntervalSeries(long[][] values, long[][] counts, double[] seconds) {
        this.values = values;
        this.counts = counts;
        this.seconds = seconds;
        this.dictionary = java.util.Arrays.stream(values).flatMapToLong(java.util.Arrays::stream).distinct().sorted()
                .toArray();
        this.positions = new int[values.length][];
        for (int i = 0; i < values.length; i++) {
            positions[i] = new int[values[i].length];
            for (int b = 0; b < values[i].length; b++) {
                positions[i][b] = java.util.Arrays.binarySearch(dictionary, values[i][b]);
            }
        }
        long n = 0;
        for (long[] c : counts) {
            for (long x : c) {
                n += x;
            }
        }
        this.totalCount = n;
    }

    /**
     * @param intervals each interval's histogram (ns), in time order; read now, not kept
     * @param lengthsSec each interval's length in seconds, parallel to {@code intervals}
     */
    public static IntervalSeries of(List<Histogram> intervals, double[] lengthsSec) {
        if (intervals.size() != lengthsSec.length) {
            throw new IllegalArgumentException(intervals.size() + " intervals but " + lengthsSec.length + " lengths");
        }
        Builder b = new Builder();
        for (int i = 0; i < intervals.size(); i++) {
            b.add(intervals.get(i), lengthsSec[i]);
        }
        return b.build();
    }

    /** A series built interval by interval. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Builds a series interval by interval, each histogram read (sparsely) when added and not kept, so a long log
     * is held as its recorded buckets rather than as one full histogram per interval. One thread.
     */
    public static final class Builder {
        private final List<long[]> values = new ArrayList<>();
        private final List<long[]> counts = new ArrayList<>();
        private final List<Double> seconds = new ArrayList<>();

        /** Adds the next interval: {@code h} (read now), {@code lengthSec} long. */
        public Builder add(Histogram h, double lengthSec) {
            int buckets = 0;
            for (HistogramIterationValue ignored : h.recordedValues()) {
                buckets++;
            }
            long[] v = new long[buckets];
            long[] c = new long[buckets];
            int b = 0;
            for (HistogramIterationValue x : h.recordedValues()) {
                v[b] = x.getValueIteratedTo(); // the bucket's highest equivalent value: records into the same bucket
                c[b] = x.getCountAtValueIteratedTo();
                b++;
            }
            values.add(v);
            counts.add(c);
            seconds.add(lengthSec);
            return this;
        }

        /** Adds the next interval with nothing recorded in it, {@code lengthSec} long. */
        public Builder addEmpty(double lengthSec) {
            values.add(new long[0]);
            counts.add(new long[0]);
            seconds.add(lengthSec);
            return this;
        }

        /** Intervals added so far. */
        public int size() {
            return seconds.size();
        }

        public IntervalSeries build() {
            double[] s = new double[seconds.size()];
            for (int i = 0; i < s.length; i++) {
                s[i] = seconds.get(i);
            }
            return new IntervalSeries(values.toArray(new long[0][]), counts.toArray(new long[0][]), s);
        }
    }

    /** How many intervals. */
    public int size() {
        return seconds.length;
    }

    /** Operations recorded over every interval. */
    public long totalCount() {
        return totalCount;
    }

    /** The intervals' lengths added up (s). */
    public double seconds() {
        double s = 0;
        for (double x : seconds) {
            s += x;
        }
        return s;
    }

    /** Operations recorded in interval {@code i}. */
    public long count(int i) {
        long n = 0;
        for (long c : counts[i]) {
            n += c;
        }
        return n;
    }

    /** Interval {@code i}'s length (s). */
    public double seconds(int i) {
        return seconds[i];
    }

    /**
     * Resets {@code into} and adds the intervals at {@code indices} (repeats count again), so {@code into} holds a
     * resampled run. Returns the resampled run's length in seconds.
     */
    public double sum(int[] indices, Histogram into) {
        into.reset();
        double s = 0;
        for (int i : indices) {
            long[] v = values[i];
            long[] c = counts[i];
            for (int b = 0; b < v.length; b++) {
                into.recordValueWithCount(v[b], c[b]);
            }
            s += seconds[i];
        }
        return s;
    }

    /**
     * The distinct values of every interval's buckets, ascending (each a bucket's highest equivalent value, what
     * {@code getValueAtPercentile} returns for it): the positions {@link #sumCounts} counts in. Do not modify.
     */
    long[] dictionary() {
        return dictionary;
    }

    /**
     * {@link #sum}'s counts without a histogram: zeroes {@code into} (as long as {@link #dictionary()}) and adds the
     * counts of the intervals at {@code indices} at their buckets' positions. Returns the operations added.
     */
    long sumCounts(int[] indices, long[] into) {
        java.util.Arrays.fill(into, 0);
        long total = 0;
        for (int i : indices) {
            int[] at = positions[i];
            long[] c = counts[i];
            for (int b = 0; b < at.length; b++) {
                into[at[b]] += c[b];
                total += c[b];
            }
        }
        return total;
    }

    /** The whole series: every interval added once. */
    public Histogram total() {
        Histogram h = Histograms.newHistogram();
        int[] all = new int[size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        sum(all, h);
        return h;
    }
}
