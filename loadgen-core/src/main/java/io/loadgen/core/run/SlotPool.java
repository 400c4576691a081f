package io.loadgen.core.run;

import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.workload.OperationSequence;
import org.jctools.queues.MpscArrayQueue;

/**
 * One async issuer's in-flight slots: each {@link Slot} is the {@link Completion} of one operation in
 * flight, and records it when the driver completes it. The issuer (one thread, or one event loop) takes
 * slots with {@link #poll()}; completions, on any thread, give them back and then call the pool's
 * {@link Runnable} {@code onFree} hook, which the issuer uses to be woken when it waits for a slot.
 *
 * <p>Nothing here allocates or locks after construction: slots are preallocated and recycled through a
 * bounded lock-free MPSC queue (completions offer, the issuer polls).
 */
final class SlotPool {
    /** How long an issuer waits at the end of its run for the operations still in flight. */
    static final long DRAIN_TIMEOUT_NS = java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    /**
     * How long the operations in flight are waited for when the run was stopped early (Ctrl-C, SIGTERM, a gate's
     * abort): 1 s, so a stop against a target that stopped answering still ends within seconds; what is still in
     * flight then is counted as such, not measured.
     */
    static final long STOPPED_DRAIN_TIMEOUT_NS = java.util.concurrent.TimeUnit.SECONDS.toNanos(1);

    /** How long to wait for the operations in flight: {@link #STOPPED_DRAIN_TIMEOUT_NS} after a stop, else 10 s. */
    static long drainTimeoutNs(io.loadgen.core.StopSignal stop) {
        return stop.isStopped() ? STOPPED_DRAIN_TIMEOUT_NS : DRAIN_TIMEOUT_NS;
    }

    private final MpscArrayQueue<Slot> free;
    private final int size;
    private final WorkerRecorders recorders;
    private final OperationSequence sequence;
    private final NanoClock clock;
    private final Runnable onFree;

    SlotPool(int size, WorkerRecorders recorders, OperationSequence sequence, NanoClock clock, Runnable onFree) {
        this.size = size;
        this.recorders = recorders;
        this.sequence = sequence;
        this.clock = clock;
        this.onFree = onFree;
        this.free = new MpscArrayQueue<>(size);
        for (int i = 0; i < size; i++) {
            free.add(new Slot());
        }
    }

    /** A free slot, or null when all are in flight. Issuer only. */
    Slot poll() {
        return free.poll();
    }

    /** Gives back a slot that was taken but not used. Issuer only. */
    void release(Slot slot) {
        free.offer(slot);
    }

    /** Operations in flight now (approximate while completions run). */
    int inFlight() {
        return size - free.size();
    }

    int size() {
        return size;
    }

    /**
     * Submits {@code op} with {@code slot} as its completion; a driver that throws completes it with
     * {@link Status#ERROR} here, after {@code onError} has seen the exception. Issuer only.
     */
    static void submit(io.loadgen.core.driver.AsyncDriver driver, io.loadgen.core.driver.Operation op, Slot slot,
                       java.util.function.Consumer<Throwable> onError) {
        try {
            driver.submit(op, slot);
        } catch (Throwable t) {
            onError.accept(t);
            slot.complete(Status.ERROR);
        }
    }

    /**
     * One in-flight operation's timestamps, and its {@link Completion}: armed by the issuer before submit
     * (the driver's hand-off publishes the fields), completed once on any thread.
     */
    final class Slot implements Completion {
        private int type;
        private long key;
        private long intendedNs;
        private long startNs;
        private long lagNs;
        private long delayNs;

        void arm(int type, long key, long intendedNs, long startNs, long lagNs, long delayNs) {
            this.type = type;
            this.key = key;
            this.intendedNs = intendedNs;
            this.startNs = startNs;
            this.lagNs = lagNs;
            this.delayNs = delayNs;
        }

        @Override
        public void complete(Status status) {
            long endNs = clock.nanoTime();
            recorders.record(type, intendedNs, startNs, endNs, lagNs, delayNs, (status != null ? status : Status.ERROR).ordinal());
            sequence.completed(type, key);
            free.offer(this);
            onFree.run();
        }
    }
}
