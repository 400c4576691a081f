package io.loadgen.core.run;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Where each worker stands in its schedule: the intended start of the operation it is waiting for or
 * running. Each worker publishes its own slot (one ordered write per operation, slots a cache line
 * apart so workers do not share lines); the sampler thread reads all slots to tell how far behind
 * schedule the run is.
 */
final class SchedulePosition {
    private static final int STRIDE = 16; // 16 longs = 128 bytes: no false sharing between workers
    private static final long IDLE = Long.MAX_VALUE;

    private final AtomicLongArray slots;
    private final int workers;

    SchedulePosition(int workers) {
        this.workers = workers;
        this.slots = new AtomicLongArray(workers * STRIDE);
        for (int w = 0; w < workers; w++) {
            slots.set(w * STRIDE, IDLE);
        }
    }

    /** Worker {@code w} is now on the operation intended at {@code intendedNs}. Worker thread only. */
    void publish(int w, long intendedNs) {
        slots.lazySet(w * STRIDE, intendedNs);
    }

    /** Worker {@code w} has stopped. Worker thread only. */
    void finish(int w) {
        slots.lazySet(w * STRIDE, IDLE);
    }

    /**
     * How long the oldest operation still waiting or running has been due at {@code nowNs}, in ns;
     * 0 when every worker is on time. Any thread.
     */
    long behindNs(long nowNs) {
        long oldest = 0;
        boolean any = false;
        for (int w = 0; w < workers; w++) {
            long v = slots.get(w * STRIDE);
            if (v != IDLE && (!any || v - oldest < 0)) { // wrap-safe: IDLE is a marker, never compared as a time
                oldest = v;
                any = true;
            }
        }
        return any ? Math.max(0, nowNs - oldest) : 0;
    }
}
