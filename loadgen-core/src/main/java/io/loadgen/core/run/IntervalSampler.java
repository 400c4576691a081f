package io.loadgen.core.run;

import io.loadgen.core.Secrets;
import io.loadgen.core.output.OutputFailures;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.IntervalLog;
import io.loadgen.core.record.RunEvents;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.record.View;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.time.NanoClock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The run's only reader of the workers' recorders: every interval it drains them into one histogram
 * per operation type and series (the intended and service views of the successes, then of the
 * failures), appends those to the interval log, prints the status line and, after
 * the warm-up, adds them to the run's totals. Runs on its own thread ({@link #run()}), so no I/O ever
 * happens on a worker; the totals are read by the main thread after joining it.
 */
final class IntervalSampler implements Runnable {
    private static final Logger LOG = LogManager.getLogger(IntervalSampler.class);
    private static final long BEHIND_REPORT_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final View[] RECORDED = {View.INTENDED, View.SERVICE};
    /** Series per operation type: [v] the successes' view RECORDED[v], [FAILED + v] the failures'. */
    private static final int FAILED = RECORDED.length;
    private static final int SERIES = 2 * RECORDED.length;

    private final String[] ops;
    private final WorkerRecorders[] recorders;
    private final LoadThread[] workers;
    private final SchedulePosition position;
    private final CountDownLatch workersDone;
    private final IntervalLog log;
    private final RunEvents events;
    private final RunEvents.Sink eventSink;
    private final HarnessHealth health;
    private final PrintStream status;
    private final NanoClock clock;
    private final boolean throttled;
    private final long warmupNs;
    private final long intervalNs;
    private final long operationLimit;

    private final String[][] tags;
    private final Histogram[][] interval;
    private final Histogram[][] total;
    private final long[] totalStatus;
    private final long[] intervalStatus;
    private final Histogram[] statusByOp;
    private final String[] statusTags;
    private final Histogram intervalLag = Histograms.newHistogram();
    private final Histogram totalLag = Histograms.newHistogram();
    private final StatusLine line = new StatusLine();
    private final Map<String, Histogram> intervalByTag;
    private IntervalListener listener;
    private boolean logFailed;

    private long t0Ns;
    private long t0Ms;
    private long measureStartNs;
    private long endNs;
    /** True when the run has a duration, so {@link #endNs} is its end (else only far away). */
    private boolean timed;
    private long lastNs;
    private long totalOps;
    private long reportedErrors;
    private boolean measuring;
    private long measuredFromNs;
    private long measuredToNs;
    private volatile Throwable failure;

    IntervalSampler(Builder b) {
        this.ops = b.ops;
        this.recorders = b.recorders;
        this.workers = b.workers;
        this.position = b.position;
        this.workersDone = b.workersDone;
        this.log = b.log;
        this.events = b.events;
        RunEvents.Sink toLog = b.log == null ? (kind, source, startMs, lengthNs) -> { } : b.log::writeEvent;
        this.health = b.health;
        this.eventSink = health == null ? toLog : health.eventSink(toLog); // harness health counts its GC pauses
        this.status = b.status;
        this.clock = b.clock;
        this.throttled = b.throttled;
        this.warmupNs = b.warmupNs;
        this.intervalNs = b.intervalNs;
        this.operationLimit = b.operationLimit;
        this.totalStatus = new long[ops.length * io.loadgen.core.driver.Status.count()];
        this.intervalStatus = new long[totalStatus.length];
        this.statusByOp = new Histogram[ops.length];
        this.statusTags = new String[ops.length];
        for (int o = 0; o < ops.length; o++) {
            statusByOp[o] = StatusTags.newHistogram();
            statusTags[o] = StatusTags.tag(ops[o]);
        }
        this.tags = new String[ops.length][SERIES];
        this.interval = new Histogram[ops.length][SERIES];
        this.total = new Histogram[ops.length][SERIES];
        for (int o = 0; o < ops.length; o++) {
            for (int v = 0; v < RECORDED.length; v++) {
                tags[o][v] = RECORDED[v].tag(ops[o]);
                tags[o][FAILED + v] = RECORDED[v].failedTag(ops[o]);
            }
            for (int s = 0; s < SERIES; s++) {
                interval[o][s] = Histograms.newHistogram();
                total[o][s] = Histograms.newHistogram();
            }
        }
        this.measuring = b.warmupNs == 0;
        this.listener = b.listener;
        Map<String, Histogram> byTag = new LinkedHashMap<>();
        for (int o = 0; o < ops.length; o++) {
            for (int s = 0; s < SERIES; s++) {
                byTag.put(tags[o][s], interval[o][s]);
            }
        }
        if (throttled) {
            byTag.put("harness.lag", intervalLag);
        }
        if (health != null && health.measuresHiccups()) {
            byTag.put(HarnessHealth.HICCUP_TAG, health.intervalHiccups());
        }
        for (int o = 0; o < ops.length; o++) {
            byTag.put(statusTags[o], statusByOp[o]);
        }
        this.intervalByTag = Collections.unmodifiableMap(byTag);
    }

    /** Sets the run's start (both clocks) and end (timed: a duration's), just before the thread starts (which publishes them). */
    IntervalSampler arm(long t0Ns, long t0Ms, long endNs, boolean timed) {
        this.t0Ns = t0Ns;
        this.t0Ms = t0Ms;
        this.endNs = endNs;
        this.timed = timed;
        this.measureStartNs = t0Ns + warmupNs;
        this.lastNs = t0Ns;
        this.measuredFromNs = t0Ns;
        return this;
    }

    @Override
    public void run() {
        try {
            long nextNs = t0Ns + intervalNs;
            while (true) {
                long boundaryNs = !measuring && measureStartNs - nextNs < 0 ? measureStartNs : nextNs;
                long waitNs = Math.max(0, boundaryNs - clock.nanoTime());
                if (workersDone.await(waitNs, TimeUnit.NANOSECONDS)) {
                    break;
                }
                long nowNs = clock.nanoTime();
                sample(nowNs);
                if (!measuring && nowNs - measureStartNs >= 0) {
                    startMeasuring(nowNs);
                }
                while (nextNs - nowNs <= 0) {
                    nextNs += intervalNs;
                }
            }
            sample(clock.nanoTime());
        } catch (Throwable t) {
            failure = t;
            LOG.error("interval sampler failed; the run's totals are incomplete", t);
        }
    }

    private void sample(long nowNs) {
        long startMs = toEpochMs(lastNs);
        long endMs = toEpochMs(nowNs);
        long intervalOps = 0;
        java.util.Arrays.fill(intervalStatus, 0);
        for (WorkerRecorders r : recorders) {
            r.flip();
            r.addStatusTo(intervalStatus);
        }
        for (int i = 0; i < intervalStatus.length; i++) {
            totalStatus[i] += intervalStatus[i];
        }
        if (events != null) {
            events.drain(eventSink); // before the interval they ended in, so a reader has them with its lines
        }
        for (int o = 0; o < ops.length; o++) {
            for (int s = 0; s < SERIES; s++) {
                drain(o, s);
                emit(interval[o][s], tags[o][s], startMs, endMs, total[o][s]);
            }
            intervalOps += interval[o][1].getTotalCount() + interval[o][FAILED + 1].getTotalCount();
        }
        if (throttled) {
            intervalLag.reset();
            for (WorkerRecorders r : recorders) {
                r.addLagTo(intervalLag);
            }
            emit(intervalLag, "harness.lag", startMs, endMs, totalLag);
        }
        if (health != null) { // harness health: hiccups to the log (it keeps its own totals), workers' time
            health.sample();
            if (health.measuresHiccups()) {
                emit(health.intervalHiccups(), HarnessHealth.HICCUP_TAG, startMs, endMs, null);
            }
        }
        for (int o = 0; o < ops.length; o++) {
            StatusTags.fill(statusByOp[o], intervalStatus, o);
            emit(statusByOp[o], statusTags[o], startMs, endMs, null); // totals are kept as counts (totalStatus)
        }
        if (log != null && !logFailed && !log.flush()) {
            logFailed = true; // said once; the run goes on and reports it at the end
            LOG.error("the interval log could not be written at {} s ({}); the run goes on and its summary is"
                    + " complete, but the log ends here", String.format(Locale.ROOT, "%.1f",
                    (endMs - t0Ms) / 1000.0), OutputFailures.reason(log.failure()));
        }
        totalOps += intervalOps;
        measuredToNs = nowNs;
        tellListener(startMs, endMs);
        printStatus(nowNs, endMs, intervalOps);
        reportErrors();
        lastNs = nowNs;
    }

    /**
     * Sums every recorder's last interval of one series into {@code interval[o][s]}. Failed series are
     * written every interval, empty or not, so every log has the same tags throughout: HistogramLogProcessor
     * can be asked for {@code -tag READ.failed.intended} of any run, and a log without the tags is one from
     * before failures were kept apart.
     */
    private void drain(int o, int s) {
        Histogram h = interval[o][s];
        h.reset();
        View view = RECORDED[s % FAILED];
        for (WorkerRecorders r : recorders) {
            if (s < FAILED) {
                r.addTo(o, view, h);
            } else {
                r.addFailedTo(o, view, h);
            }
        }
    }

    private void tellListener(long startMs, long endMs) {
        if (listener == null) {
            return;
        }
        try {
            listener.onInterval(new IntervalHistograms(t0Ms, startMs, endMs, measuring, intervalByTag));
        } catch (RuntimeException e) {
            LOG.error("interval listener failed; it is not called again", e);
            listener = null;
        }
    }

    private void emit(Histogram h, String tag, long startMs, long endMs, Histogram totalTarget) {
        h.setTag(tag); // set each time: Histogram.reset() clears the tag
        h.setStartTimeStamp(startMs);
        h.setEndTimeStamp(endMs);
        if (log != null) {
            log.write(h);
        }
        if (totalTarget != null) {
            totalTarget.add(h);
        }
    }

    /**
     * The warm-up is over: forget the totals so far (they stay in the interval log). A run that ends
     * during its warm-up never gets here, and reports what it measured rather than nothing.
     */
    private void startMeasuring(long nowNs) {
        for (Histogram[] byView : total) {
            for (Histogram h : byView) {
                h.reset();
            }
        }
        totalLag.reset();
        if (health != null) {
            health.startMeasuring();
        }
        java.util.Arrays.fill(totalStatus, 0);
        measuring = true;
        measuredFromNs = nowNs;
    }

    private void printStatus(long nowNs, long nowMs, long intervalOps) {
        if (status == null) {
            return;
        }
        double seconds = Math.max(1, nowNs - lastNs) / 1e9;
        double rate = intervalOps / seconds;
        line.begin(nowMs, (nowNs - t0Ns) / 1_000_000, totalOps, rate, remainingSec(nowNs, rate));
        for (int o = 0; o < ops.length; o++) {
            line.histogram(View.SERVICE, ops[o], interval[o][1]);
            line.histogram(View.INTENDED, ops[o], interval[o][0]);
        }
        for (int o = 0; o < ops.length; o++) {
            line.returns(ops[o], intervalStatus, o * io.loadgen.core.driver.Status.count());
        }
        long behindNs = throttled ? position.behindNs(nowNs) : 0;
        if (behindNs >= BEHIND_REPORT_NS) {
            line.behind(behindNs);
        }
        String harness = health == null ? null : health.statusNote(nowNs - lastNs, throttled);
        if (harness != null) {
            line.harness(harness);
        }
        status.println(line);
        status.flush();
    }

    private long remainingSec(long nowNs, double rate) {
        if (timed) {
            return Math.max(0, (endNs - nowNs) / 1_000_000_000L);
        }
        if (operationLimit > 0 && rate > 0) {
            return (long) (Math.max(0, operationLimit - totalOps) / rate);
        }
        return -1;
    }

    private void reportErrors() {
        long errors = 0;
        Throwable last = null;
        for (LoadThread w : workers) {
            errors += w.errorCount();
            Throwable t = w.lastError();
            if (t != null) {
                last = t;
            }
        }
        if (errors > reportedErrors) {
            LOG.warn("the driver threw {} exception(s) in the last interval (counted as ERROR); last: {}",
                    errors - reportedErrors, Secrets.redact(String.valueOf(last)));
            LOG.debug("last driver exception", last);
            reportedErrors = errors;
        }
    }

    private long toEpochMs(long ns) {
        return t0Ms + Math.floorDiv(ns - t0Ns, 1_000_000L);
    }

    /** The successes' total of one view (intended or service). */
    Histogram total(int op, View view) {
        return total[op][view == View.INTENDED ? 0 : 1];
    }

    /** The failures' total of one view (intended or service). */
    Histogram failedTotal(int op, View view) {
        return total[op][FAILED + (view == View.INTENDED ? 0 : 1)];
    }

    /** Status counts over the measured time, by {@code type * Status.count() + status}. */
    long[] totalStatus() {
        return totalStatus;
    }

    Histogram totalLag() {
        return totalLag;
    }

    /** Measured time: from the end of the warm-up (or the start, if it never ended) to the last sample. */
    long measuredNs() {
        return Math.max(0, measuredToNs - measuredFromNs);
    }

    Throwable failure() {
        return failure;
    }

    /** Collects the sampler's collaborators; main thread. */
    static final class Builder {
        String[] ops;
        WorkerRecorders[] recorders;
        LoadThread[] workers;
        SchedulePosition position;
        CountDownLatch workersDone;
        IntervalLog log;
        RunEvents events;
        PrintStream status;
        NanoClock clock;
        boolean throttled;
        long warmupNs;
        long intervalNs;
        long operationLimit;
        IntervalListener listener;
        HarnessHealth health;
    }
}
