package io.loadgen.core.wait;

import io.loadgen.core.StopSignal;
import io.loadgen.core.time.NanoClock;

import java.util.concurrent.locks.LockSupport;

/**
 * {@link WaitStrategy#ADAPTIVE}: parks until a margin before the deadline, then spins the rest, and learns
 * the margin from how late its own parks wake up.
 *
 * <p>A park asked for {@code t} returns after {@code t} plus the wake-up's overshoot: the kernel's timer slack
 * (50 µs by default for a normal thread; {@link TimerSlack} lowers this thread's to 1 ns where Linux lets it)
 * plus the scheduler's and the hypervisor's wake-up latency. The margin tracks the {@value #QUANTILE}
 * quantile of the overshoots seen, by stochastic approximation: each overshoot above the margin raises it by
 * {@code QUANTILE × STEP}, each one below lowers it by {@code (1 − QUANTILE) × STEP}, which settles where
 * overshoots exceed it one time in a hundred. So a park ends before the deadline 99 times in 100 and the
 * spin that follows is short; the hundredth is late by how far the overshoot's tail lies past its p99.
 * Spinning all of every gap (as {@link WaitStrategy#SPIN}) would be exact and cost a core; parking all of it
 * (as {@link WaitStrategy#PARK}) costs nothing and is late by the whole overshoot every time.
 *
 * <p>When the gap to the deadline is shorter than the margin, it spins the whole gap: at rates where one
 * thread's gaps are shorter than the platform's wake-up latency, accuracy costs a core, and the default
 * takes accuracy. One instance per worker thread; no allocation.
 */
final class AdaptiveWaiter implements Waiter {
    /** The quantile of park overshoots the margin tracks. */
    static final double QUANTILE = 0.99;
    /** The estimator's step: an overshoot above the margin raises it by about this much. */
    static final long STEP_NS = 10_000;
    static final long UP_NS = Math.round(QUANTILE * STEP_NS);
    static final long DOWN_NS = Math.max(1, Math.round((1 - QUANTILE) * STEP_NS));
    /** Where the margin starts: a little above Linux's default timer slack. */
    static final long INITIAL_MARGIN_NS = 60_000;
    static final long MIN_MARGIN_NS = 2_000;
    /** At most this much spinning per wait, however slow the wake-ups (a stopped VM is not a wake-up). */
    static final long MAX_MARGIN_NS = 2_000_000;

    /** How the waiter sleeps and spins: the platform's, or a test's that moves a manual clock. */
    interface Platform {
        void park(long ns);

        void spinOnce();

        void onThreadStart();
    }

    private static final Platform REAL = new Platform() {
        @Override
        public void park(long ns) {
            LockSupport.parkNanos(ns);
        }

        @Override
        public void spinOnce() {
            Thread.onSpinWait();
        }

        @Override
        public void onThreadStart() {
            TimerSlack.minimizeForCurrentThread();
        }
    };

    private final Platform platform;
    private long marginNs = INITIAL_MARGIN_NS;

    AdaptiveWaiter() {
        this(REAL);
    }

    AdaptiveWaiter(Platform platform) {
        this.platform = platform;
    }

    @Override
    public void onThreadStart() {
        platform.onThreadStart();
    }

    @Override
    public long await(long deadlineNs, NanoClock clock, StopSignal stop) {
        long now = clock.nanoTime();
        long wakeNs = deadlineNs - marginNs; // fixed for this wait: what it learns applies to the next
        while (wakeNs - now > 0 && !stop.isStopped()) {
            long parkNs = Math.min(wakeNs - now, WaitStrategy.MAX_PARK_NS);
            platform.park(parkNs);
            long woke = clock.nanoTime();
            if (parkNs == wakeNs - now) {
                learn(woke - wakeNs); // a park cut short by MAX_PARK_NS says nothing about the wake-up
            }
            now = woke;
        }
        while (deadlineNs - now > 0 && !stop.isStopped()) {
            platform.spinOnce();
            now = clock.nanoTime();
        }
        return now;
    }

    /** One park's overshoot: moves the margin toward the {@value #QUANTILE} quantile of overshoots. */
    void learn(long overshootNs) {
        if (overshootNs > marginNs) {
            marginNs = Math.min(MAX_MARGIN_NS, marginNs + UP_NS);
        } else {
            marginNs = Math.max(MIN_MARGIN_NS, marginNs - DOWN_NS);
        }
    }

    long marginNs() {
        return marginNs;
    }
}
