package io.loadgen.core.run;

import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.core.wait.WaitStrategy;
import org.jctools.queues.MpscArrayQueue;

import java.util.concurrent.TimeUnit;
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
 * path allocates or locks: slots are preallocated and recycled through a bounded lock-free MPSC queue.
 */
final class AsyncIssuer extends LoadThread {
    private static final long SLOT_IDLE_NS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final AsyncDriver driver;
    private final boolean spin;
    /** Free slots: completions (any thread) offer, the issuer polls. Lock-free, bounded, allocation-free. */
    private final MpscArrayQueue<Slot> free;
    private final int slotCount;

    private Slot acquired;
    private long heldBack;
    private long inFlightAtEnd;

    AsyncIssuer(Setup setup, AsyncDriver driver, int maxInFlight) {
        super(setup);
        this.driver = driver;
        this.spin = setup.waitStrategy() == WaitStrategy.SPIN;
        this.slotCount = maxInFlight;
        this.free = new MpscArrayQueue<>(maxInFlight);
        for (int i = 0; i < maxInFlight; i++) {
            free.add(new Slot());
        }
    }

    @Override
    long acquire(long startNs) {
        acquired = free.poll();
        if (acquired != null) {
            return startNs;
        }
        heldBack++;
        acquired = awaitSlot();
        return acquired == null ? STOPPED : clock.nanoTime();
    }

    @Override
    void release() {
        if (acquired != null) {
            free.offer(acquired);
            acquired = null;
        }
    }

    @Override
    long issue(Operation op, int type, long key, long intendedNs, long startNs, long lagNs) {
        Slot slot = acquired;
        acquired = null;
        slot.arm(type, key, intendedNs, startNs, lagNs);
        try {
            driver.submit(op, slot);
        } catch (Throwable t) {
            onError(t);
            slot.complete(Status.ERROR);
        }
        return clock.nanoTime();
    }

    @Override
    void finish() {
        inFlightAtEnd = drain();
    }

    /** Waits for a completion to free a slot; null if the run is stopped first. */
    private Slot awaitSlot() {
        Slot slot;
        while ((slot = free.poll()) == null) {
            if (stop.isStopped()) {
                return null;
            }
            if (spin) {
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
    long heldBack() {
        return heldBack;
    }

    @Override
    long inFlightAtEnd() {
        return inFlightAtEnd;
    }

    /**
     * One in-flight operation's timestamps, and its {@link Completion}: armed by the issuer thread before
     * submit (the driver's hand-off publishes the fields), completed once on any thread.
     */
    private final class Slot implements Completion {
        private int type;
        private long key;
        private long intendedNs;
        private long startNs;
        private long lagNs;

        void arm(int type, long key, long intendedNs, long startNs, long lagNs) {
            this.type = type;
            this.key = key;
            this.intendedNs = intendedNs;
            this.startNs = startNs;
            this.lagNs = lagNs;
        }

        @Override
        public void complete(Status status) {
            long endNs = clock.nanoTime();
            recorders.record(type, intendedNs, startNs, endNs, lagNs, (status != null ? status : Status.ERROR).ordinal());
            sequence.completed(type, key);
            free.offer(this);
        }
    }
}
