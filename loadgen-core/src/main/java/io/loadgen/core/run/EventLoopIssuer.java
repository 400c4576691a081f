package io.loadgen.core.run;

import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.record.WorkerRecorders;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One async issuer whose schedule runs on the driver's own single-threaded executor (the event loop of
 * the connection it uses, see {@link AsyncDriver#issuerExecutor}) instead of on a thread of its own. An
 * operation is submitted and completed on that one thread, so nothing is handed from thread to thread:
 * the design of wrk2 and redis-benchmark, and what lets the harness keep up with a fast store on few
 * cores.
 *
 * <p>The loop is the same as {@link LoadThread}'s, turned into a step that never blocks: it issues every
 * operation that is due while a slot is free, then returns, having arranged to be called again: by a
 * timer at the next intended start, or by the completion that frees a slot. As everywhere, an operation
 * is never dropped: one that waits for a slot counts the wait in {@code intended} and is counted as held
 * back. Every field is confined to the executor's thread except {@link #waiting}, which completions on
 * other threads (e.g. a driver's timeout timer) read to know whether to wake the issuer.
 *
 * <p>Timers use the executor's own scheduling, which allocates one small task per timer; the issue and
 * completion paths otherwise allocate nothing and take no lock.
 */
final class EventLoopIssuer extends LoadThread {
    /** Longest sleep, so a stop is seen within this even when nothing completes. */
    private static final long MAX_TIMER_NS = TimeUnit.MILLISECONDS.toNanos(10);

    private final AsyncDriver driver;
    private final ScheduledExecutorService executor;
    private final SlotPool pool;
    private final Operation op;
    private final Runnable stepTask = this::step;
    private final Runnable timerTask = this::onTimer;
    /** True while the issuer waits for a completion (a free slot, or the last ones when draining). */
    private final AtomicBoolean waiting = new AtomicBoolean();

    private Thread loopThread;
    private CountDownLatch done;
    private boolean stepping;
    private boolean holding;
    private boolean draining;
    private boolean finished;
    /** When the timer armed last fires, while {@link #armed}; a flag, not a sentinel time, so comparisons stay wrap-safe. */
    private long armedNs;
    private boolean armed;
    private long intendedNs;
    private long readyNs;
    /** The harness's delay of the last operation issued, which a backlog carries to the next ({@link #harnessDelay}). */
    private long carriedNs;
    private long drainDeadlineNs;

    EventLoopIssuer(Setup setup, AsyncDriver driver, int maxInFlight, ScheduledExecutorService executor) {
        super(setup);
        this.driver = driver;
        this.executor = executor;
        this.op = new Operation(index);
        this.pool = new SlotPool(maxInFlight, recorders, sequence, clock, this::onFree);
    }

    @Override
    void start(String name, CountDownLatch done) {
        this.done = done;
        executor.execute(() -> {
            loopThread = Thread.currentThread();
            if (schedule != null) {
                intendedNs = schedule.nextIntendedStartNs();
                position.publish(index, intendedNs);
            }
            readyNs = intendedNs;
            step();
        });
    }

    /** Completion side, any thread: a slot came back; wake the issuer if it waits for one. */
    private void onFree() {
        if (waiting.get() && waiting.compareAndSet(true, false)) {
            if (Thread.currentThread() == loopThread) {
                step();
            } else {
                executor.execute(stepTask);
            }
        }
    }

    /** Runs the loop as far as it can go now. Loop thread; a call from inside a step returns at once. */
    private void step() {
        if (stepping || finished) {
            return;
        }
        stepping = true;
        try {
            if (draining) {
                drainStep();
            } else {
                advance();
            }
        } finally {
            stepping = false;
        }
    }

    private void advance() {
        while (true) {
            if (issued >= operationLimit || (schedule != null && intendedNs - endNs >= 0)) {
                endLoop();
                return;
            }
            long nowNs = clock.nanoTime();
            if (stop.isStopped()) {
                countUnissued(nowNs);
                endLoop();
                return;
            }
            if (schedule != null && intendedNs - nowNs > 0) {
                wakeAt(intendedNs, nowNs);
                return;
            }
            SlotPool.Slot slot = takeSlot(nowNs);
            if (slot == null) {
                return;
            }
            boolean waited = holding;
            long startNs = nowNs; // takeSlot never waits here: the reading is this instant's
            if (waited) {
                holding = false;
                readyNs = startNs; // waiting for capacity is queueing (in intended), not scheduler lag
            }
            if (startNs - endNs >= 0) {
                pool.release(slot);
                countUnissued(endNs);
                endLoop();
                return;
            }
            countHeldBack(schedule != null ? intendedNs : startNs, waited, startNs);
            issue(slot, startNs);
        }
    }

    private void issue(SlotPool.Slot slot, long startNs) {
        long lagNs = WorkerRecorders.NO_LAG;
        long delayNs = WorkerRecorders.NO_LAG;
        long nextIntendedNs = 0;
        if (schedule == null) {
            intendedNs = startNs;
        } else {
            lagNs = startNs - (intendedNs - readyNs >= 0 ? intendedNs : readyNs);
            delayNs = harnessDelay(lagNs, intendedNs, readyNs, carriedNs);
            carriedNs = delayNs;
            nextIntendedNs = schedule.nextIntendedStartNs();
            position.publish(index, nextIntendedNs);
        }
        int type = prepare(op, intendedNs);
        slot.arm(type, preparedKey, intendedNs, startNs, lagNs, delayNs);
        SlotPool.submit(driver, op, slot, onError);
        if (schedule == null) {
            // Unthrottled: an operation is intended when it starts, so it is never behind and has no lag; when
            // the issuer became free again matters to nothing, and not reading the clock for it saves a read
            // per operation on a loop that issues hundreds of thousands a second.
            readyNs = startNs;
            return;
        }
        long freeNs = clock.nanoTime();
        countBehind(intendedNs, readyNs, startNs, freeNs);
        readyNs = freeNs;
        intendedNs = nextIntendedNs;
    }

    /** A free slot, or null after arranging to be woken by the completion that frees one. */
    private SlotPool.Slot takeSlot(long nowNs) {
        SlotPool.Slot slot = pool.poll();
        if (slot != null) {
            return slot;
        }
        holding = true;
        waiting.set(true);
        slot = pool.poll(); // a completion may have freed one before it could see the flag
        if (slot != null) {
            waiting.set(false);
            return slot;
        }
        wakeAt(nowNs + MAX_TIMER_NS, nowNs); // to see a stop even if nothing completes
        return null;
    }

    private void countUnissued(long untilNs) {
        if (schedule != null) {
            unissued = countDue(intendedNs, schedule, earlier(untilNs, endNs));
        }
    }

    /** The loop is over: wait, bounded, for the operations in flight, then report done. */
    private void endLoop() {
        draining = true;
        position.finish(index);
        drainDeadlineNs = clock.nanoTime() + SlotPool.drainTimeoutNs(stop);
        drainStep();
    }

    private void drainStep() {
        long nowNs = clock.nanoTime();
        if (pool.inFlight() == 0 || nowNs - drainDeadlineNs >= 0) {
            finishDrain();
            return;
        }
        waiting.set(true);
        if (pool.inFlight() == 0) {
            finishDrain();
            return;
        }
        wakeAt(nowNs + MAX_TIMER_NS, nowNs);
    }

    private void finishDrain() {
        finished = true;
        waiting.set(false);
        inFlightAtEnd = pool.inFlight();
        done.countDown();
    }

    /**
     * Arranges a step at {@code deadlineNs} (at most {@link #MAX_TIMER_NS} away) unless one is already armed
     * for no later than that and not yet due. A timer that fires with nothing to do costs one step. The
     * timer task is one object, made once; the executor allocates its own small task per timer.
     */
    private void wakeAt(long deadlineNs, long nowNs) {
        long delayNs = Math.min(deadlineNs - nowNs, MAX_TIMER_NS);
        long atNs = nowNs + delayNs;
        if (armed && armedNs - nowNs >= 0 && armedNs - atNs <= 0) {
            return; // an armed timer still to fire comes first
        }
        armedNs = atNs;
        armed = true;
        executor.schedule(timerTask, delayNs, TimeUnit.NANOSECONDS);
    }

    /** A timer fired: the one armed last is spent once its time has come (an earlier, stale one is not it). */
    private void onTimer() {
        if (armed && clock.nanoTime() - armedNs >= 0) {
            armed = false; // due: a later wakeAt arms afresh
        }
        step();
    }

    @Override
    long acquire(long startNs) {
        throw new IllegalStateException("an event-loop issuer has no thread of its own");
    }

    @Override
    long issue(Operation op, int type, long key, long intendedNs, long startNs, long lagNs, long delayNs) {
        throw new IllegalStateException("an event-loop issuer has no thread of its own");
    }
}
