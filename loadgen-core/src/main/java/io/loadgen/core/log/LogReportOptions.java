package io.loadgen.core.log;

/**
 * What {@link LogReport} does, in HdrHistogram {@code HistogramLogProcessor}'s terms; the defaults are
 * its defaults. A mutable bag filled by the command line, read once by one report.
 */
public final class LogReportOptions {
    /** How lines are chosen by tag. */
    public enum TagSelection {
        /**
         * HistogramLogProcessor's default: untagged lines; when a log has none (loadgen's logs tag every
         * line), every tag, each reported on its own, where HistogramLogProcessor would fail.
         */
        DEFAULT,
        /** Only lines tagged {@link #tag}. */
        ONE,
        /** Every tag, each reported on its own, in one pass. */
        ALL
    }

    public TagSelection selection = TagSelection.DEFAULT;
    public String tag;
    public boolean listTags;
    public boolean csv;
    /** Range on interval start times, seconds relative to the StartTime unless {@link #absoluteRange}. */
    public double rangeStartSec = 0.0;
    public double rangeEndSec = Double.MAX_VALUE;
    public boolean absoluteRange;
    /** Base name for the interval table; the distribution goes to base + ".hgrm". Null: distribution to stdout. */
    public String outputBase;
    public int percentilesOutputTicksPerHalf = 5;
    /** Divides recorded values on output; the default turns nanoseconds into milliseconds. */
    public double outputValueUnitRatio = 1_000_000.0;
    /** When above 0, each interval is corrected for coordinated omission with this expected interval (log units). */
    public double expectedIntervalForCoordinatedOmissionCorrection = 0.0;
    public boolean movingWindow;
    public double movingWindowPercentileToReport = 99.0;
    public long movingWindowLengthInMsec = 60_000;
    /**
     * Leave out the run's warm-up ({@link LogInterval#warmup()}), as the run's own totals and JSON do. Off by
     * default, as HistogramLogProcessor counts every line; the merged log keeps the warm-up either way (its
     * header names it, so its readers leave it out in turn).
     */
    public boolean excludeWarmup;
}
