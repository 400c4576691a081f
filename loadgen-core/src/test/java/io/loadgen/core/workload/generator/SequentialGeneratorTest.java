package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class SequentialGeneratorTest {

    @Test
    void walksTheRangeAndWraps() {
        SequentialGenerator g = new SequentialGenerator(10, 13);
        long[] seen = new long[6];
        for (int i = 0; i < seen.length; i++) {
            seen[i] = g.next();
        }
        assertArrayEquals(new long[] {10, 11, 12, 13, 10, 11}, seen);
    }

    @Test
    void twoThreadsSharingThePositionDrawEachValueOncePerCycle() throws InterruptedException {
        AtomicLong position = new AtomicLong();
        int cycles = 1000;
        long[][] counts = new long[2][10];
        Thread[] threads = new Thread[2];
        for (int t = 0; t < 2; t++) {
            SequentialGenerator mine = new SequentialGenerator(100, 109, position);
            long[] myCounts = counts[t];
            threads[t] = new Thread(() -> {
                for (int i = 0; i < cycles * 10 / 2; i++) {
                    myCounts[(int) (mine.next() - 100)]++;
                }
            });
            threads[t].start();
        }
        for (Thread t : threads) {
            t.join();
        }
        for (int v = 0; v < 10; v++) {
            assertEquals(cycles, counts[0][v] + counts[1][v], "value " + (100 + v));
        }
    }
}
