package io.loadgen.plot;

import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * One tag of an interval log over the time range read: every interval in order, and their sum. The sum is
 * built as HistogramLogProcessor (and so {@code loadgen report}) builds it, so its percentiles are the
 * report's. Immutable once read.
 *
 * @param tag       the tag, e.g. {@code READ.intended}
 * @param intervals the tag's intervals, in time order
 * @param total     every interval added up
 */
public record TagSeries(String tag, List<IntervalPoint> intervals, Histogram total) {
    public TagSeries {
        intervals = List.copyOf(intervals);
    }
}
