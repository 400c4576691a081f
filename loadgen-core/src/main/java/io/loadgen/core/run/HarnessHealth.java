package io.loadgen.core.run;

import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.RunEvents;
import io.loadgen.core.summary.HarnessReport;
import io.loadgen.core.summary.HarnessVerdict;
import org.HdrHistogram.Histogram;

/**
 * The harness's watch on itself during a run, one of the interval sampler's sinks: every interval it
 * drains the {@link HiccupMeter} (for the log's {@value #HICCUP_TAG} lines), reads the workers' time
 * behind schedule split into the harness's own share and the operations' ({@link LoadThread#countBehind}),
 * and counts the harness JVM's GC pauses as the run's events pass by ({@link GcPauseEvents} records them;
 * the log gets each one's start and length). After the warm-up it keeps totals, which become the run's
 * {@link HarnessReport} and {@link HarnessVerdict}.
 *
 * <p>Threads: everything but {@link #report} on the sampler thread; {@link #report} on the main thread
 * after joining the sampler.
 */
final class HarnessHealth {
    /** The interval-log tag of the hiccup meter's histograms. */
    static final String HICCUP_TAG = "harness.hiccup";

    private final HiccupMeter meter;
    private final LoadThread[] workers;
    private final Histogram intervalHiccups = Histograms.newHistogram();
    private final Histogram totalHiccups = Histograms.newHistogram();
    /** GC pauses drained since the last sample, then those of the last interval. */
    private final PauseCounts pendingGc = new PauseCounts();
    private final PauseCounts intervalGc = new PauseCounts();
    private final PauseCounts totalGc = new PauseCounts();
    /** The workers' behind-schedule sums at the last sample and when the measured time began. */
    private long lastHarnessNs;
    private long lastOwnNs;
    private long startHarnessNs;
    private long startOwnNs;
    private long intervalHarnessNs;

    /** @param meter the hiccup meter, or null for none (the log then has no {@value #HICCUP_TAG} lines) */
    HarnessHealth(HiccupMeter meter, LoadThread[] workers) {
        this.meter = meter;
        this.workers = workers;
    }

    /** Whether hiccups are measured (so the sampler logs {@link #intervalHiccups}). */
    boolean measuresHiccups() {
        return meter != null;
    }

    /** The last interval's hiccups; the same histogram every interval. Sampler thread. */
    Histogram intervalHiccups() {
        return intervalHiccups;
    }

    /**
     * A sink that hands every event to {@code next} (the interval log) and counts the harness's GC pauses.
     */
    RunEvents.Sink eventSink(RunEvents.Sink next) {
        return (kind, source, startEpochMs, lengthNs) -> {
            next.accept(kind, source, startEpochMs, lengthNs);
            if (GcPauseEvents.KIND.equals(kind) && GcPauseEvents.SOURCE.equals(source)) {
                pendingGc.add(lengthNs);
                totalGc.add(lengthNs);
            }
        };
    }

    /** Closes an interval: drains the hiccups into {@link #intervalHiccups} and reads the workers' time. Sampler thread. */
    void sample() {
        if (meter != null) {
            meter.drainInto(intervalHiccups);
            totalHiccups.add(intervalHiccups);
        }
        long harnessNs = 0;
        long ownNs = 0;
        for (LoadThread w : workers) {
            harnessNs += w.behindHarnessNs();
            ownNs += w.behindOwnNs();
        }
        intervalGc.set(pendingGc);
        pendingGc.reset();
        intervalHarnessNs = harnessNs - lastHarnessNs;
        lastHarnessNs = harnessNs;
        lastOwnNs = ownNs;
    }

    /** The warm-up is over: the totals start again from here (the log keeps the warm-up's intervals). */
    void startMeasuring() {
        totalHiccups.reset();
        totalGc.reset();
        startHarnessNs = lastHarnessNs;
        startOwnNs = lastOwnNs;
    }

    /**
     * What the status line should say about the harness for the interval just sampled ({@code intervalNs}
     * long), or null when nothing crossed a {@link HarnessVerdict} limit, e.g.
     * {@code hiccup max 12.4 ms, 1 GC pause of 41 ms, harness share 62%}. Sampler thread, after {@link #sample}.
     */
    String statusNote(long intervalNs, boolean throttled) {
        StringBuilder note = new StringBuilder();
        if (meter != null && intervalHiccups.getMaxValue() > HarnessVerdict.HICCUP_MAX_LIMIT_NS) {
            note.append("hiccup max ").append(duration(intervalHiccups.getMaxValue()));
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
     * The run's report and verdict over its measured time. Main thread, after the sampler has ended.
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

    /** Count, total and longest of some pauses. Sampler thread. */
    private static final class PauseCounts {
        long count;
        long totalNs;
        long maxNs;

        void add(long ns) {
            count++;
            totalNs += ns;
            maxNs = Math.max(maxNs, ns);
        }

        void set(PauseCounts other) {
            count = other.count;
            totalNs = other.totalNs;
            maxNs = other.maxNs;
        }

        void reset() {
            count = 0;
            totalNs = 0;
            maxNs = 0;
        }
    }
}
