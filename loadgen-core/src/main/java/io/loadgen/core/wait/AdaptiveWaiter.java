package io.loadgen.core.wait;

import io.loadgen.core.StopSignal;
import io.loadgen.core.time.NanoClock;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * {@link WaitStrategy#ADAPTIVE}: parks until a margin before the deadline, then spins the rest, and learns
 * the margin from how late its own parks wake up.
 *
 * <p>A park asked for {@code t} returns after {@code t} plus the wake-up's overshoot: the kernel's timer slack
 * (50 µs by default for a normal thread; {@link TimerSlack} lowers this thread's to 1 ns where Linux lets it)
 * plus the scheduler's and the hypervisor's wake-up latency. The margin is the {@value #PERCENTILE}th
 * percentile of the overshoots of the last {@value #WINDOW} parks ({@link OvershootWindow}), so a park ends
 * before the deadline 99 times in 100 and the spin that follows is short; the hundredth is late by how far
 * the overshoot's tail lies past its p99. Spinning all of every gap (as {@link WaitStrategy#SPIN}) would be
 * exact and cost a core; parking all of it (as {@link WaitStrategy#PARK}) costs nothing and is late by the
 * whole overshoot every time.
 *
 * <p>When the gap to the deadline is shorter than the margin, it spins the whole gap: at rates where one
 * thread's gaps are shorter than the platform's wake-up latency, accuracy costs a core, and the default
 * takes accuracy. Then it parks no more and learns nothing, so a margin raised by a burst of late wake-ups
 * (a busy machine) would hold for good; overshoots therefore count for {@value #WINDOW_MAX_AGE_MS} ms only,
 * and a window aged empty falls back to the initial margin, which parks again and learns afresh. One
 * instance per worker thread; no allocation.
 */
final class AdaptiveWaiter implements Waiter {
    /** How many recent parks the margin is learned from. */
    static final int WINDOW = 256;
    /** The percentile of their overshoots that is the margin: the third largest of 256. */
    static final int PERCENTILE = 99;
    /** Overshoots older than this are forgotten, so a margin above the gap cannot hold for good. */
    static final long WINDOW_MAX_AGE_MS = 1_000;
    /** The margin before the first park, and whenever the window has aged empty: above Linux's default slack. */
    static final long INITIAL_MARGIN_NS = 60_000;
    /**
     * At most this much spinning per wait. Above it lie not wake-up latencies but stalls (the VM or the
     * scheduler taking the CPU for milliseconds), which hit more than 1 in 100 one-millisecond parks on a
     * busy 2-core VM: a margin chasing them spins most of every gap and still does not avoid them.
     */
    static final long MAX_MARGIN_NS = 250_000;

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
    private final OvershootWindow overshoots = new OvershootWindow(WINDOW, PERCENTILE,
            TimeUnit.MILLISECONDS.toNanos(WINDOW_MAX_AGE_MS), INITIAL_MARGIN_NS, MAX_MARGIN_NS);

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
        long wakeNs = deadlineNs - overshoots.marginNs(now); // fixed for this wait: what it learns applies to the next
        while (wakeNs - now > 0 && !stop.isStopped()) {
            long parkNs = Math.min(wakeNs - now, WaitStrategy.MAX_PARK_NS);
            platform.park(parkNs);
            long woke = clock.nanoTime();
            // Only a park aimed at the margin is a sample: one cut short by MAX_PARK_NS says nothing about the
            // wake-up, and an early (spurious) wake says nothing about its lateness; the loop parks again.
            if (parkNs == wakeNs - now && woke - wakeNs >= 0) {
                overshoots.record(woke - wakeNs, woke);
            }
            now = woke;
        }
        while (deadlineNs - now > 0 && !stop.isStopped()) {
            platform.spinOnce();
            now = clock.nanoTime();
        }
        return now;
    }

    /** The margin the next wait starting at {@code nowNs} would use. */
    long marginNs(long nowNs) {
        return overshoots.marginNs(nowNs);
    }
}
