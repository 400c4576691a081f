package io.loadgen.core.run;

import io.loadgen.core.StopSignal;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.Schedule;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.wait.WaitStrategy;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * One issuer thread's loop for an {@link AsyncDriver}: keep the schedule, take a free in-flight slot,
 * submit; the slot, as the operation's {@link Completion}, records its latency from the intended start
 * when the driver completes it, on whatever thread that is. {@link #run()} is called by exactly one
 * thread; completions arrive from any thread.
 *
 * <p>In-flight operations are bounded by the slot pool. When no slot is free the issuer waits for one:
 * the operation is never dropped, its wait counts in {@code intended} (it was due), and it is counted as
 * held back, so a user can tell a slow target from a too-small bound. Nothing on the issue or completion
 * path allocates: slots are preallocated and recycled through a bounded queue.
 */
final class AsyncIssuer implements LoadThread {
    private static final long SLOT_IDLE_NS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final int index;
    private final int threads;
    private final AsyncDriver driver;
    private final WorkerRecorders recorders;
    private final WaitStrategy wait;
    private final NanoClock clock;
    private final StopSignal stop;
    private final SchedulePosition position;
    private final long operationLimit;
    private final int opIndex;
    private final String opName;
    private final ArrayBlockingQueue<Slot> free;
    private final int slotCount;
    private final AtomicLongArray statusCounts = new AtomicLongArray(Status.count());

    private Schedule schedule;
    private long endNs = Long.MAX_VALUE;
    private long issued;
    private long unissued;
    private long heldBack;
    private long inFlightAtEnd;
    private volatile Throwable lastError;
    private volatile long errorCount;

    AsyncIssuer(int index, int threads, AsyncDriver driver, WorkerRecorders recorders, WaitStrategy wait,
                NanoClock clock, StopSignal stop, SchedulePosition position, long operationLimit, int maxInFlight,
                int opIndex, String opName) {
        this.index = index;
        this.threads = threads;
        this.driver = driver;
        this.recorders = recorders;
        this.wait = wait;
        this.clock = clock;
        this.stop = stop;
        this.position = position;
        this.operationLimit = operationLimit;
        this.opIndex = opIndex;
        this.opName = opName;
        this.slotCount = maxInFlight;
        this.free = new ArrayBlockingQueue<>(maxInFlight);
        for (int i = 0; i < maxInFlight; i++) {
            free.add(new Slot());
        }
    }

    @Override
    public AsyncIssuer arm(Schedule schedule, long endNs) {
        this.schedule = schedule;
        this.endNs = endNs;
        return this;
    }

    @Override
    public void run() {
        try {
            issue();
        } finally {
            position.finish(index);
            inFlightAtEnd = drain();
        }
    }

    private void issue() {
        final Operation op = new Operation(index);
        final Schedule schedule = this.schedule;
        long intendedNs = 0;
        if (schedule != null) {
            intendedNs = schedule.nextIntendedStartNs();
            position.publish(index, intendedNs);
        }
        long readyNs = intendedNs; // when this issuer was last free to issue
        while (issued < operationLimit && !stop.isStopped()) {
            long startNs;
            if (schedule != null) {
                if (intendedNs - endNs >= 0) {
                    return;
                }
                startNs = wait.await(intendedNs, clock, stop);
            } else {
                startNs = clock.nanoTime();
            }
            Slot slot = free.poll();
            if (slot == null) {
                heldBack++;
                slot = awaitSlot();
                startNs = clock.nanoTime();
                readyNs = startNs; // waiting for the bound is queueing, not scheduler lag
            }
            if (slot == null || startNs - endNs >= 0 || stop.isStopped()) {
                if (slot != null) {
                    free.offer(slot);
                }
                unissued = schedule == null ? 0 : Worker.countDue(intendedNs, schedule, Math.min(startNs, endNs));
                return;
            }
            long nextIntendedNs = 0;
            long lagNs = WorkerRecorders.NO_LAG;
            if (schedule == null) {
                intendedNs = startNs;
            } else {
                lagNs = startNs - (intendedNs - readyNs >= 0 ? intendedNs : readyNs);
                nextIntendedNs = schedule.nextIntendedStartNs();
                position.publish(index, nextIntendedNs);
            }
            slot.arm(intendedNs, startNs, lagNs);
            op.prepare(opIndex, opName, intendedNs, issued * threads + index);
            issued++;
            submit(op, slot);
            readyNs = clock.nanoTime();
            intendedNs = nextIntendedNs;
        }
    }

    private void submit(Operation op, Slot slot) {
        try {
            driver.submit(op, slot);
        } catch (Throwable t) {
            lastError = t;
            errorCount = errorCount + 1;
            slot.complete(Status.ERROR);
        }
    }

    /** Waits for a completion to free a slot; null if the run is stopped first. */
    private Slot awaitSlot() {
        Slot slot;
        while ((slot = free.poll()) == null) {
            if (stop.isStopped()) {
                return null;
            }
            if (wait == WaitStrategy.SPIN) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(SLOT_IDLE_NS);
            }
        }
        return slot;
    }

    /** Waits, bounded, for every operation in flight to complete; returns how many did not. */
    private long drain() {
        long deadlineNs = clock.nanoTime() + DRAIN_TIMEOUT_NS;
        while (free.size() < slotCount && clock.nanoTime() - deadlineNs < 0) {
            LockSupport.parkNanos(SLOT_IDLE_NS);
        }
        return slotCount - free.size();
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
        return statusCounts.get(statusOrdinal);
    }

    @Override
    public long heldBack() {
        return heldBack;
    }

    @Override
    public long inFlightAtEnd() {
        return inFlightAtEnd;
    }

    @Override
    public Throwable lastError() {
        return lastError;
    }

    @Override
    public long errorCount() {
        return errorCount;
    }

    /**
     * One in-flight operation's timestamps, and its {@link Completion}: armed by the issuer thread before
     * submit (the driver's hand-off publishes the fields), completed once on any thread.
     */
    private final class Slot implements Completion {
        private long intendedNs;
        private long startNs;
        private long lagNs;

        void arm(long intendedNs, long startNs, long lagNs) {
            this.intendedNs = intendedNs;
            this.startNs = startNs;
            this.lagNs = lagNs;
        }

        @Override
        public void complete(Status status) {
            long endNs = clock.nanoTime();
            recorders.record(0, intendedNs, startNs, endNs, lagNs);
            statusCounts.getAndIncrement((status != null ? status : Status.ERROR).ordinal());
            free.offer(this);
        }
    }
}
