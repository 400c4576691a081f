package io.loadgen.core.run;

import org.HdrHistogram.Histogram;

import java.util.Map;

/**
 * One closed interval of a run, as its {@link IntervalListener} sees it: the histograms the interval
 * log gets, by tag ({@code READ.intended}, {@code READ.service}, {@code harness.lag} when throttled and
 * {@code harness.hiccup}: values
 * in ns; {@code READ.status}: counts by status ordinal, see {@code StatusTags}). It is the listener's view
 * of an {@link IntervalSnapshot}, and holds its read-only histograms: they are reused for the next
 * interval, so read them during the call, or copy them; never keep them. Made by the aggregator thread.
 *
 * @param runStartMs the run's start (the interval log's StartTime), epoch ms
 * @param startMs    the interval's start, epoch ms
 * @param endMs      the interval's end, epoch ms
 * @param measured   false during the warm-up: the interval is logged but left out of the summary
 * @param byTag      the interval's histograms by tag, in the log's order
 */
public record IntervalHistograms(long runStartMs, long startMs, long endMs, boolean measured,
                                 Map<String, Histogram> byTag) {
}
