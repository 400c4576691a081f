package io.loadgen.core.record;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * HdrHistogram's {@link org.HdrHistogram.WriterReaderPhaser} for exactly one writer thread: the same
 * even/odd epoch protocol, with the writer's exit a release store instead of a locked increment, which
 * saves one atomic read-modify-write per recorded operation on a blocking worker's hot path. The writer's
 * entry stays an atomic add, because the reader's flip swaps the same counter.
 *
 * <p>Why one writer makes the plain exit safe: an end epoch is written by the reader only to reset the
 * <em>next</em> phase's count, before it swaps the start epoch, when no writer can be inside that phase
 * (the previous flip waited them all out); and the writer's entry reads the swapped start epoch, so it
 * sees that reset before it writes the end epoch. Between resets, no thread but the writer writes its
 * phase's end epoch, so read-then-store loses no increment. The release store publishes the writes made
 * inside the critical section to the reader, whose wait reads the end epoch with volatile semantics.
 *
 * <p>Writer: one thread, {@link #writerCriticalSectionEnter()} then {@link #writerCriticalSectionExit};
 * wait-free, allocates nothing. Reader: any one thread at a time, {@link #readerLock()}, then
 * {@link #flipPhase(long)}, then {@link #readerUnlock()}, as with HdrHistogram's phaser.
 */
final class SingleWriterPhaser {
    private static final VarHandle START_EPOCH;
    private static final VarHandle EVEN_END_EPOCH;
    private static final VarHandle ODD_END_EPOCH;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            START_EPOCH = lookup.findVarHandle(SingleWriterPhaser.class, "startEpoch", long.class);
            EVEN_END_EPOCH = lookup.findVarHandle(SingleWriterPhaser.class, "evenEndEpoch", long.class);
            ODD_END_EPOCH = lookup.findVarHandle(SingleWriterPhaser.class, "oddEndEpoch", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long startEpoch = 0;
    private volatile long evenEndEpoch = 0;
    private volatile long oddEndEpoch = Long.MIN_VALUE;
    private final ReentrantLock readerLock = new ReentrantLock();

    /** Enters a write; returns the value to hand to {@link #writerCriticalSectionExit}. Writer thread only. */
    long writerCriticalSectionEnter() {
        return (long) START_EPOCH.getAndAdd(this, 1L);
    }

    /** Leaves the write entered with {@code atEnter}. Writer thread only. */
    void writerCriticalSectionExit(long atEnter) {
        if (atEnter < 0) {
            ODD_END_EPOCH.setRelease(this, (long) ODD_END_EPOCH.getOpaque(this) + 1);
        } else {
            EVEN_END_EPOCH.setRelease(this, (long) EVEN_END_EPOCH.getOpaque(this) + 1);
        }
    }

    /** Takes the reader's lock; only its holder may {@link #flipPhase}. */
    void readerLock() {
        readerLock.lock();
    }

    /** Releases the reader's lock. */
    void readerUnlock() {
        readerLock.unlock();
    }

    /**
     * Starts a new phase and waits until every write entered in the old one has left, parking
     * {@code parkNs} between checks (0: yield). The caller must hold the reader's lock.
     */
    void flipPhase(long parkNs) {
        if (!readerLock.isHeldByCurrentThread()) {
            throw new IllegalStateException("flipPhase() needs the reader's lock");
        }
        boolean nextPhaseIsEven = startEpoch < 0;
        long initialStartValue = nextPhaseIsEven ? 0 : Long.MIN_VALUE;
        if (nextPhaseIsEven) {
            evenEndEpoch = initialStartValue;
        } else {
            oddEndEpoch = initialStartValue;
        }
        long startValueAtFlip = (long) START_EPOCH.getAndSet(this, initialStartValue);
        while ((nextPhaseIsEven ? oddEndEpoch : evenEndEpoch) != startValueAtFlip) {
            if (parkNs == 0) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(parkNs);
            }
        }
    }
}
