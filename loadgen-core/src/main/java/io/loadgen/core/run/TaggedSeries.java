package io.loadgen.core.run;

import org.HdrHistogram.Histogram;

/**
 * A further histogram for every interval, under its own interval-log tag (e.g. {@code harness.hiccup}
 * from a hiccup meter): the interval aggregator asks it once per interval to add what it recorded since
 * the last time, and the histogram joins the {@link IntervalSnapshot} (and so the interval log, after
 * {@code harness.lag}) like the run's own series. Aggregator thread only; the source records on its own
 * threads (an HdrHistogram {@code Recorder}'s {@code getIntervalHistogramInto} fits).
 */
interface TaggedSeries {
    /** The interval-log tag, e.g. {@code harness.hiccup}. */
    String tag();

    /** Adds what was recorded since the previous call into {@code target} (empty, of the run's shape). */
    void addIntervalTo(Histogram target);
}
