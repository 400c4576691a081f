package io.loadgen.core.wait;

import io.loadgen.core.StopSignal;
import io.loadgen.core.time.NanoClock;

/**
 * One worker's way of waiting for its next intended start, made by {@link WaitStrategy#newWaiter()}: a
 * strategy that learns ({@link WaitStrategy#ADAPTIVE}) keeps what it learned here, per thread.
 */
public interface Waiter {
    /**
     * Waits until {@code clock} reaches {@code deadlineNs} or {@code stop} is set.
     *
     * @return the clock's reading when the wait ended: at or after the deadline unless stopped
     */
    long await(long deadlineNs, NanoClock clock, StopSignal stop);

    /** Called once on the worker's own thread before its first wait. */
    default void onThreadStart() {
    }
}
