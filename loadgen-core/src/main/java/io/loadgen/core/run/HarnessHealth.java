package io.loadgen.core.run;

import io.loadgen.core.record.Histograms;
import io.loadgen.core.summary.HarnessReport;
import io.loadgen.core.summary.HarnessVerdict;
import org.HdrHistogram.Histogram;

/**
 * The harness's watch on itself during a run, one of the interval aggregator's sinks. As a
 * {@link TaggedSeries} it drains the {@link HiccupMeter} into the snapshot (so the log gets its
 * {@value #HICCUP_TAG} lines); as an {@link IntervalSink} it then reads the workers' time behind schedule,
 * split into the harness's own share and the operations' ({@link LoadThread#countBehind}), and counts the
 * harness JVM's GC pauses among the snapshot's events ({@link GcPauseEvents} records them; the log gets
 * each one's start and length). Over the measured intervals it keeps totals, which become the run's
 * {@link HarnessReport} and {@link HarnessVerdict}.
 *
 * <p>Threads: everything but {@link #report} on the aggregator thread; {@link #report} on the main thread
 * after joining the aggregator.
 */
final class HarnessHealth implements TaggedSeries, IntervalSink {
    /** The interval-log tag of the hiccup meter's histograms. */
    static final String HICCUP_TAG = "harness.hiccup";

    private final HiccupMeter meter;
    private final LoadThread[] workers;
    private final Histogram totalHiccups = Histograms.newHistogram();
    private long intervalHiccupMaxNs;
    private final PauseCounts intervalGc = new PauseCounts();
    private final PauseCounts totalGc = new PauseCounts();
    /** The workers' behind-schedule sums at the last sample and when the measured time began. */
    private long lastHarnessNs;
    private long lastOwnNs;
    private long startHarnessNs;
    private long startOwnNs;
    private long intervalHarnessNs;
    private boolean measuring;

    /** @param meter the hiccup meter, or null for none (the log then has no {@value #HICCUP_TAG} lines) */
    HarnessHealth(HiccupMeter meter, LoadThread[] workers) {
        this.meter = meter;
        this.workers = workers;
    }

    /** Whether hiccups are measured (so the aggregator logs them: add this health as a series too). */
    boolean measuresHiccups() {
        return meter != null;
    }

    @Override
    public String tag() {
        return HICCUP_TAG;
    }

    /** The hiccups since the last interval, into the snapshot's {@value #HICCUP_TAG} histogram. */
    @Override
    public void addIntervalTo(Histogram target) {
        if (meter != null) {
            meter.drainInto(target);
        }
    }

    /**
     * Closes an interval: its hiccups and GC pauses, the workers' time behind schedule, and, from the first
     * measured interval on, the totals (the warm-up's intervals stay in the log, not in the totals).
     */
    @Override
    public void onInterval(IntervalSnapshot snapshot) {
        if (snapshot.measured() && !measuring) {
            measuring = true;
            startHarnessNs = lastHarnessNs; // the sums as the warm-up ended
            startOwnNs = lastOwnNs;
        }
        Histogram hiccups = meter == null ? null : snapshot.byTag().get(HICCUP_TAG);
        intervalHiccupMaxNs = hiccups == null ? 0 : hiccups.getMaxValue();
        intervalGc.reset();
        for (IntervalSnapshot.Event e : snapshot.events()) {
            if (GcPauseEvents.KIND.equals(e.kind()) && GcPauseEvents.SOURCE.equals(e.source())
                    && e.startEpochMs() >= snapshot.runStartMs()) { // a pause before t0 (warm-up, set-up) is not the run's
                intervalGc.add(e.lengthNs());
            }
        }
        if (measuring) {
            if (hiccups != null) {
                totalHiccups.add(hiccups);
            }
            totalGc.add(intervalGc);
        }
        long harnessNs = 0;
        long ownNs = 0;
        for (LoadThread w : workers) {
            harnessNs += w.behindHarnessNs();
            ownNs += w.behindOwnNs();
        }
        intervalHarnessNs = harnessNs - lastHarnessNs;
        lastHarnessNs = harnessNs;
        lastOwnNs = ownNs;
    }

    /**
     * What the status line should say about the harness for the interval just sampled ({@code intervalNs}
     * long), or null when nothing crossed a {@link HarnessVerdict} limit, e.g.
     * {@code hiccup max 12.4 ms, 1 GC pause of 41 ms, harness share 62%}. Aggregator thread, after
     * {@link #onInterval}.
     */
    String statusNote(long intervalNs, boolean throttled) {
        StringBuilder note = new StringBuilder();
        if (meter != null && intervalHiccupMaxNs > HarnessVerdict.HICCUP_MAX_LIMIT_NS) {
            note.append("hiccup max ").append(duration(intervalHiccupMaxNs));
        }
        if (intervalGc.count > 0 && intervalGc.maxNs > HarnessVerdict.GC_PAUSE_MAX_LIMIT_NS) {
            note.append(note.length() > 0 ? ", " : "").append(intervalGc.count).append(" GC pause")
                    .append(intervalGc.count == 1 ? "" : "s").append(", max ").append(duration(intervalGc.maxNs));
        }
        double share = (double) intervalHarnessNs / ((double) Math.max(1, intervalNs) * workers.length);
        if (throttled && share > HarnessVerdict.HARNESS_SHARE_LIMIT) {
            note.append(note.length() > 0 ? ", " : "").append("harness share ").append(HarnessVerdict.percent(share));
        }
        return note.length() == 0 ? null : note.toString();
    }

    /**
     * The run's report and verdict over its measured time. Main thread, after the aggregator has ended.
     *
     * @param measuredNs    the measured time (after the warm-up), per worker
     * @param lag           the scheduler's lag over the measured time; null when unthrottled
     * @param intendedMaxNs the worst intended latency of any operation type
     */
    HarnessReport report(long measuredNs, boolean throttled, Histogram lag, long intendedMaxNs) {
        double workerNs = (double) Math.max(1, measuredNs) * workers.length;
        double harnessShare = Math.min(1, (lastHarnessNs - startHarnessNs) / workerNs);
        double behindShare = Math.min(1, (lastHarnessNs - startHarnessNs + lastOwnNs - startOwnNs) / workerNs);
        Histogram hiccups = meter == null ? null : totalHiccups;
        HarnessVerdict verdict = HarnessVerdict.judge(new HarnessVerdict.Measured(throttled,
                throttled && lag != null ? lag.getValueAtPercentile(99) : 0,
                hiccups == null ? -1 : hiccups.getMaxValue(), totalGc.count, totalGc.totalNs, totalGc.maxNs,
                behindShare, harnessShare, intendedMaxNs));
        return new HarnessReport(hiccups, totalGc.count, totalGc.totalNs, totalGc.maxNs, behindShare, harnessShare,
                verdict);
    }

    private static String duration(long ns) {
        return HarnessVerdict.duration(ns);
    }

    /** Count, total and longest of some pauses. Aggregator thread. */
    private static final class PauseCounts {
        long count;
        long totalNs;
        long maxNs;

        void add(long ns) {
            count++;
            totalNs += ns;
            maxNs = Math.max(maxNs, ns);
        }

        void add(PauseCounts other) {
            count += other.count;
            totalNs += other.totalNs;
            maxNs = Math.max(maxNs, other.maxNs);
        }

        void reset() {
            count = 0;
            totalNs = 0;
            maxNs = 0;
        }
    }
}
