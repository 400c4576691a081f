package io.loadgen.core.trace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's (or issuer's) bounded ring of trace rows: the recording path {@link #offer}s each completed
 * operation's times, op type and status as primitive longs, and the {@link TraceWriter}'s thread
 * {@link #drain}s them. Producers: the worker's own thread ({@code multiProducer == false}), or, for an async
 * issuer whose completions run on several threads, any number of threads. Consumer: the writer thread only.
 *
 * <p>Preallocated, lock-free and wait-free for producers: an offer writes four longs into the row it claims and
 * publishes it with one ordered store of the row's sequence number (the row's first long), which the consumer
 * reads with acquire semantics; a single producer claims with a plain increment, several with a compare-and-set on
 * the tail. The consumer gives rows back by an ordered store of its head once per drained batch.
 *
 * <p>A full ring drops the row and counts it ({@link #dropped()}): a worker never waits for the writer, since the
 * wait would be the harness's and would show in the very latencies traced. Nothing on the offer path allocates,
 * locks or does I/O.
 */
public final class TraceRing {
    /** Longs per row: sequence + 1 (published last), intended start, actual start, end, {@code type << 16 | status}. */
    static final int ROW_LONGS = 5;
    /** Bytes one row takes in the ring. */
    public static final long ROW_BYTES = ROW_LONGS * Long.BYTES;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle TAIL;
    private static final VarHandle DROPPED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            TAIL = lookup.findVarHandle(TraceRing.class, "tail", long.class);
            DROPPED = lookup.findVarHandle(TraceRing.class, "dropped", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] rows;
    private final int mask;
    private final int capacity;
    private final boolean multiProducer;
    private final int worker;

    /** Next sequence to claim. Single producer: plain, its thread only; several: compare-and-set. */
    private long tail;
    /** The single producer's last view of the consumer's head, refreshed only when the ring looks full. */
    private long headSeen;
    private long dropped;
    /**
     * The consumer's head (the next sequence to read) at {@link #HEAD_AT}, alone on its cache line(s), so that the
     * consumer's stores to it do not evict the fields every offer reads. Written by the consumer (ordered), read by
     * producers when the ring looks full.
     */
    private final long[] headCell = new long[2 * HEAD_AT];
    /** Eight unused longs before the head in {@link #headCell} and seven after: nothing else shares its cache line. */
    private static final int HEAD_AT = 8;

    /**
     * @param capacity      rows, a power of two
     * @param multiProducer true when rows are offered from more than one thread (async completions)
     * @param worker        the worker's (or issuer's) index, written as the row's {@code worker} column
     */
    public TraceRing(int capacity, boolean multiProducer, int worker) {
        if (capacity <= 0 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, not " + capacity);
        }
        this.rows = new long[capacity * ROW_LONGS];
        this.mask = capacity - 1;
        this.capacity = capacity;
        this.multiProducer = multiProducer;
        this.worker = worker;
    }

    /**
     * Appends one completed operation, or counts it dropped when the ring is full. Times are the recorders'
     * {@code nanoTime} readings. Producer threads; never blocks.
     */
    public void offer(int type, int status, long intendedStartNs, long actualStartNs, long endNs) {
        long seq = multiProducer ? claimShared() : claimOwn();
        if (seq < 0) {
            return;
        }
        int at = (int) (seq & mask) * ROW_LONGS;
        long[] r = rows;
        r[at + 1] = intendedStartNs;
        r[at + 2] = actualStartNs;
        r[at + 3] = endNs;
        r[at + 4] = ((long) type << 16) | status;
        SLOT.setRelease(r, at, seq + 1);
    }

    /** The next sequence for the single producer, or -1 (counted dropped) when the ring is full. */
    private long claimOwn() {
        long seq = tail;
        if (seq - headSeen >= capacity) {
            headSeen = (long) SLOT.getAcquire(headCell, HEAD_AT);
            if (seq - headSeen >= capacity) {
                DROPPED.setOpaque(this, dropped + 1);
                return -1;
            }
        }
        tail = seq + 1;
        return seq;
    }

    /** The next sequence for one of several producers, or -1 (counted dropped) when the ring is full. */
    private long claimShared() {
        while (true) {
            long seq = (long) TAIL.getVolatile(this);
            if (seq - (long) SLOT.getAcquire(headCell, HEAD_AT) >= capacity) {
                DROPPED.getAndAdd(this, 1L);
                return -1;
            }
            if (TAIL.compareAndSet(this, seq, seq + 1)) {
                return seq;
            }
        }
    }

    /** Receives drained rows on the writer thread. */
    @FunctionalInterface
    public interface RowHandler {
        void row(int worker, int type, int status, long intendedStartNs, long actualStartNs, long endNs);
    }

    /**
     * Hands every published row to {@code handler}, in the order they were claimed, up to {@code max}; a row
     * claimed but not yet published ends the batch (it comes next time). Consumer thread only.
     *
     * @return how many rows were drained
     */
    public int drain(RowHandler handler, int max) {
        // Fields read once into locals: each acquire below keeps later reads from moving above it, so a field read in
        // the loop would be read again per row from the cache line the producer's tail is stored to per offer.
        long h = headCell[HEAD_AT];
        final long[] r = rows;
        final int m = mask;
        final int w = worker;
        int n = 0;
        while (n < max) {
            int at = (int) (h & m) * ROW_LONGS;
            if ((long) SLOT.getAcquire(r, at) != h + 1) {
                break;
            }
            long packed = r[at + 4];
            handler.row(w, (int) (packed >>> 16), (int) (packed & 0xFFFF), r[at + 1], r[at + 2], r[at + 3]);
            h++;
            n++;
        }
        if (n > 0) {
            SLOT.setRelease(headCell, HEAD_AT, h);
        }
        return n;
    }

    /** Rows dropped because the ring was full; any thread (exact once the producers have stopped). */
    public long dropped() {
        return (long) DROPPED.getOpaque(this);
    }

    /** Rows this ring holds at most. */
    public int capacity() {
        return capacity;
    }
}
