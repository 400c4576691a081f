package io.loadgen.core.run;

import io.loadgen.core.driver.Status;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Map;

/**
 * One closed interval of a run, as every {@link IntervalSink} sees it: per operation type the intended
 * and service histograms of its successes and of its failures and how many operations ended with each
 * status; the harness's lag (throttled runs); any further harness series by tag; the pauses that ended
 * in it; its start and end; whether it is measured or warm-up; the phase, in a phased run; and the
 * driver's live counters. Made by the interval aggregator thread, which calls the sinks one after
 * another on that thread.
 *
 * <p><b>Valid during the call only.</b> The aggregator reuses its histograms and status counts for the
 * next interval, so the run allocates no histogram per interval: read them during
 * {@link IntervalSink#onInterval}, or {@link Histogram#copy()} what must outlive it. <b>Read-only.</b>
 * Every histogram here is sealed while the sinks run (a mutator such as {@code reset()} or {@code add()}
 * into it throws {@link UnsupportedOperationException}), and the collections are unmodifiable, so no
 * sink can change what the next one reads. Values are nanoseconds, except in the {@code OP.status}
 * histograms of {@link #byTag()}, which count operations by status ordinal ({@code StatusTags}).
 */
public final class IntervalSnapshot {
    private final long runStartNs;
    private final long runStartMs;
    private final long startNs;
    private final long endNs;
    private final long startMs;
    private final long endMs;
    private final long intervalNs;
    private final boolean measured;
    private final boolean last;
    private final Phase phase;
    private final double targetOpsPerSec;
    private final long behindNs;
    private final List<Op> operations;
    private final Histogram lag;
    private final Histogram harnessDelay;
    private final Histogram undelayed;
    private final Map<String, Histogram> byTag;
    private final List<Event> events;
    private final Map<String, Number> driverCounters;

    IntervalSnapshot(Builder b) {
        this.runStartNs = b.runStartNs;
        this.runStartMs = b.runStartMs;
        this.startNs = b.startNs;
        this.endNs = b.endNs;
        this.startMs = b.startMs;
        this.endMs = b.endMs;
        this.intervalNs = b.intervalNs;
        this.measured = b.measured;
        this.last = b.last;
        this.phase = b.phase;
        this.targetOpsPerSec = b.targetOpsPerSec;
        this.behindNs = b.behindNs;
        this.operations = b.operations;
        this.lag = b.lag;
        this.harnessDelay = b.harnessDelay;
        this.undelayed = b.undelayed;
        this.byTag = b.byTag;
        this.events = b.events;
        this.driverCounters = b.driverCounters;
    }

    /** The run's start, t0, on the run's clock (ns). */
    public long runStartNs() {
        return runStartNs;
    }

    /** The run's start, epoch ms: the interval log's StartTime. */
    public long runStartMs() {
        return runStartMs;
    }

    /** Where this interval starts, on the run's clock (ns): the previous interval's end, or t0. */
    public long startNs() {
        return startNs;
    }

    /** Where this interval ends, on the run's clock (ns): when its recorders were drained. */
    public long endNs() {
        return endNs;
    }

    /** {@link #startNs()} as epoch ms, as the interval log writes it. */
    public long startMs() {
        return startMs;
    }

    /** {@link #endNs()} as epoch ms, as the interval log writes it. */
    public long endMs() {
        return endMs;
    }

    /** {@code endNs - startNs}. */
    public long lengthNs() {
        return endNs - startNs;
    }

    /** The run's {@code --interval}: how long a full interval is. */
    public long intervalNs() {
        return intervalNs;
    }

    /** False during the warm-up: the interval is logged but left out of the summary. */
    public boolean measured() {
        return measured;
    }

    /** True for the run's final interval, the one its end cut off. */
    public boolean last() {
        return last;
    }

    /**
     * True for a final interval shorter than {@link #intervalNs()}: the run ended part way through it, so
     * a rate over it (a few operations of threads that were finishing, over a fraction of a second) says
     * nothing about the run's throughput.
     */
    public boolean partial() {
        return last && lengthNs() < intervalNs;
    }

    /** The phase the interval belongs to (the one at its middle), in a phased run; else null. */
    public Phase phase() {
        return phase;
    }

    /**
     * The target rate in force at the interval's middle, total over all threads, ops/s: a phased run's (as
     * {@link #phase()}), or a run's whose rate may change while it goes on; 0 for an unthrottled run (and for a
     * fixed-rate step of findmax or sweep, whose target is the step's).
     */
    public double targetOpsPerSec() {
        return targetOpsPerSec;
    }

    /** How long the most overdue operation had been due when the interval ended (0: on time, or unthrottled). */
    public long behindNs() {
        return behindNs;
    }

    /** Per operation type, in the run's order. */
    public List<Op> operations() {
        return operations;
    }

    /** {@code harness.lag}, the scheduler's own delay of this interval's operations; null when unthrottled. */
    public Histogram lag() {
        return lag;
    }

    /**
     * The harness's own delay of this interval's operations (throttled runs; else null): each one's lag, or
     * what the harness's delays of the operations before it carried over through a backlog if larger
     * ({@code LoadThread.harnessDelay}). How much of each operation's latency the load generator itself,
     * not the target, may have caused. Not in the interval log.
     */
    public Histogram harnessDelay() {
        return harnessDelay;
    }

    /**
     * This interval's successes, every type together: their intended latency less the harness's own delay of
     * each ({@link #harnessDelay()}), i.e. what the target alone would have given them. Intended minus this, at
     * a percentile, is how much of that percentile the harness may have caused. Throttled runs; else null. Not
     * in the interval log.
     */
    public Histogram undelayed() {
        return undelayed;
    }

    /**
     * Every histogram of the interval by its interval-log tag, in the log's order: per type
     * {@code OP.intended}, {@code OP.service}, {@code OP.failed.intended}, {@code OP.failed.service}; then
     * {@code harness.lag} (throttled) and any further harness series; then per type {@code OP.status}.
     */
    public Map<String, Histogram> byTag() {
        return byTag;
    }

    /** Pauses (the driver's, the harness's GC) reported since the previous interval, in the order recorded. */
    public List<Event> events() {
        return events;
    }

    /** The driver's live counters at the interval's end ({@code Driver.liveStats()}), totals since the run began. */
    public Map<String, Number> driverCounters() {
        return driverCounters;
    }

    /** One operation type's share of an interval. */
    public static final class Op {
        private final String name;
        private final Histogram intended;
        private final Histogram service;
        private final Histogram failedIntended;
        private final Histogram failedService;
        /** This type's status counts by ordinal; rewritten by the aggregator each interval. */
        private final long[] statusCounts;

        Op(String name, Histogram intended, Histogram service, Histogram failedIntended, Histogram failedService,
           long[] statusCounts) {
            this.name = name;
            this.intended = intended;
            this.service = service;
            this.failedIntended = failedIntended;
            this.failedService = failedService;
            this.statusCounts = statusCounts;
        }

        public String name() {
            return name;
        }

        /** Successes, from the intended start. */
        public Histogram intended() {
            return intended;
        }

        /** Successes, from the actual start. */
        public Histogram service() {
            return service;
        }

        /** Failures (any status but OK), from the intended start. */
        public Histogram failedIntended() {
            return failedIntended;
        }

        /** Failures, from the actual start. */
        public Histogram failedService() {
            return failedService;
        }

        /** How many operations of this type ended with {@code status} in the interval. */
        public long statusCount(Status status) {
            return statusCounts[status.ordinal()];
        }

        /** Operations of this type that completed in the interval, whatever their status. */
        public long operations() {
            return service.getTotalCount() + failedService.getTotalCount();
        }

        /** Operations of this type that did not end OK. */
        public long failures() {
            return failedService.getTotalCount();
        }
    }

    /**
     * Where a phased run is: the phase at the interval's middle and the target rate there (total over all
     * threads, ops/s), which within a ramp is the mean target over the interval.
     */
    public record Phase(String name, double targetOpsPerSec) {
    }

    /**
     * A pause that ended in the interval (see {@code RunEvents}): what, who saw it, when, how long; or a change of
     * the target rate that switched in it (kind {@link #RATE_CHANGE}, length 0, the new rate in
     * {@code rateOpsPerSec}, NaN for other events).
     */
    public record Event(String kind, String source, long startEpochMs, long lengthNs, double rateOpsPerSec) {
        /** The kind of a target rate change. */
        public static final String RATE_CHANGE = "rate-change";

        /** A pause: no rate. */
        public Event(String kind, String source, long startEpochMs, long lengthNs) {
            this(kind, source, startEpochMs, lengthNs, Double.NaN);
        }
    }

    /** The aggregator's parts of one snapshot. */
    static final class Builder {
        long runStartNs;
        long runStartMs;
        long startNs;
        long endNs;
        long startMs;
        long endMs;
        long intervalNs;
        boolean measured;
        boolean last;
        Phase phase;
        double targetOpsPerSec;
        long behindNs;
        List<Op> operations;
        Histogram lag;
        Histogram harnessDelay;
        Histogram undelayed;
        Map<String, Histogram> byTag;
        List<Event> events;
        Map<String, Number> driverCounters;
    }
}
