package io.loadgen.core.run;

import io.loadgen.core.driver.RunEvents;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.record.View;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.RateControl;
import io.loadgen.core.schedule.RateProfile;
import io.loadgen.core.time.NanoClock;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The run's only reader of the workers' recorders: every interval it drains them into one read-only
 * {@link IntervalSnapshot} and hands that to each {@link IntervalSink} in turn (the interval log, the
 * totals, live gates, the status line, the driver-error report, and whatever else is added). Runs on its
 * own thread ({@link #run()}), so no I/O ever happens on a worker.
 *
 * <p>Intervals end every {@code --interval} from t0, at the end of the warm-up (so no interval straddles
 * it), and when the workers are done (the last one, usually partial). Histograms are preallocated once and
 * refilled each interval; the snapshot is valid while the sinks run, see {@link IntervalSnapshot}. Time
 * comes from the run's {@link NanoClock}: on a manual clock the aggregator samples when the clock reaches
 * a boundary ({@link NanoClock#realWaitNs} bounds each wait), so tests fix every interval exactly.
 */
final class IntervalAggregator implements Runnable {
    private static final Logger LOG = LogManager.getLogger(IntervalAggregator.class);
    private static final Map<String, Number> NO_COUNTERS = Map.of();

    private final WorkerRecorders[] recorders;
    private final SchedulePosition position;
    private final CountDownLatch workersDone;
    private final RunEvents events;
    private final NanoClock clock;
    private final boolean throttled;
    private final long warmupNs;
    private final long intervalNs;
    private final RateProfile profile;
    private final long countSpanNs;
    private final java.util.function.BooleanSupplier stopped;
    private final RateControl rateControl;
    private final Supplier<Map<String, Number>> driverCounters;
    private final List<IntervalSink> sinks;

    private final OpSeries[] ops;
    private final List<IntervalSnapshot.Op> opViews;
    private final SealedHistogram lag;
    /** The harness's own delay of the interval's operations (not logged: the log keeps {@code harness.lag}). */
    private final SealedHistogram harnessDelay;
    /** The successes' intended latency less the harness's delay of each, all types together (not logged). */
    private final SealedHistogram undelayed;
    private final TaggedSeries[] extra;
    private final SealedHistogram[] extraHistograms;
    private final long[] statusCounts;
    private final Map<String, Histogram> byTag;

    private long t0Ns;
    private long t0Ms;
    private long measureStartNs;
    private long lastNs;
    private boolean measuring;
    private volatile Throwable failure;

    /** One operation type's histograms of the current interval, in the aggregator's hands. */
    private static final class OpSeries {
        final String name;
        final SealedHistogram intended;
        final SealedHistogram service;
        final SealedHistogram failedIntended;
        final SealedHistogram failedService;
        final SealedHistogram status;
        final long[] statusCounts = new long[Status.count()];

        OpSeries(String name, Histogram latencyShape, Histogram statusShape) {
            this.name = name;
            this.intended = new SealedHistogram(latencyShape);
            this.service = new SealedHistogram(latencyShape);
            this.failedIntended = new SealedHistogram(latencyShape);
            this.failedService = new SealedHistogram(latencyShape);
            this.status = new SealedHistogram(statusShape);
        }
    }

    IntervalAggregator(Builder b) {
        this.recorders = b.recorders;
        this.position = b.position;
        this.workersDone = b.workersDone;
        this.events = b.events;
        this.clock = b.clock;
        this.throttled = b.throttled;
        this.warmupNs = b.warmupNs;
        this.intervalNs = b.intervalNs;
        this.profile = b.profile;
        this.countSpanNs = b.countSpanNs;
        this.stopped = b.stopped;
        this.rateControl = b.rateControl;
        this.driverCounters = b.driverCounters;
        this.sinks = List.copyOf(b.sinks);
        Histogram latencyShape = Histograms.newHistogram();
        Histogram statusShape = StatusTags.newHistogram();
        this.ops = new OpSeries[b.ops.length];
        List<IntervalSnapshot.Op> views = new ArrayList<>();
        for (int o = 0; o < ops.length; o++) {
            OpSeries s = new OpSeries(b.ops[o], latencyShape, statusShape);
            ops[o] = s;
            views.add(new IntervalSnapshot.Op(s.name, s.intended, s.service, s.failedIntended, s.failedService,
                    s.statusCounts));
        }
        this.opViews = List.copyOf(views);
        this.lag = new SealedHistogram(latencyShape);
        this.harnessDelay = new SealedHistogram(latencyShape);
        this.undelayed = new SealedHistogram(latencyShape);
        this.extra = b.series.toArray(new TaggedSeries[0]);
        this.extraHistograms = new SealedHistogram[extra.length];
        for (int i = 0; i < extra.length; i++) {
            extraHistograms[i] = new SealedHistogram(latencyShape);
        }
        this.statusCounts = new long[ops.length * Status.count()];
        this.byTag = Collections.unmodifiableMap(tagOrder());
        this.measuring = b.warmupNs == 0;
    }

    /** The interval log's order: each type's four latency series, the harness's series, each type's statuses. */
    private Map<String, Histogram> tagOrder() {
        Map<String, Histogram> order = new LinkedHashMap<>();
        for (OpSeries s : ops) {
            order.put(View.INTENDED.tag(s.name), s.intended);
            order.put(View.SERVICE.tag(s.name), s.service);
            order.put(View.INTENDED.failedTag(s.name), s.failedIntended);
            order.put(View.SERVICE.failedTag(s.name), s.failedService);
        }
        if (throttled) {
            order.put("harness.lag", lag);
        }
        for (int i = 0; i < extra.length; i++) {
            order.put(extra[i].tag(), extraHistograms[i]);
        }
        for (OpSeries s : ops) {
            order.put(StatusTags.tag(s.name), s.status);
        }
        return order;
    }

    /** Sets the run's start on both clocks, just before the thread starts (which publishes it). */
    IntervalAggregator arm(long t0Ns, long t0Ms) {
        this.t0Ns = t0Ns;
        this.t0Ms = t0Ms;
        this.measureStartNs = t0Ns + warmupNs;
        this.lastNs = t0Ns;
        return this;
    }

    @Override
    public void run() {
        try {
            long nextNs = t0Ns + intervalNs;
            while (true) {
                long boundaryNs = !measuring && measureStartNs - nextNs < 0 ? measureStartNs : nextNs;
                long nowNs = clock.nanoTime();
                if (boundaryNs - nowNs > 0) {
                    if (workersDone.await(clock.realWaitNs(boundaryNs - nowNs), TimeUnit.NANOSECONDS)) {
                        break;
                    }
                    continue; // read the clock again: a manual clock may not have reached the boundary
                }
                if (workersDone.getCount() == 0) {
                    break;
                }
                sample(nowNs, false);
                if (!measuring && nowNs - measureStartNs >= 0) {
                    measuring = true; // the warm-up is over: the next interval is the first measured one
                }
                while (nextNs - nowNs <= 0) {
                    nextNs += intervalNs;
                }
            }
            sample(endNs(clock.nanoTime()), true);
            for (IntervalSink sink : sinks) {
                sink.onEnd();
            }
        } catch (Throwable t) {
            failure = t;
            LOG.error("interval aggregator failed; the run's totals are incomplete", t);
        }
    }

    /**
     * Where the run ends, its last interval with it: now, or, for a run that reached its count at a fixed rate, the end
     * of the time its schedule gives those operations ({@code n / rate} from the start) when that is later. The last
     * operation is due up to one schedule interval before that end and may complete well before it; ending at the
     * last completion made 3 operations at 1/s read 1.39/s (issue 24 item 6), and n operations at rate r now read r.
     * A stopped run ends now.
     */
    private long endNs(long nowNs) {
        if (countSpanNs <= 0 || stopped.getAsBoolean() || (rateControl != null && rateControl.changed())) {
            return nowNs;
        }
        long scheduleEndNs = t0Ns + countSpanNs;
        return scheduleEndNs - nowNs > 0 ? scheduleEndNs : nowNs;
    }

    /** Closes the interval that ends at {@code nowNs}: drains it, then hands the snapshot to every sink. */
    private void sample(long nowNs, boolean last) {
        long startMs = toEpochMs(lastNs);
        long endMs = toEpochMs(nowNs);
        Arrays.fill(statusCounts, 0);
        for (WorkerRecorders r : recorders) {
            r.flip();
            r.addStatusTo(statusCounts);
        }
        for (int o = 0; o < ops.length; o++) {
            drain(o, startMs, endMs);
        }
        if (throttled) {
            lag.unseal().reset();
            for (WorkerRecorders r : recorders) {
                r.addLagTo(lag);
            }
            seal(lag, "harness.lag", startMs, endMs);
            harnessDelay.unseal().reset();
            for (WorkerRecorders r : recorders) {
                r.addHarnessDelayTo(harnessDelay);
            }
            seal(harnessDelay, "harness.delay", startMs, endMs);
            undelayed.unseal().reset();
            for (WorkerRecorders r : recorders) {
                r.addUndelayedTo(undelayed);
            }
            seal(undelayed, "harness.undelayed", startMs, endMs);
        }
        for (int i = 0; i < extra.length; i++) {
            extraHistograms[i].unseal().reset();
            extra[i].addIntervalTo(extraHistograms[i]);
            seal(extraHistograms[i], extra[i].tag(), startMs, endMs);
        }
        for (int o = 0; o < ops.length; o++) {
            OpSeries s = ops[o];
            StatusTags.fill(s.status.unseal(), statusCounts, o); // resets it first
            seal(s.status, StatusTags.tag(s.name), startMs, endMs);
        }
        IntervalSnapshot snapshot = snapshot(nowNs, startMs, endMs, last);
        for (IntervalSink sink : sinks) {
            sink.onInterval(snapshot);
        }
        lastNs = nowNs;
    }

    /**
     * Sums every recorder's last interval of one type into its four series. Failed series are filled every
     * interval, empty or not, so every log has the same tags throughout: HistogramLogProcessor can be asked
     * for {@code -tag READ.failed.intended} of any run, and a log without the tags is one from before
     * failures were kept apart.
     */
    private void drain(int o, long startMs, long endMs) {
        OpSeries s = ops[o];
        s.intended.unseal().reset();
        s.service.unseal().reset();
        s.failedIntended.unseal().reset();
        s.failedService.unseal().reset();
        for (WorkerRecorders r : recorders) {
            r.addTo(o, View.INTENDED, s.intended);
            r.addTo(o, View.SERVICE, s.service);
            r.addFailedTo(o, View.INTENDED, s.failedIntended);
            r.addFailedTo(o, View.SERVICE, s.failedService);
        }
        System.arraycopy(statusCounts, o * Status.count(), s.statusCounts, 0, Status.count());
        seal(s.intended, View.INTENDED.tag(s.name), startMs, endMs);
        seal(s.service, View.SERVICE.tag(s.name), startMs, endMs);
        seal(s.failedIntended, View.INTENDED.failedTag(s.name), startMs, endMs);
        seal(s.failedService, View.SERVICE.failedTag(s.name), startMs, endMs);
    }

    /**
     * Sets the tag (each time: {@link Histogram#reset()} clears it) and the interval's timestamps of a
     * filled histogram, and makes it read-only for the sinks.
     */
    private static void seal(SealedHistogram h, String tag, long startMs, long endMs) {
        h.setTag(tag);
        h.setStartTimeStamp(startMs);
        h.setEndTimeStamp(endMs);
        h.seal();
    }

    private IntervalSnapshot snapshot(long nowNs, long startMs, long endMs, boolean last) {
        IntervalSnapshot.Builder b = new IntervalSnapshot.Builder();
        b.runStartNs = t0Ns;
        b.runStartMs = t0Ms;
        b.startNs = lastNs;
        b.endNs = nowNs;
        b.startMs = startMs;
        b.endMs = endMs;
        b.intervalNs = intervalNs;
        b.measured = measuring;
        b.last = last;
        b.phase = phaseOf(nowNs);
        b.targetOpsPerSec = b.phase != null ? b.phase.targetOpsPerSec()
                : rateControl != null ? rateControl.targetAt(lastNs + (nowNs - lastNs) / 2) : 0;
        b.behindNs = throttled ? position.behindNs(nowNs) : 0;
        b.operations = opViews;
        b.lag = throttled ? lag : null;
        b.harnessDelay = throttled ? harnessDelay : null;
        b.undelayed = throttled ? undelayed : null;
        b.byTag = byTag;
        b.events = drainEvents(nowNs);
        b.driverCounters = driverCounters == null ? NO_COUNTERS : driverCounters.get();
        return new IntervalSnapshot(b);
    }

    /** The events published since the last interval; no allocation when there are none (the usual case). */
    private List<IntervalSnapshot.Event> drainEvents(long nowNs) {
        List<IntervalSnapshot.Event> drained = new ArrayList<>(0);
        if (events != null) {
            events.drain((kind, source, startEpochMs, lengthNs) ->
                    drained.add(new IntervalSnapshot.Event(kind, source, startEpochMs, lengthNs)));
        }
        if (rateControl != null) {
            for (RateControl.Change c : rateControl.drainSwitched(nowNs)) {
                drained.add(new IntervalSnapshot.Event(IntervalSnapshot.Event.RATE_CHANGE, c.source(),
                        toEpochMs(c.atNs()), 0, c.opsPerSec()));
            }
        }
        return drained.isEmpty() ? List.of() : Collections.unmodifiableList(drained);
    }

    /**
     * In a phased run, the phase at the middle of the interval ending at {@code nowNs} (the last one from its
     * end on) and the target there, which within a ramp is the mean target over the interval: what the
     * interval's rate is to be compared with. Else null.
     */
    private IntervalSnapshot.Phase phaseOf(long nowNs) {
        if (profile == null) {
            return null;
        }
        long middleNs = Math.max(0, (lastNs - t0Ns) + (nowNs - lastNs) / 2);
        int i = profile.segmentAt(middleNs);
        RateProfile.Segment s = profile.segments().get(i);
        return new IntervalSnapshot.Phase(s.name() != null ? s.name() : "phase " + (i + 1), profile.rateAt(middleNs));
    }

    private long toEpochMs(long ns) {
        return t0Ms + Math.floorDiv(ns - t0Ns, 1_000_000L);
    }

    /** The last interval's end, epoch ms (the run's start before any): read after the thread ended. */
    long lastEndMs() {
        return toEpochMs(lastNs);
    }

    /** Why the aggregator stopped early (a sink threw), or null. After the thread ended. */
    Throwable failure() {
        return failure;
    }

    /** Collects the aggregator's collaborators; main thread. */
    static final class Builder {
        String[] ops;
        WorkerRecorders[] recorders;
        SchedulePosition position;
        CountDownLatch workersDone;
        RunEvents events;
        NanoClock clock;
        boolean throttled;
        long warmupNs;
        long intervalNs;
        /** A phased run's rates, or null. */
        RateProfile profile;
        /** For a count-bounded run at a fixed rate, the time its schedule gives the count (n / rate, ns); else 0. */
        long countSpanNs;
        /** Whether the run was stopped (then it ends when it ends, not at its schedule's end). */
        java.util.function.BooleanSupplier stopped = () -> false;
        /** What changes the rate while the run goes on (its switches become events), or null when nothing can. */
        RateControl rateControl;
        /** The driver's live counters, read once per interval; null for none. */
        Supplier<Map<String, Number>> driverCounters;
        /** Further tagged histograms (e.g. {@code harness.hiccup}), in log order after {@code harness.lag}. */
        final List<TaggedSeries> series = new ArrayList<>();
        /** Called in this order with every snapshot. */
        final List<IntervalSink> sinks = new ArrayList<>();
    }
}
