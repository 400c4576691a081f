package io.loadgen.drivers.support;

import java.util.concurrent.locks.LockSupport;

/**
 * Sleeps the calling thread until a {@link System#nanoTime()} deadline; used by mock drivers on
 * worker threads to model how long a store takes. Stateless; any thread.
 *
 * <p>Parks rather than spins, so a mock store costs no CPU while it "works". The price is the
 * operating system's wake-up latency: on Linux a park typically returns some tens of microseconds
 * after the deadline, never before it. Allocates nothing unless interrupted.
 */
public final class Sleeper {

    private Sleeper() {
    }

    /**
     * Returns once {@code System.nanoTime()} has reached {@code deadlineNs}; at once if it already has.
     *
     * @throws InterruptedException if the thread is interrupted while waiting (the flag is cleared)
     */
    public static void sleepUntil(long deadlineNs) throws InterruptedException {
        long remainingNs;
        while ((remainingNs = deadlineNs - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remainingNs);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while sleeping until a deadline");
            }
        }
    }
}
