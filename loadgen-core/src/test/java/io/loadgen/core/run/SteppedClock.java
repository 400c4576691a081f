package io.loadgen.core.run;

import io.loadgen.core.time.ManualNanoClock;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * A manual clock that a test's driver moves, one operation at a time, and that stops at each interval
 * boundary the test expects until the run's aggregator has closed the interval ending there. Every
 * interval then holds exactly the operations that completed before its end, whatever the machine's
 * speed. Add it to the run as a sink ({@link LoadRun#addSink}); it keeps what it saw of each interval.
 *
 * <p>The clock starts at 0, so a run's t0 is {@link LoadRun#START_LEAD_NS}. A boundary the aggregator
 * never closes is recorded as missed after {@value #WAIT_SECONDS} s, and the test sees it in {@link #closed()}.
 */
final class SteppedClock implements IntervalSink {
    static final long T0_NS = LoadRun.START_LEAD_NS;
    private static final long WAIT_SECONDS = 10;

    /** What a test asserts of one closed interval, copied out of its snapshot; times relative to t0. */
    record Closed(long startNs, long endNs, boolean measured, boolean partial, long operations, long failures) {
    }

    final ManualNanoClock clock = new ManualNanoClock(0);
    private final long[] boundariesNs;
    private final Semaphore closedPermits = new Semaphore(0);
    private final List<Closed> closed = Collections.synchronizedList(new ArrayList<>());
    private int next;

    /** @param boundariesNs where the test expects intervals to end before the last one, from t0, ascending */
    SteppedClock(long... boundariesNs) {
        this.boundariesNs = boundariesNs.clone();
    }

    /**
     * Moves the clock to {@code t0 + offsetNs}, first stopping at each expected boundary on the way until
     * its interval is closed. Called by the driver (one worker thread).
     */
    void advanceTo(long offsetNs) {
        while (next < boundariesNs.length && offsetNs >= boundariesNs[next]) {
            clock.set(T0_NS + boundariesNs[next]);
            try {
                if (!closedPermits.tryAcquire(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    closed.add(new Closed(-1, boundariesNs[next], false, false, -1, -1)); // missed: the test fails
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            next++;
        }
        clock.set(T0_NS + offsetNs);
    }

    /** Where the clock stands, from t0. */
    long offsetNs() {
        return clock.nanoTime() - T0_NS;
    }

    @Override
    public void onInterval(IntervalSnapshot s) {
        long ops = 0;
        long failures = 0;
        for (IntervalSnapshot.Op op : s.operations()) {
            ops += op.operations();
            failures += op.failures();
        }
        closed.add(new Closed(s.startNs() - s.runStartNs(), s.endNs() - s.runStartNs(), s.measured(), s.partial(),
                ops, failures));
        if (!s.last()) {
            closedPermits.release();
        }
    }

    /** The intervals closed so far, in order. */
    List<Closed> closed() {
        synchronized (closed) {
            return List.copyOf(closed);
        }
    }
}
