package io.loadgen.core.run;

import io.loadgen.core.trace.TraceRing;

import java.util.concurrent.locks.LockSupport;

/**
 * For the benchmarks of {@code --trace}'s cost to a worker: a daemon thread that drains one {@link TraceRing} as the
 * trace writer does (a batch of up to 4,096 rows, or a 1 ms sleep when it is empty) but throws the rows away, so
 * only the worker's side is measured. Started by {@link #start}, stopped by {@link #close}; the benchmark's thread.
 */
final class TraceDrainer implements AutoCloseable {
    private static final TraceRing.RowHandler IGNORE = (worker, type, status, intendedNs, startNs, endNs) -> { };
    private final Thread thread;
    private volatile boolean running = true;

    private TraceDrainer(TraceRing ring) {
        thread = new Thread(() -> {
            while (running) {
                if (ring.drain(IGNORE, 4096) == 0) {
                    LockSupport.parkNanos(1_000_000L);
                }
            }
        }, "trace-drainer");
        thread.setDaemon(true);
    }

    static TraceDrainer start(TraceRing ring) {
        TraceDrainer d = new TraceDrainer(ring);
        d.thread.start();
        return d;
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
    }
}
