package io.loadgen.core.run;

import io.loadgen.core.diagnosis.Diagnoser;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.diagnosis.Figures;
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
    /**
     * The least stall the status line names: 1 ms. Below it a stall is within the wake-up latency of a parked
     * thread on a busy machine (100-300 us measured here), which every interval has.
     */
    static final long NOTE_FLOOR_NS = 1_000_000L;

    private final HiccupMeter meter;
    private final LoadThread[] workers;
    private final Histogram totalHiccups = Histograms.newHistogram();
    /** The interval's successes of every type, merged for the status note; reused, so nothing is allocated per interval. */
    private final Histogram intendedScratch = Histograms.newHistogram();
    private long intervalHiccupMaxNs;
    private final PauseCounts intervalGc = new PauseCounts();
    private final PauseCounts totalGc = new PauseCounts();
    /** The workers' behind-schedule sums at the last sample and when the measured time began. */
    private long lastHarnessNs;
    private long lastOwnNs;
    private long startHarnessNs;
    private long startOwnNs;
    private long intervalHarnessNs;
    private long intervalOwnNs;
    private boolean measuring;
    /** The longest harness delay of any measured interval, and when (from t0) that interval began. */
    private long delayMaxNs;
    private long delayMaxAtNs = -1;

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
        Histogram delay = snapshot.harnessDelay();
        if (measuring && delay != null && delay.getTotalCount() > 0 && delay.getMaxValue() > delayMaxNs) {
            delayMaxNs = delay.getMaxValue();
            delayMaxAtNs = snapshot.startNs() - snapshot.runStartNs();
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
        intervalOwnNs = ownNs - lastOwnNs;
        lastHarnessNs = harnessNs;
        lastOwnNs = ownNs;
    }

    /**
     * What the status line should say about the harness for the interval just sampled, or null when nothing
     * is worth a word, e.g. {@code harness stalled 301 ms}, {@code machine noise 12.4 ms},
     * {@code harness saturated: share 62%}. Proportional, as the diagnosis is: the harness stalled when the
     * interval's intended p99 (its successes, all types) less that p99 without the harness's delay of each
     * reached {@link Diagnoser#MATERIAL_SHARE} of it (the note gives the longest delay); a hiccup of the meter's
     * sleeping thread of at least a tenth of intended p99 and of the meter's own sleep ({@link
     * HiccupMeter#RESOLUTION_NS}: shorter, it may be the sleep's own jitter), while no worker was delayed so,
     * is machine noise. Aggregator thread, after {@link #onInterval}.
     */
    String statusNote(IntervalSnapshot s) {
        StringBuilder note = new StringBuilder();
        intendedScratch.reset();
        for (IntervalSnapshot.Op op : s.operations()) {
            intendedScratch.add(op.intended());
        }
        long intendedP99 = intendedScratch.getTotalCount() == 0 ? 0 : intendedScratch.getValueAtPercentile(99);
        Histogram delay = s.harnessDelay();
        Histogram undelayed = s.undelayed();
        long delayMax = delay == null ? 0 : delay.getMaxValue();
        boolean stalled = undelayed != null && undelayed.getTotalCount() > 0 && intendedP99 > 0
                && intendedP99 - undelayed.getValueAtPercentile(99) >= Diagnoser.MATERIAL_SHARE * intendedP99
                && delayMax >= NOTE_FLOOR_NS;
        if (stalled) {
            note.append("harness stalled ").append(duration(delayMax));
        }
        long noiseNs = intervalHiccupMaxNs;
        if (!stalled && intendedP99 > 0 && noiseNs >= HiccupMeter.RESOLUTION_NS && noiseNs >= Diagnoser.MATERIAL_SHARE * intendedP99) {
            note.append("machine noise ").append(duration(noiseNs));
        }
        double share = (double) intervalHarnessNs / ((double) Math.max(1, s.lengthNs()) * workers.length);
        if (s.lag() != null && share > Diagnoser.HARNESS_SHARE_LIMIT) {
            note.append(note.length() > 0 ? ", " : "").append("harness saturated: share ").append(Figures.percent(share));
        }
        return note.length() == 0 ? null : note.toString();
    }

    /**
     * The interval just closed as the diagnosis reads a run: the share of the workers' time behind schedule and
     * the harness's own part of it (0..1 each, as {@link #shares}), the longest hiccup (-1 when not measured), and
     * the harness's GC pauses' count and longest. Aggregator thread, after {@link #onInterval}.
     */
    double[] intervalShares(long lengthNs) {
        double workerNs = (double) Math.max(1, lengthNs) * workers.length;
        return new double[]{Math.min(1, (intervalHarnessNs + intervalOwnNs) / workerNs),
                Math.min(1, intervalHarnessNs / workerNs)};
    }

    /** The interval's longest hiccup, -1 when hiccups are not measured. Aggregator thread. */
    long intervalHiccupMaxNs() {
        return meter == null ? -1 : intervalHiccupMaxNs;
    }

    /** The interval's harness GC pauses: count and longest. Aggregator thread. */
    long[] intervalGcPauses() {
        return new long[]{intervalGc.count, intervalGc.maxNs};
    }

    /**
     * The run's report and verdict over its measured time. Main thread, after the aggregator has ended.
     *
     * @param measuredNs the measured time (after the warm-up), per worker
     * @param lag        the scheduler's lag over the measured time; null when unthrottled
     * @param diagnosis  the run's diagnosis, which the verdict is derived from
     */
    HarnessReport report(long measuredNs, boolean throttled, Histogram lag, Diagnosis diagnosis) {
        double[] shares = shares(measuredNs);
        Histogram hiccups = hiccups();
        HarnessVerdict verdict = HarnessVerdict.of(diagnosis, new HarnessVerdict.Measured(throttled,
                throttled && lag != null ? lag.getValueAtPercentile(99) : 0,
                hiccups == null ? -1 : hiccups.getMaxValue(), totalGc.count, totalGc.totalNs, totalGc.maxNs,
                shares[0], shares[1]));
        return new HarnessReport(hiccups, totalGc.count, totalGc.totalNs, totalGc.maxNs, shares[0], shares[1],
                verdict);
    }

    /**
     * The share of the workers' measured time spent behind schedule, and the harness's own part of it, 0..1
     * each. Main thread, after the aggregator has ended.
     */
    double[] shares(long measuredNs) {
        double workerNs = (double) Math.max(1, measuredNs) * workers.length;
        double harnessShare = Math.min(1, (lastHarnessNs - startHarnessNs) / workerNs);
        double behindShare = Math.min(1, (lastHarnessNs - startHarnessNs + lastOwnNs - startOwnNs) / workerNs);
        return new double[]{behindShare, harnessShare};
    }

    /**
     * When the interval with the longest harness delay began, in ns from t0; -1 when nothing was delayed. Main
     * thread, after the aggregator.
     */
    long delayMaxAtNs() {
        return delayMaxAtNs;
    }

    /** The hiccups over the measured time, or null when not measured. Main thread, after the aggregator. */
    Histogram hiccups() {
        return meter == null ? null : totalHiccups;
    }

    /** The harness's GC pauses over the measured time: count and longest. Main thread, after the aggregator. */
    long[] gcPauses() {
        return new long[]{totalGc.count, totalGc.maxNs};
    }

    private static String duration(long ns) {
        return Figures.duration(ns);
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
