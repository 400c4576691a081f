package io.loadgen.core.time;

/**
 * A source of {@link System#nanoTime()}-style timestamps, injected so tests can use a manual clock.
 * Implementations are safe to call from any thread.
 */
@FunctionalInterface
public interface NanoClock {
    /** The system clock. */
    NanoClock SYSTEM = System::nanoTime;

    long nanoTime();

    /**
     * How long, in real nanoseconds, a thread that waits for this clock to move {@code clockNs} forward
     * should block before it reads the clock again. The system clock: exactly that long. A clock that moves
     * only when told (a test's) is read again sooner, so a waiter sees it reach its deadline.
     */
    default long realWaitNs(long clockNs) {
        return clockNs;
    }
}
