package io.loadgen.core.run;

import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.wait.WaitStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One issuer thread's loop for an {@link AsyncDriver} that names no executor of its own: keep the
 * schedule, take a free in-flight slot, submit; the slot, as the operation's completion, records its
 * latency from the intended start when the driver completes it, on whatever thread that is.
 * {@link #run()} is called by exactly one thread; completions arrive from any thread.
 *
 * <p>In-flight operations are bounded by the {@link SlotPool}. When no slot is free the issuer parks
 * until a completion unparks it (no polling): the operation is never dropped, its wait counts in
 * {@code intended} (it was due), and it is counted as held back, so a user can tell a slow target from a
 * too-small bound. Nothing on the issue or completion path allocates or locks.
 */
final class AsyncIssuer extends LoadThread {
    /** Longest park while waiting for a slot, so a stop is seen even when nothing completes. */
    private static final long SLOT_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AsyncDriver driver;
    private final boolean spin;
    private final SlotPool pool;
    /** The issuer thread while it waits for a slot, else null: completions unpark it. */
    private volatile Thread waiter;

    private SlotPool.Slot acquired;

    AsyncIssuer(Setup setup, AsyncDriver driver, int maxInFlight) {
        super(setup);
        this.driver = driver;
        this.spin = setup.waitStrategy() == WaitStrategy.SPIN;
        this.pool = new SlotPool(maxInFlight, recorders, sequence, clock, this::wake);
    }

    /** Completion side: wakes the issuer if it waits for a slot. */
    private void wake() {
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    @Override
    long acquire(long startNs) {
        acquired = pool.poll();
        if (acquired != null) {
            return startNs;
        }
        waitedForSlot = true;
        acquired = awaitSlot();
        return acquired == null ? STOPPED : clock.nanoTime();
    }

    @Override
    void release() {
        if (acquired != null) {
            pool.release(acquired);
            acquired = null;
        }
    }

    @Override
    long issue(Operation op, int type, long key, long intendedNs, long startNs, long lagNs, long delayNs) {
        SlotPool.Slot slot = acquired;
        acquired = null;
        slot.arm(type, key, intendedNs, startNs, lagNs, delayNs);
        SlotPool.submit(driver, op, slot, onError);
        return clock.nanoTime();
    }

    @Override
    void finish() {
        inFlightAtEnd = drain();
    }

    /**
     * Waits for a completion to free a slot; null if the run is stopped first. Publishes this thread as
     * the waiter before polling again, so a completion that frees a slot after the first poll either is
     * seen by the poll or unparks the thread.
     */
    private SlotPool.Slot awaitSlot() {
        SlotPool.Slot slot;
        waiter = Thread.currentThread();
        try {
            while ((slot = pool.poll()) == null) {
                if (stop.isStopped()) {
                    return null;
                }
                if (spin) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(this, SLOT_PARK_NS);
                }
            }
        } finally {
            waiter = null;
        }
        return slot;
    }

    /** Waits, bounded, for every operation in flight to complete; returns how many did not. */
    private long drain() {
        long deadlineNs = clock.nanoTime() + SlotPool.drainTimeoutNs(stop);
        waiter = Thread.currentThread();
        try {
            while (pool.inFlight() > 0 && clock.nanoTime() - deadlineNs < 0) {
                LockSupport.parkNanos(this, SLOT_PARK_NS);
            }
        } finally {
            waiter = null;
        }
        return pool.inFlight();
    }
}
