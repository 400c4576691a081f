package io.loadgen.core.run;

import io.loadgen.core.StopSignal;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.Schedule;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.wait.WaitStrategy;
import io.loadgen.core.wait.Waiter;
import io.loadgen.core.workload.OperationSequence;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The schedule loop one run thread executes: wait for the next intended start, issue the operation,
 * repeat until the end. Subclasses say how an operation is issued: {@link Worker} executes a blocking
 * driver and records on its own thread; {@link AsyncIssuer} submits to an async driver whose completion
 * records. {@link #run()} is called by exactly one thread; the sampler reads the error counters while it
 * runs; the run reads the rest after joining it.
 *
 * <p>The loop never skips or drops an operation: a thread that is behind issues at once, and the wait
 * counts in the intended view. Without a schedule (unthrottled) the intended start is the actual start,
 * which is when the thread became free: the end of its previous operation, whose clock reading it reuses
 * (a closed loop intends each operation the moment the last one ends). It allocates nothing, takes no
 * lock and does not log.
 */
abstract class LoadThread implements Runnable {
    /** Returned by {@link #acquire} when the run was stopped while waiting. */
    static final long STOPPED = Long.MIN_VALUE;
    private static final VarHandle BEHIND_HARNESS_NS;
    private static final VarHandle BEHIND_OWN_NS;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BEHIND_HARNESS_NS = lookup.findVarHandle(LoadThread.class, "behindHarnessNs", long.class);
            BEHIND_OWN_NS = lookup.findVarHandle(LoadThread.class, "behindOwnNs", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int index;
    final WorkerRecorders recorders;
    final NanoClock clock;
    final StopSignal stop;
    /** How many operation types the run reports. */
    final int types;
    private final Waiter wait;
    final SchedulePosition position;
    final long operationLimit;
    final OperationSequence sequence;
    private final int[] driverIndex;
    private final String[] typeNames;

    Schedule schedule;
    long endNs;
    long issued;
    long unissued;
    /** The logical key of the operation {@link #prepare} prepared last. */
    long preparedKey;
    /**
     * Async issuers: operations held back by the in-flight bound ({@link #countHeldBack}), and those still
     * in flight when the run gave up.
     */
    long heldBack;
    long inFlightAtEnd;
    /** When the last wait for a free slot ended; operations due before it were held back by the bound. */
    private long heldBackUntilNs;
    private boolean waitedOnce;
    /** Set by {@link #acquire} when it had to wait (the clock may read the same after a short wait). */
    boolean waitedForSlot;
    private volatile Throwable lastError;
    private volatile long errorCount;
    /**
     * Time spent on operations issued behind schedule ({@link #countBehind}): the harness's own share and
     * the operations' own. Written by this thread only, with opaque stores (plain moves on x86, never torn)
     * so the sampler can read them while the loop runs.
     */
    private long behindHarnessNs;
    private long behindOwnNs;

    /**
     * What every loop needs; fields are final, then {@link #arm} sets the times.
     *
     * @param typeNames   the run's operation types (the plan's), in report order
     * @param driverIndex for each run type, its index in the driver's {@code operations()}
     */
    record Setup(int index, WorkerRecorders recorders, WaitStrategy waitStrategy, NanoClock clock, StopSignal stop,
                 SchedulePosition position, long operationLimit, OperationSequence sequence, String[] typeNames,
                 int[] driverIndex) {
    }

    LoadThread(Setup s) {
        this.index = s.index();
        this.recorders = s.recorders();
        this.wait = s.waitStrategy().newWaiter();
        this.clock = s.clock();
        this.stop = s.stop();
        this.position = s.position();
        this.operationLimit = s.operationLimit();
        this.sequence = s.sequence();
        this.typeNames = s.typeNames().clone();
        this.driverIndex = s.driverIndex().clone();
        this.types = typeNames.length;
    }

    /**
     * Sets the times, once everything is built and just before the thread starts (which publishes them).
     *
     * @param schedule this thread's schedule, or null for an unthrottled run
     * @param endNs    no operation starts at or after this time (without a duration, one far away, still
     *                 compared wrap-safely)
     */
    LoadThread arm(Schedule schedule, long endNs) {
        this.schedule = schedule;
        this.endNs = endNs;
        return this;
    }

    /**
     * Starts this loop on a daemon thread of its own; {@code done} is counted down when it has ended and
     * its counts are final. Main thread, once, after {@link #arm}.
     */
    void start(String name, java.util.concurrent.CountDownLatch done) {
        Thread t = new Thread(() -> {
            try {
                run();
            } finally {
                done.countDown();
            }
        }, name);
        t.setDaemon(true);
        t.start();
    }

    @Override
    public final void run() {
        try {
            loop();
        } finally {
            position.finish(index);
            finish();
        }
    }

    private void loop() {
        wait.onThreadStart();
        final Operation op = new Operation(index);
        final Schedule schedule = this.schedule;
        final long endNs = this.endNs;
        long intendedNs = 0;
        if (schedule != null) {
            intendedNs = schedule.nextIntendedStartNs();
            position.publish(index, intendedNs);
        }
        long readyNs = intendedNs; // when this thread was last free to issue
        long carriedNs = 0; // the harness's delay of the last operation, which a backlog carries to the next
        while (issued < operationLimit && !stop.isStopped()) {
            if (schedule != null && intendedNs - endNs >= 0) {
                return;
            }
            // Unthrottled, an operation starts when its thread became free: the previous one's end, read once
            // (readyNs), so the clock is read once per operation and the harness's own time between two
            // operations (recording one, choosing the next, a pause) counts in the next one, never vanishes.
            long startNs = schedule != null ? wait.await(intendedNs, clock, stop)
                    : issued == 0 ? clock.nanoTime() : readyNs;
            long acquiredNs = acquire(startNs);
            boolean waited = acquiredNs != startNs || waitedForSlot;
            waitedForSlot = false;
            if (waited) {
                readyNs = acquiredNs; // waiting for capacity is queueing (in intended), not scheduler lag
                startNs = acquiredNs;
            }
            if (startNs == STOPPED || startNs - endNs >= 0 || stop.isStopped()) {
                release();
                unissued = schedule == null ? 0 : countDue(intendedNs, schedule,
                        startNs == STOPPED ? clock.nanoTime() : earlier(startNs, endNs));
                return;
            }
            long nextIntendedNs = 0;
            long lagNs = WorkerRecorders.NO_LAG;
            long delayNs = WorkerRecorders.NO_LAG;
            if (schedule == null) {
                intendedNs = startNs;
            }
            countHeldBack(intendedNs, waited, startNs);
            if (schedule != null) {
                // The scheduler's own delay: from when the op could have started (its intended start, or
                // when this thread became free if it was behind) to when it did. Queueing is not lag.
                lagNs = startNs - (intendedNs - readyNs >= 0 ? intendedNs : readyNs);
                delayNs = harnessDelay(lagNs, intendedNs, readyNs, carriedNs);
                carriedNs = delayNs;
                nextIntendedNs = schedule.nextIntendedStartNs();
                position.publish(index, nextIntendedNs); // while this op runs, the next one may fall due
            }
            int type = prepare(op, intendedNs);
            long freeNs = issue(op, type, preparedKey, intendedNs, startNs, lagNs, delayNs);
            countBehind(intendedNs, readyNs, startNs, freeNs);
            readyNs = freeNs;
            intendedNs = nextIntendedNs;
        }
        if (schedule != null && stop.isStopped() && issued < operationLimit) {
            // Stopped between two operations (a worker behind its schedule never waits, so it sees the stop here):
            // the operations already due are the backlog it leaves, as when the stop finds it waiting.
            unissued = countDue(intendedNs, schedule, earlier(clock.nanoTime(), endNs));
        }
    }

    /**
     * The harness's own delay of one operation: the larger of its lag and, when it was due before this thread
     * was free (a backlog, or a wait for an in-flight slot), the part of its queueing the harness caused. The
     * thread (or slot) became free when an earlier operation ended, which the harness's delay of it
     * ({@code carriedNs}) pushed back by at most that much; so the harness caused at most
     * {@code min(carriedNs, readyNs - intendedNs)} of this one's wait. A stall of the harness of S thus reaches
     * every operation of the backlog it leaves, shrinking as the thread catches up, while a slow target's
     * queueing stays the target's. The larger, not the sum: a backlog that never clears would otherwise add up
     * every lag of the run, though behind a saturated target those small lags cost nothing; the harness's cost
     * per operation, when it is what keeps the thread behind, is judged from its share of the workers' time
     * instead ({@code harness_saturated}). Two compares.
     */
    static long harnessDelay(long lagNs, long intendedNs, long readyNs, long carriedNs) {
        long queuedNs = readyNs - intendedNs;
        return queuedNs > 0 ? Math.max(lagNs, Math.min(carriedNs, queuedNs)) : lagNs;
    }

    /**
     * Fills {@code op} with the next operation of the sequence, intended at {@code intendedNs}, and counts
     * it issued; returns its type (the run's index) and leaves its logical key in {@link #preparedKey}.
     */
    final int prepare(Operation op, long intendedNs) {
        int type = sequence.nextType(issued);
        long key = sequence.nextKey(type, issued);
        op.prepare(driverIndex[type], typeNames[type], intendedNs, sequence.driverKey(key));
        sequence.detail(type, op);
        issued++;
        preparedKey = key;
        return type;
    }

    /**
     * Waits, if this thread must, for capacity to issue one more operation (async: a free in-flight slot).
     *
     * @return {@code startNs} when it did not wait, the clock after waiting, or {@link #STOPPED}
     */
    long acquire(long startNs) {
        return startNs;
    }

    /** Gives back what {@link #acquire} took, when the loop ends before issuing. */
    void release() {
    }

    /**
     * Issues one operation and arranges for it to be recorded with these times.
     *
     * @param type the operation's index among the run's types (for recorders and status counts)
     * @param key     its logical key, handed back to {@link OperationSequence#completed} when it completes
     * @param delayNs the harness's own delay of it ({@link #harnessDelay}), or {@code NO_LAG} unthrottled
     * @return the clock when this thread is free to issue the next one
     */
    abstract long issue(Operation op, int type, long key, long intendedNs, long startNs, long lagNs, long delayNs);

    /**
     * Counts one operation's time when it was issued behind schedule, i.e. due before this thread became
     * free at {@code readyNs}: then {@code startNs - readyNs} was the harness's own (recording the previous
     * operation, choosing this one, reading the clock) and {@code freeNs - startNs} the operation's (the
     * driver's call, or an async submit). On time, nothing. A compare, two adds and two plain stores: it
     * lets the verdict tell a slow target from a harness that cannot issue this fast, which lag cannot
     * (lag while behind is only this gap, small however far behind the run falls). This thread only.
     */
    final void countBehind(long intendedNs, long readyNs, long startNs, long freeNs) {
        if (intendedNs - readyNs < 0) {
            BEHIND_HARNESS_NS.setOpaque(this, behindHarnessNs + (startNs - readyNs));
            BEHIND_OWN_NS.setOpaque(this, behindOwnNs + (freeNs - startNs));
        }
    }

    /** The harness's own time between operations issued behind schedule, so far; any thread. */
    final long behindHarnessNs() {
        return (long) BEHIND_HARNESS_NS.getOpaque(this);
    }

    /** The operations' own time, of those issued behind schedule, so far; any thread. */
    final long behindOwnNs() {
        return (long) BEHIND_OWN_NS.getOpaque(this);
    }

    /** Called once on this thread after the loop ends (async: wait for operations in flight). */
    void finish() {
    }

    /** {@link #onError(Throwable)} as a reusable consumer, made once (the hot path allocates nothing). */
    final java.util.function.Consumer<Throwable> onError = this::onError;

    /** The rare path, kept out of the loop: remember a driver exception for the sampler to report. */
    final void onError(Throwable t) {
        lastError = t;
        errorCount = errorCount + 1;
    }

    /**
     * Counts the operations intended before {@code untilNs} that were never issued: the pending one
     * (intended at {@code pendingNs}) and those the schedule still holds, computed by the schedule rather
     * than stepped through (see {@link Schedule#countUntil}). Called once, as the loop stops.
     */
    static long countDue(long pendingNs, Schedule schedule, long untilNs) {
        return schedule.countUntil(pendingNs, untilNs);
    }

    /** The earlier of two {@link System#nanoTime()} readings, wrap-safely ({@code Math.min} is not). */
    static long earlier(long aNs, long bNs) {
        return aNs - bNs < 0 ? aNs : bNs;
    }

    /**
     * Async issuers: counts an operation about to be issued as held back by the in-flight bound when its
     * issuer just waited for a free slot, or when it fell due while the issuer was waiting for one (then
     * the bound, not the schedule, made it late: after a stall every operation due during the wait is
     * held back, not only the one that waited). A compare and an add; nothing allocates.
     *
     * @param waited  the issuer waited for a slot just now, until {@code startNs}
     */
    final void countHeldBack(long intendedNs, boolean waited, long startNs) {
        if (waited) {
            heldBack++;
            heldBackUntilNs = startNs;
            waitedOnce = true;
        } else if (waitedOnce && intendedNs - heldBackUntilNs < 0) {
            heldBack++;
        }
    }

    /** Operations issued. After join. */
    final long issued() {
        return issued;
    }

    /** Operations that fell due before the end but were never issued. After join. */
    final long unissued() {
        return unissued;
    }

    /** Operations held back by the in-flight bound, see {@link #countHeldBack} (async only). After join. */
    final long heldBack() {
        return heldBack;
    }

    /** Operations still in flight when the run gave up waiting for them (async only). After join. */
    final long inFlightAtEnd() {
        return inFlightAtEnd;
    }

    /** The last exception the driver threw, or null; any thread. */
    final Throwable lastError() {
        return lastError;
    }

    /** How many exceptions the driver threw; any thread. */
    final long errorCount() {
        return errorCount;
    }
}
