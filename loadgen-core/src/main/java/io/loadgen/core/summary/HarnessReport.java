package io.loadgen.core.summary;

import org.HdrHistogram.Histogram;

/**
 * The harness's watch on itself over a run's measured time (after the warm-up), next to the scheduler's
 * lag that {@link RunResult#lag()} holds: the hiccup meter's histogram, the harness JVM's GC pauses, the
 * workers' time behind schedule and the harness's own share of it, and the {@link HarnessVerdict} on all
 * of it. Built on the main thread after a run; immutable but for the histogram, which no one changes.
 *
 * @param hiccups        the hiccup meter's stalls (ns, expected-interval corrected), or null when not measured
 * @param gcPauses       GC pauses of the harness's JVM, from its GC notifications
 * @param gcPauseTotalNs their total length
 * @param gcPauseMaxNs   the longest
 * @param behindShare    the share of the workers' time spent on operations issued behind schedule, 0..1
 * @param harnessShare   the share of the workers' time the harness spent between such operations, 0..1
 * @param verdict        the judgement, or null for a result without one (a summary made from a log)
 */
public record HarnessReport(Histogram hiccups, long gcPauses, long gcPauseTotalNs, long gcPauseMaxNs,
                            double behindShare, double harnessShare, HarnessVerdict verdict) {
    /** A result whose harness did not watch itself (a summary made from an interval log, a test's result). */
    public static final HarnessReport NONE = new HarnessReport(null, 0, 0, 0, 0, 0, null);

    /** This report with {@code hiccups}: a summary made from a log has the log's, and nothing else. */
    public HarnessReport withHiccups(Histogram hiccups) {
        return new HarnessReport(hiccups, gcPauses, gcPauseTotalNs, gcPauseMaxNs, behindShare, harnessShare, verdict);
    }

    /** Whether the harness measured itself (so the report's fields mean something). */
    public boolean measured() {
        return verdict != null;
    }
}
