package io.loadgen.core.time;

/**
 * A clock that moves only when told to, for tests. Safe to read and advance from any thread. A thread
 * waiting for it to reach a time (the interval aggregator) reads it again at least every
 * {@link #POLL_NS} of real time.
 */
public final class ManualNanoClock implements NanoClock {
    /** The longest real time a waiter blocks before reading this clock again. */
    public static final long POLL_NS = 1_000_000L;

    private volatile long nowNs;

    public ManualNanoClock(long startNs) {
        this.nowNs = startNs;
    }

    @Override
    public long nanoTime() {
        return nowNs;
    }

    @Override
    public long realWaitNs(long clockNs) {
        return Math.min(clockNs, POLL_NS);
    }

    public synchronized void advance(long ns) {
        nowNs += ns;
    }

    public synchronized void set(long ns) {
        nowNs = ns;
    }
}
