package io.loadgen.drivers.ping;

import io.loadgen.core.driver.Completion;

/**
 * The requests one connection has in flight, by sequence number: a ring of completions and their
 * deadlines, preallocated, so tracking a request allocates nothing. Confined to the connection's event
 * loop (not thread-safe).
 *
 * <p>Sequence numbers are handed out in send order, so deadlines rise with them: the oldest pending
 * request is always the first to expire. The live window {@code [tail, head)} never exceeds the
 * capacity, so {@code seq & mask} names one slot without storing the sequence.
 */
final class PendingPings {
    private final Completion[] completions;
    private final long[] deadlinesNs;
    private final int mask;
    /** Oldest sequence not yet resolved (its slot may already be empty). */
    private long tail;
    /** Next sequence to hand out. */
    private long head;

    /** @param capacity most requests in flight; a power of two */
    PendingPings(int capacity) {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacity);
        }
        this.completions = new Completion[capacity];
        this.deadlinesNs = new long[capacity];
        this.mask = capacity - 1;
    }

    /** Tracks a request; returns its sequence number, or -1 when {@code capacity} are already in flight. */
    long add(Completion completion, long deadlineNs) {
        if (head - tail > mask) {
            return -1;
        }
        long seq = head++;
        int slot = (int) seq & mask;
        completions[slot] = completion;
        deadlinesNs[slot] = deadlineNs;
        return seq;
    }

    /** Stops tracking {@code seq} and returns its completion, or null when it is not in flight (late or unknown). */
    Completion remove(long seq) {
        if (seq < tail || seq >= head) {
            return null;
        }
        int slot = (int) seq & mask;
        Completion c = completions[slot];
        completions[slot] = null;
        skipResolved();
        return c;
    }

    /** Removes and returns the oldest request whose deadline is at or before {@code nowNs}, or null. */
    Completion pollExpired(long nowNs) {
        if (tail == head) {
            return null;
        }
        int slot = (int) tail & mask;
        if (deadlinesNs[slot] - nowNs > 0) {
            return null;
        }
        return remove(tail);
    }

    /** Removes and returns the oldest request in flight, or null when none is. */
    Completion poll() {
        return tail == head ? null : remove(tail);
    }

    /** Requests in flight. */
    int size() {
        int n = 0;
        for (long s = tail; s < head; s++) {
            if (completions[(int) s & mask] != null) {
                n++;
            }
        }
        return n;
    }

    private void skipResolved() {
        while (tail < head && completions[(int) tail & mask] == null) {
            tail++;
        }
    }
}
