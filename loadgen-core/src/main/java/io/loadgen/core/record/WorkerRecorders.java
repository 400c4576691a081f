package io.loadgen.core.record;

import io.loadgen.core.trace.TraceRing;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.WriterReaderPhaser;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One worker's (or issuer's) latency recorders: a histogram per operation type, outcome and view, plus
 * the scheduler's lag, double-buffered behind one HdrHistogram {@link WriterReaderPhaser} exactly as
 * HdrHistogram's {@code Recorder} does for one histogram. One operation's intended, service and lag
 * values are recorded in one critical section, so an interval flip can never split them: every
 * interval, and so every total, counts the same operations in every view.
 *
 * <p>An operation that returned {@link io.loadgen.core.driver.Status#OK} is recorded in its type's
 * success series; any other status (ERROR, NOT_FOUND, a timeout...) in its type's <em>failed</em>
 * series ({@code OP.failed.intended}, {@code OP.failed.service}; YCSB's {@code READ-FAILED}), never
 * both, so instant connection errors cannot make the success percentiles look better. The lag is one
 * series for every operation, whatever its outcome.
 *
 * <p>Writers: a blocking worker records on its own thread (plain {@link Histogram}s); an async issuer's
 * completions record from I/O threads ({@link AtomicHistogram}s, safe for concurrent writers). Either
 * way recording is wait-free and allocates nothing. Reader: only the interval sampler thread, through
 * {@link #flip()} and then {@link #addTo} / {@link #addFailedTo} / {@link #addLagTo}.
 */
public final class WorkerRecorders {
    /** Marks an operation without a schedule: there is no lag to record. */
    public static final long NO_LAG = -1;
    /** Histograms per operation type: success intended, success service, failed intended, failed service. */
    private static final int PER_OP = 4;
    private static final int OK = io.loadgen.core.driver.Status.OK.ordinal();
    private static final long HISTOGRAM_BYTES = new Histogram(Histograms.LOWEST_NS, Histograms.HIGHEST_NS,
            Histograms.SIGNIFICANT_DIGITS).getEstimatedFootprintInBytes();

    private final WriterReaderPhaser phaser = new WriterReaderPhaser();
    private final int opTypes;
    private final int statuses = io.loadgen.core.driver.Status.count();
    /**
     * Whether operations complete on more than one thread. With one writer the status count is a plain
     * read and write of its slot rather than a locked increment: the phaser's exit publishes it to the
     * reader as it does the plain histograms' counts, and no other thread can race the increment.
     */
    private final boolean multiWriter;
    /**
     * Whether every operation's intended start is its actual start (a run without a schedule): then the two
     * views hold the same values, so only the intended series is recorded and read for both, one histogram
     * update per operation fewer.
     */
    private final boolean startIsIntended;
    /** Where each operation is also offered for {@code --trace}, or null: one predictable branch when tracing is off. */
    private final TraceRing trace;
    /** The writers' buffer: histograms and status counts swapped as one reference, so a flip cannot split them. */
    private volatile Buffer active;
    private Buffer inactive;

    /**
     * One interval's histograms and status counts (by {@code type * statuses + status}). Swapping both in
     * one volatile write matters: with two, a writer could read the old status array and the new histograms
     * between the reader's two swaps, counting its status in one interval and its latencies in the next.
     */
    private static final class Buffer {
        final Histogram[] histograms;
        final AtomicLongArray status;

        Buffer(Histogram[] histograms, AtomicLongArray status) {
            this.histograms = histograms;
            this.status = status;
        }
    }

    /** Recorders for one blocking worker: written by its thread only. */
    public WorkerRecorders(int opTypes) {
        this(opTypes, false);
    }

    /** @param multiWriter true when operations complete on threads other than the one issuing them */
    public WorkerRecorders(int opTypes, boolean multiWriter) {
        this(opTypes, multiWriter, false, null);
    }

    /**
     * @param trace where every recorded operation is also offered for the per-operation trace (after its
     *              histograms, outside the critical section), or null for none; it must take rows from
     *              several threads when {@code multiWriter} is true
     */
    public WorkerRecorders(int opTypes, boolean multiWriter, TraceRing trace) {
        this(opTypes, multiWriter, false, trace);
    }

    /**
     * @param multiWriter     true when operations complete on threads other than the one issuing them
     * @param startIsIntended true when every operation will be recorded with its actual start as its intended
     *                        start (an unthrottled run): the service view is then read from the intended one
     * @param trace           where every recorded operation is also offered for the per-operation trace, or null
     */
    public WorkerRecorders(int opTypes, boolean multiWriter, boolean startIsIntended, TraceRing trace) {
        this.opTypes = opTypes;
        this.multiWriter = multiWriter;
        this.startIsIntended = startIsIntended;
        this.trace = trace;
        this.active = new Buffer(newSet(opTypes, multiWriter), new AtomicLongArray(opTypes * statuses));
        this.inactive = new Buffer(newSet(opTypes, multiWriter), new AtomicLongArray(opTypes * statuses));
    }

    /**
     * Bytes one worker's recorders take: two buffers (interval flip) of four histograms per operation type
     * (success and failed, intended and service) and three for the harness (lag, its delay, and the successes'
     * intended latency without that delay), each preallocated from 1 ns to 1 h.
     */
    public static long bytesPerThread(int opTypes) {
        return 2 * (4L * opTypes + HARNESS_SERIES) * HISTOGRAM_BYTES;
    }

    /** The harness's series after the operations' in each buffer: lag, its delay, the undelayed successes. */
    private static final int HARNESS_SERIES = 3;

    /**
     * Layout: [4 * op] intended, [4 * op + 1] service, [4 * op + 2] failed intended, [4 * op + 3] failed
     * service, [4 * opTypes] lag, [4 * opTypes + 1] the harness's delay, [4 * opTypes + 2] the successes'
     * intended latency less the harness's delay (all types together).
     */
    private static Histogram[] newSet(int opTypes, boolean multiWriter) {
        Histogram[] set = new Histogram[PER_OP * opTypes + HARNESS_SERIES];
        for (int i = 0; i < set.length; i++) {
            set[i] = multiWriter
                    ? new AtomicHistogram(Histograms.LOWEST_NS, Histograms.HIGHEST_NS, Histograms.SIGNIFICANT_DIGITS)
                    : Histograms.newHistogram();
        }
        return set;
    }

    /**
     * Records one completed operation in every view, in its type's success series when {@code status} is
     * OK and in its failed series otherwise; any writer thread.
     *
     * @param lagNs  the scheduler's own delay for it, or {@link #NO_LAG} when the run has no schedule
     * @param status the ordinal of the {@link io.loadgen.core.driver.Status} it returned; counted in the same
     *               interval as its latencies, so summaries' counts and views always agree
     */
    public void record(int opType, long intendedStartNs, long actualStartNs, long endNs, long lagNs, int status) {
        record(opType, intendedStartNs, actualStartNs, endNs, lagNs, lagNs, status);
    }

    /**
     * As {@link #record(int, long, long, long, long, int)}, with the harness's own delay of the operation apart
     * from its lag: the lag, or what the harness's delays of the operations before it, in a backlog, carried
     * over to it if larger (see {@code LoadThread}); and a success's intended latency less that delay. Recorded,
     * like the lag, only when the run has a schedule.
     *
     * @param delayNs the harness's delay of the operation, or {@link #NO_LAG} when the run has no schedule
     */
    public void record(int opType, long intendedStartNs, long actualStartNs, long endNs, long lagNs, long delayNs,
                       int status) {
        long phase = phaser.writerCriticalSectionEnter();
        try {
            Buffer buffer = active;
            countStatus(buffer.status, opType * statuses + status);
            Histogram[] set = buffer.histograms;
            int at = PER_OP * opType + (status == OK ? 0 : 2);
            set[at].recordValue(Histograms.clamp(endNs - intendedStartNs));
            if (!startIsIntended) {
                set[at + 1].recordValue(Histograms.clamp(endNs - actualStartNs));
            }
            if (lagNs != NO_LAG) {
                set[PER_OP * opTypes].recordValue(Histograms.clamp(lagNs));
                set[PER_OP * opTypes + 1].recordValue(Histograms.clamp(delayNs));
                if (status == OK) {
                    set[PER_OP * opTypes + 2].recordValue(Histograms.clamp(endNs - intendedStartNs - delayNs));
                }
            }
        } finally {
            phaser.writerCriticalSectionExit(phase);
        }
        if (trace != null) {
            trace.offer(opType, status, intendedStartNs, actualStartNs, endNs);
        }
    }

    private void countStatus(AtomicLongArray counts, int at) {
        if (multiWriter) {
            counts.getAndIncrement(at);
        } else {
            counts.setPlain(at, counts.getPlain(at) + 1);
        }
    }

    /**
     * Ends the current interval: swaps in empty histograms for the writers and waits out any write in
     * progress, so what was recorded so far is readable through {@link #addTo}. Sampler thread only.
     */
    public void flip() {
        try {
            phaser.readerLock();
            Buffer next = inactive;
            for (Histogram h : next.histograms) {
                if (h.getTotalCount() != 0) { // a reset clears every count (32,768 for 1 ns-1 h): skip the empty
                    h.reset();
                }
            }
            for (int i = 0; i < next.status.length(); i++) {
                next.status.set(i, 0);
            }
            inactive = active;
            active = next;
            phaser.flipPhase(500_000L);
        } finally {
            phaser.readerUnlock();
        }
    }

    /** Adds the last flipped interval of one op type's successes in one view into {@code target}. Sampler thread only. */
    public void addTo(int opType, View view, Histogram target) {
        addIfAny(inactive.histograms[PER_OP * opType + (view == View.INTENDED || startIsIntended ? 0 : 1)], target);
    }

    /** Adds the last flipped interval of one op type's failures in one view into {@code target}. Sampler thread only. */
    public void addFailedTo(int opType, View view, Histogram target) {
        addIfAny(inactive.histograms[PER_OP * opType + (view == View.INTENDED || startIsIntended ? 2 : 3)], target);
    }

    /** Adds the last flipped interval's status counts into {@code target} ({@code type * Status.count() + status}). */
    public void addStatusTo(long[] target) {
        for (int i = 0; i < target.length; i++) {
            target[i] += inactive.status.get(i);
        }
    }

    /** Adds the last flipped interval's lag into {@code target}. Sampler thread only. */
    public void addLagTo(Histogram target) {
        addIfAny(inactive.histograms[PER_OP * opTypes], target);
    }

    /**
     * Adds the last flipped interval's successes' intended latency less the harness's delay of each (all types
     * together; throttled runs) into {@code target}: the latency the target alone would have given them.
     * Sampler thread only.
     */
    public void addUndelayedTo(Histogram target) {
        addIfAny(inactive.histograms[PER_OP * opTypes + 2], target);
    }

    /** Adds the last flipped interval's harness delay into {@code target}. Sampler thread only. */
    public void addHarnessDelayTo(Histogram target) {
        addIfAny(inactive.histograms[PER_OP * opTypes + 1], target);
    }

    /**
     * Adds {@code from} into {@code target} unless it recorded nothing: HdrHistogram's add reads every count of a
     * same-shaped histogram, and with one set per worker per interval (a failed view, a quiet worker) most are empty.
     */
    private static void addIfAny(Histogram from, Histogram target) {
        if (from.getTotalCount() != 0) {
            target.add(from);
        }
    }
}
