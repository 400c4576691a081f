package io.loadgen.core.wait;

import io.loadgen.core.StopSignal;
import io.loadgen.core.time.NanoClock;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a worker waits for its next intended start. Called by one worker thread; returns at the
 * deadline (or as soon after it as the strategy allows), at once when the deadline has passed, and
 * early when the run is stopped. How late it returns is recorded as {@code harness.lag}.
 *
 * <ul>
 *   <li>{@link #ADAPTIVE} (the default): parks until a learned margin before the deadline, then spins
 *       ({@link AdaptiveWaiter}); close to spin's accuracy at a fraction of its CPU when gaps are longer
 *       than the platform's wake-up latency.</li>
 *   <li>{@link #PARK}: sleeps; cheap on CPU, wakes some tens of microseconds late on Linux.</li>
 *   <li>{@link #SPIN}: busy-waits; burns a core per worker, wakes within a microsecond.</li>
 *   <li>{@link #HYBRID}: parks until {@value #HYBRID_SPIN_NS} ns before the deadline, then spins.</li>
 * </ul>
 */
public enum WaitStrategy {
    ADAPTIVE {
        @Override
        public long await(long deadlineNs, NanoClock clock, StopSignal stop) {
            return newWaiter().await(deadlineNs, clock, stop); // a waiter per call learns nothing: workers use newWaiter()
        }

        @Override
        public Waiter newWaiter() {
            return new AdaptiveWaiter();
        }
    },
    PARK {
        @Override
        public long await(long deadlineNs, NanoClock clock, StopSignal stop) {
            return park(deadlineNs, clock, stop);
        }
    },
    SPIN {
        @Override
        public long await(long deadlineNs, NanoClock clock, StopSignal stop) {
            return spin(deadlineNs, clock, stop);
        }
    },
    HYBRID {
        @Override
        public long await(long deadlineNs, NanoClock clock, StopSignal stop) {
            park(deadlineNs - HYBRID_SPIN_NS, clock, stop);
            return spin(deadlineNs, clock, stop);
        }
    };

    /** How long before the deadline {@link #HYBRID} stops parking and starts spinning. */
    public static final long HYBRID_SPIN_NS = 100_000L;

    /** The longest single park, so a stop request is seen within this time even at low rates. */
    static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(50);

    /**
     * Waits until {@code clock} reaches {@code deadlineNs} or {@code stop} is set.
     *
     * @return the clock's reading when the wait ended: at or after the deadline unless stopped. The
     *         worker takes it as the operation's actual start, saving a clock read per operation.
     */
    public abstract long await(long deadlineNs, NanoClock clock, StopSignal stop);

    /** A waiter for one worker thread: the strategy itself, or for {@link #ADAPTIVE} one that learns. */
    public Waiter newWaiter() {
        return this::await;
    }

    /** Parses {@code adaptive}, {@code park}, {@code spin} or {@code hybrid}. */
    public static WaitStrategy parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }

    static long park(long deadlineNs, NanoClock clock, StopSignal stop) {
        long now;
        while (deadlineNs - (now = clock.nanoTime()) > 0 && !stop.isStopped()) {
            LockSupport.parkNanos(Math.min(deadlineNs - now, MAX_PARK_NS));
        }
        return now;
    }

    static long spin(long deadlineNs, NanoClock clock, StopSignal stop) {
        long now;
        while (deadlineNs - (now = clock.nanoTime()) > 0 && !stop.isStopped()) {
            Thread.onSpinWait();
        }
        return now;
    }
}
