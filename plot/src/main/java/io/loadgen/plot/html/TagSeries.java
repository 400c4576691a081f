package io.loadgen.plot.html;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One tag's interval histograms as the page embeds them: a dictionary of the tag's buckets (each
 * bucket's lowest and highest equivalent value, ascending) and, per interval, its start, end and the
 * bucket counts it recorded ({@code recordedValues()}). Merging a window's intervals is adding counts
 * bucket by bucket, as {@code Histogram.add} does, so the page's percentiles are HdrHistogram's.
 * Built by {@link ExplorerData} on the thread that reads the logs; immutable once read.
 *
 * <p>Buckets are those of the tag's first interval. Every interval of a loadgen log (and of any log
 * whose histograms share one lowest discernible value and precision) has the same buckets, and then a
 * window merged here equals the window {@code report} sums. An interval with other buckets is mapped
 * into the first's as {@code Histogram.add} maps it, which is exact for windows that start with the
 * tag's first interval.
 */
final class TagSeries {
    /** What a tag's values are. */
    enum Kind {
        /** Latencies in ns ({@code OP.intended}, {@code OP.failed.service}, any other tool's tag). */
        LATENCY,
        /**
         * The harness's own latencies ({@code harness.lag}: the scheduler's delay; {@code harness.hiccup}: the
         * hiccup meter's), in ns: shown in the harness-health panel, off by default in the charts, never as
         * throughput.
         */
        HARNESS,
        /** Status counts ({@code OP.status}): the value is a status ordinal, not a latency. */
        STATUS
    }

    /** One interval: times in seconds after the log's start, recorded buckets as dictionary values. */
    record Interval(double startSec, double endSec, double prefixMaxStartSec, long[] highs, long[] counts) {
    }

    private final String name;
    private final Kind kind;
    private final List<Interval> intervals = new ArrayList<>();
    private final TreeMap<Long, Long> lowByHigh = new TreeMap<>();
    private Histogram buckets;
    private long[] lows;
    private long[] highs;

    TagSeries(String name, Kind kind) {
        this.name = name;
        this.kind = kind;
    }

    String name() {
        return name;
    }

    Kind kind() {
        return kind;
    }

    List<Interval> intervals() {
        return intervals;
    }

    /**
     * Adds one interval. {@code prefixMaxStartSec} is the latest start of any line read so far, this one
     * included: {@code report} stops at the first line that starts after {@code --end}, so an interval is
     * in a window [S, E] when it starts at or after S and no line up to it started after E.
     */
    void add(double startSec, double endSec, double prefixMaxStartSec, Histogram h) {
        if (buckets == null) {
            buckets = h.copy();
            buckets.reset();
        }
        List<long[]> recorded = new ArrayList<>();
        for (HistogramIterationValue v : h.recordedValues()) {
            long lowest = h.lowestEquivalentValue(v.getValueIteratedTo());
            long high = buckets.highestEquivalentValue(lowest);
            lowByHigh.putIfAbsent(high, buckets.lowestEquivalentValue(lowest));
            recorded.add(new long[]{high, v.getCountAtValueIteratedTo()});
        }
        long[] hs = new long[recorded.size()];
        long[] cs = new long[recorded.size()];
        for (int i = 0; i < hs.length; i++) {
            hs[i] = recorded.get(i)[0];
            cs[i] = recorded.get(i)[1];
        }
        intervals.add(new Interval(startSec, endSec, prefixMaxStartSec, hs, cs));
        lows = null;
    }

    /** The buckets' lowest equivalent values, ascending, parallel to {@link #highs()}. */
    long[] lows() {
        dictionary();
        return lows;
    }

    /** The buckets' highest equivalent values (what {@code recordedValues()} iterates to), ascending. */
    long[] highs() {
        dictionary();
        return highs;
    }

    /** The position of bucket {@code high} in the dictionary. */
    int indexOf(long high) {
        int i = java.util.Arrays.binarySearch(highs(), high);
        if (i < 0) {
            throw new IllegalStateException("bucket " + high + " of tag " + name + " is not in its dictionary");
        }
        return i;
    }

    private void dictionary() {
        if (lows != null) {
            return;
        }
        lows = new long[lowByHigh.size()];
        highs = new long[lowByHigh.size()];
        int i = 0;
        for (Map.Entry<Long, Long> e : lowByHigh.entrySet()) {
            highs[i] = e.getKey();
            lows[i++] = e.getValue();
        }
    }

    /** One interval's counts alone (its recorded buckets, ascending), for its figures. */
    BucketCounts of(Interval in) {
        long[] ls = new long[in.highs.length];
        for (int i = 0; i < ls.length; i++) {
            ls[i] = lows()[indexOf(in.highs[i])];
        }
        return new BucketCounts(ls, in.highs, in.counts);
    }

    /** Several intervals' counts added up, over the dictionary. */
    BucketCounts merged(List<Interval> group) {
        long[] counts = new long[highs().length];
        for (Interval in : group) {
            for (int i = 0; i < in.highs.length; i++) {
                counts[indexOf(in.highs[i])] += in.counts[i];
            }
        }
        return new BucketCounts(lows(), highs(), counts);
    }

    /**
     * The window [startSec, endSec] as the page merges it, by the rule of {@code report --start --end}:
     * counts per dictionary bucket.
     */
    BucketCounts window(double startSec, double endSec) {
        long[] counts = new long[highs().length];
        for (Interval in : intervals) {
            if (in.startSec >= startSec && in.prefixMaxStartSec <= endSec) {
                for (int i = 0; i < in.highs.length; i++) {
                    counts[indexOf(in.highs[i])] += in.counts[i];
                }
            }
        }
        return new BucketCounts(lows(), highs(), counts);
    }
}
