package io.loadgen.core.trace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The trace ring's contract: rows come out once each, in order per producer; a full ring drops and counts. */
class TraceRingTest {
    /** Rows as drained: worker, type, status, intended, start, end. */
    private static List<long[]> drainAll(TraceRing ring) {
        List<long[]> rows = new ArrayList<>();
        while (ring.drain((w, type, status, i, s, e) -> rows.add(new long[]{w, type, status, i, s, e}), 7) > 0) {
            // batches of 7, so a drain crosses the ring's end
        }
        return rows;
    }

    @Test
    void rowsComeOutOnceEachInTheOrderTheyWereOffered() {
        TraceRing ring = new TraceRing(16, false, 3);
        for (int round = 0; round < 5; round++) { // 5 x 10 rows through 16 slots: the ring wraps
            for (int k = 0; k < 10; k++) {
                long n = round * 10L + k;
                ring.offer(k % 3, k % 2, n, n + 1, n + 2);
            }
            List<long[]> rows = drainAll(ring);
            assertEquals(10, rows.size());
            for (int k = 0; k < 10; k++) {
                long n = round * 10L + k;
                assertArrayEquals(new long[]{3, k % 3, k % 2, n, n + 1, n + 2}, rows.get(k));
            }
        }
        assertEquals(0, ring.dropped());
    }

    @Test
    void aFullRingDropsTheNewRowsAndCountsThem() {
        // 16 slots, 20 offers before any drain: the first 16 are kept, the last 4 dropped (the producer never waits).
        TraceRing ring = new TraceRing(16, false, 0);
        for (int k = 0; k < 20; k++) {
            ring.offer(0, 0, k, k, k);
        }
        List<long[]> rows = drainAll(ring);
        assertEquals(16, rows.size());
        assertEquals(15, rows.get(15)[3], "the first 16 were kept");
        assertEquals(4, ring.dropped());
        ring.offer(0, 0, 99, 99, 99); // drained: room again
        assertEquals(99, drainAll(ring).get(0)[3]);
        assertEquals(4, ring.dropped());
    }

    @Test
    void aSharedRingTakesRowsFromSeveralThreadsWhileDrained() throws Exception {
        // 4 producers x 200,000 rows into 1,024 slots, drained concurrently: every row comes out at most once, each
        // producer's in its own order, and drained + dropped = offered.
        int producers = 4;
        int perProducer = 200_000;
        TraceRing ring = new TraceRing(1024, true, 0);
        CountDownLatch done = new CountDownLatch(producers);
        for (int p = 0; p < producers; p++) {
            int type = p;
            Thread t = new Thread(() -> {
                for (long k = 0; k < perProducer; k++) {
                    ring.offer(type, 0, k, k, k);
                }
                done.countDown();
            });
            t.setDaemon(true);
            t.start();
        }
        long[] next = new long[producers];
        long[] drained = new long[1];
        boolean[] ordered = {true};
        TraceRing.RowHandler check = (w, type, status, i, s, e) -> {
            ordered[0] &= i >= next[type] && s == i && e == i;
            next[type] = i + 1;
            drained[0]++;
        };
        while (!done.await(0, TimeUnit.MILLISECONDS)) {
            ring.drain(check, 256);
        }
        while (ring.drain(check, 256) > 0) {
            // the rest
        }
        assertTrue(ordered[0], "each producer's rows in its order, none twice");
        assertEquals((long) producers * perProducer, drained[0] + ring.dropped());
        assertTrue(drained[0] >= 1024, "at least a ring's worth came through: " + drained[0]);
    }

    @Test
    void capacityMustBeAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new TraceRing(1000, false, 0));
    }
}
