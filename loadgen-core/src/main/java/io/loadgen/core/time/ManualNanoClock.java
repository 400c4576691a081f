package io.loadgen.core.time;

/**
 * A clock that moves only when told to, for tests. Safe to read and advance from any thread.
 */
public final class ManualNanoClock implements NanoClock {
    private volatile long nowNs;

    public ManualNanoClock(long startNs) {
        this.nowNs = startNs;
    }

    @Override
    public long nanoTime() {
        return nowNs;
    }

    public synchronized void advance(long ns) {
        nowNs += ns;
    }

    public synchronized void set(long ns) {
        nowNs = ns;
    }
}
