package io.loadgen.core.run;

import io.loadgen.core.StopSignal;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.Schedule;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.wait.WaitStrategy;

/**
 * One worker thread's loop: wait for the next intended start, execute on the driver, record.
 * {@link #run()} is called by exactly one thread; the result accessors are read by the main thread
 * after joining it.
 *
 * <p>The loop never skips or drops an operation: when the worker is behind, it issues at once and
 * the wait counts in the intended view. It allocates nothing, takes no lock and does not log.
 * Without a schedule (unthrottled) the intended start is the actual start.
 */
final class Worker implements LoadThread {
    private final int index;
    private final Driver driver;
    private final WorkerRecorders recorders;
    private final WaitStrategy wait;
    private final NanoClock clock;
    private final StopSignal stop;
    private final SchedulePosition position;
    private final long operationLimit;
    private final int threads;
    private final int opIndex;
    private final String opName;
    private Schedule schedule;
    private long endNs = Long.MAX_VALUE;
    private final long[] statusCounts = new long[Status.count()];

    private long issued;
    private long unissued;
    private volatile Throwable lastError;
    private volatile long errorCount;

    /**
     * @param threads        how many run threads there are: key numbers interleave, {@code issued * threads + index}
     * @param operationLimit how many operations this worker may issue (MAX_VALUE: no limit)
     */
    Worker(int index, int threads, Driver driver, WorkerRecorders recorders, WaitStrategy wait, NanoClock clock,
           StopSignal stop, SchedulePosition position, long operationLimit, int opIndex, String opName) {
        this.index = index;
        this.driver = driver;
        this.recorders = recorders;
        this.wait = wait;
        this.clock = clock;
        this.stop = stop;
        this.position = position;
        this.operationLimit = operationLimit;
        this.threads = threads;
        this.opIndex = opIndex;
        this.opName = opName;
    }

    /**
     * Sets the times, once everything is built and just before the thread starts (which publishes them).
     *
     * @param schedule this worker's schedule, or null for an unthrottled run
     * @param endNs    no operation starts at or after this time (MAX_VALUE: no time limit)
     */
    @Override
    public Worker arm(Schedule schedule, long endNs) {
        this.schedule = schedule;
        this.endNs = endNs;
        return this;
    }

    @Override
    public void run() {
        final Operation op = new Operation(index);
        final Schedule schedule = this.schedule;
        final long endNs = this.endNs;
        long intendedNs = 0;
        if (schedule != null) {
            intendedNs = schedule.nextIntendedStartNs();
            position.publish(index, intendedNs);
        }
        long readyNs = intendedNs; // when this worker was last free: the end of its previous operation
        while (issued < operationLimit && !stop.isStopped()) {
            long startNs;
            if (schedule != null) {
                if (intendedNs - endNs >= 0) {
                    break;
                }
                startNs = wait.await(intendedNs, clock, stop);
            } else {
                startNs = clock.nanoTime();
            }
            if (startNs - endNs >= 0 || stop.isStopped()) {
                unissued = schedule == null ? 0 : countDue(intendedNs, schedule, Math.min(startNs, endNs));
                break;
            }
            long nextIntendedNs = 0;
            long lagNs = WorkerRecorders.NO_LAG;
            if (schedule == null) {
                intendedNs = startNs;
            } else {
                // The scheduler's own delay: from when the op could have started (its intended start, or
                // when this worker became free if it was behind) to when it did. Queueing is not lag.
                lagNs = startNs - (intendedNs - readyNs >= 0 ? intendedNs : readyNs);
                nextIntendedNs = schedule.nextIntendedStartNs();
                position.publish(index, nextIntendedNs); // while this op runs, the next one may fall due
            }
            op.prepare(opIndex, opName, intendedNs, issued * threads + index);
            Status status = execute(op);
            readyNs = clock.nanoTime();
            recorders.record(0, intendedNs, startNs, readyNs, lagNs);
            statusCounts[status.ordinal()]++;
            issued++;
            intendedNs = nextIntendedNs;
        }
        position.finish(index);
    }

    private Status execute(Operation op) {
        try {
            Status s = driver.execute(op);
            return s != null ? s : Status.ERROR;
        } catch (Throwable t) {
            return onError(t);
        }
    }

    /** The rare path, kept out of the loop: remember the error for the sampler to report. */
    private Status onError(Throwable t) {
        lastError = t;
        errorCount = errorCount + 1;
        return Status.ERROR;
    }

    /**
     * Counts the operations intended before {@code untilNs} that were never issued: the pending one
     * (intended at {@code pendingNs}) and those the schedule still holds. Called once, as the worker stops.
     */
    static long countDue(long pendingNs, Schedule schedule, long untilNs) {
        long n = 0;
        for (long t = pendingNs; t - untilNs < 0; t = schedule.nextIntendedStartNs()) {
            n++;
        }
        return n;
    }

    @Override
    public long issued() {
        return issued;
    }

    @Override
    public long unissued() {
        return unissued;
    }

    @Override
    public long statusCount(int statusOrdinal) {
        return statusCounts[statusOrdinal];
    }

    @Override
    public Throwable lastError() {
        return lastError;
    }

    @Override
    public long errorCount() {
        return errorCount;
    }
}
