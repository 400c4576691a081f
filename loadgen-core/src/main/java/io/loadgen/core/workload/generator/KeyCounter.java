package io.loadgen.core.workload.generator;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The run's insert-key numbers: hands out the next key to insert and reports the highest key
 * known inserted (YCSB's {@code AcknowledgedCounterGenerator}); shared, any thread may call any method.
 *
 * <p>A worker takes a key with {@link #next()}, inserts it, then calls {@link #acknowledge(long)}
 * whatever the insert's status (as YCSB does, so one failed insert cannot freeze the counter).
 * {@link #lastValue()} is the highest key {@code k} such that every key from the first up to
 * {@code k} has been acknowledged: reads never chase a key whose insert is still in flight, even
 * when inserts complete out of order.
 *
 * <p>Acknowledgements land in a ring of {@code window} slots, each holding the key last acknowledged
 * there. One acknowledging thread at a time (a try-flag, never waited on) moves {@code lastValue}
 * along the contiguous run of acknowledged keys; a thread that finds the flag taken leaves, and the
 * flag holder re-checks after releasing it, so no acknowledgement is left unseen. No locks, no
 * allocation. Storing keys rather than YCSB's booleans means a slot reused a window later is never
 * mistaken for an acknowledgement.
 *
 * <p>At most {@code window} keys past {@code lastValue} may be outstanding; acknowledging a key
 * further ahead throws {@link IllegalStateException} (YCSB throws too), so size the window above
 * the number of inserts ever in flight at once.
 */
public final class KeyCounter {
    /** YCSB's window, 2^20 keys (8 MiB of slots). */
    public static final int DEFAULT_WINDOW = 1 << 20;
    private static final long EMPTY = Long.MIN_VALUE;

    private final long firstKey;
    private final AtomicLong nextKey;
    private final AtomicLongArray acknowledged;
    private final int mask;
    private final AtomicInteger draining = new AtomicInteger();
    private volatile long lastValue;

    /** Keys from {@code firstKey} (YCSB: {@code insertstart + recordcount} for the run phase), window 2^20. */
    public KeyCounter(long firstKey) {
        this(firstKey, DEFAULT_WINDOW);
    }

    /**
     * @param firstKey the first key {@link #next()} returns, non-negative
     * @param window   most keys that may be outstanding past {@link #lastValue()}; a power of two
     */
    public KeyCounter(long firstKey, int window) {
        if (firstKey < 0) {
            throw new IllegalArgumentException("firstKey must be non-negative: " + firstKey);
        }
        if (window <= 0 || Integer.bitCount(window) != 1) {
            throw new IllegalArgumentException("window must be a positive power of two: " + window);
        }
        long[] slots = new long[window];
        Arrays.fill(slots, EMPTY);
        this.firstKey = firstKey;
        this.nextKey = new AtomicLong(firstKey);
        this.acknowledged = new AtomicLongArray(slots);
        this.mask = window - 1;
        this.lastValue = firstKey - 1;
    }

    /** Takes the next key to insert: {@code firstKey}, {@code firstKey + 1}, ... Lock-free. */
    public long next() {
        return nextKey.getAndIncrement();
    }

    /** The highest key with it and all keys before it acknowledged; {@code firstKey - 1} before any. */
    public long lastValue() {
        return lastValue;
    }

    /**
     * Marks {@code key}'s insert as done, making it (and any acknowledged keys after it) visible in
     * {@link #lastValue()} once all earlier keys are acknowledged. Lock-free; acknowledging twice is harmless.
     *
     * @throws IllegalArgumentException if {@code key} was never handed out by {@link #next()}
     * @throws IllegalStateException    if {@code key} is more than {@code window} keys past {@link #lastValue()}
     */
    public void acknowledge(long key) {
        if (key < firstKey || key >= nextKey.get()) {
            throw new IllegalArgumentException("key " + key + " was not handed out by next()");
        }
        if (key - lastValue > mask + 1) {
            throw new IllegalStateException("too many unacknowledged insert keys: " + key
                    + " is more than " + (mask + 1) + " past " + lastValue);
        }
        acknowledged.set(slot(key), key);
        advance();
    }

    /** Moves lastValue over the acknowledged run after it; returns at once if another thread is doing so. */
    private void advance() {
        do {
            if (!draining.compareAndSet(0, 1)) {
                // The holder re-reads our slot after releasing the flag (volatile order), so it sees our key.
                return;
            }
            long next = lastValue + 1;
            while (acknowledged.get(slot(next)) == next) {
                next++;
            }
            lastValue = next - 1;
            draining.set(0);
        } while (acknowledged.get(slot(lastValue + 1)) == lastValue + 1);
    }

    private int slot(long key) {
        return (int) (key & mask);
    }
}
