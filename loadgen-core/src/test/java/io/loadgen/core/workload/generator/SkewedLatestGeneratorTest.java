package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SkewedLatestGeneratorTest {

    private static KeyCounter counterWithInserted(int keys) {
        KeyCounter counter = new KeyCounter(0, 1024);
        for (int i = 0; i < keys; i++) {
            counter.acknowledge(counter.next());
        }
        return counter;
    }

    @Test
    void lastInsertedKeyIsTheModeWithZipfianShare() {
        KeyCounter counter = counterWithInserted(1000);
        int draws = 1_000_000;
        long[] counts = Draws.counts(new SkewedLatestGenerator(counter, new SplittableRandom(31)), 0, 999, draws);
        assertEquals(999, Draws.argMax(counts));
        assertEquals(1.0 / Draws.zetaByHand(1000, 0.99), counts[999] / (double) draws, 0.01);
        assertTrue(counts[998] > counts[997] && counts[997] > counts[996], "recent keys are more popular");
        assertTrue(counts[0] > 0, "the oldest key is reachable");
    }

    @Test
    void followsAcknowledgedInsertsOnly() {
        KeyCounter counter = counterWithInserted(100);
        SkewedLatestGenerator latest = new SkewedLatestGenerator(counter, new SplittableRandom(32));
        long inFlight = counter.next();  // key 100 taken, not acknowledged
        long acked = counter.next();     // key 101 acknowledged out of order
        counter.acknowledge(acked);
        long[] before = Draws.counts(latest, 0, 99, 100_000);
        assertEquals(99, Draws.argMax(before), "keys 100 and 101 are not readable until 100 is acknowledged");

        counter.acknowledge(inFlight);
        long[] after = Draws.counts(latest, 0, 101, 100_000);
        assertEquals(101, Draws.argMax(after));
        assertEquals(1.0 / Draws.zetaByHand(102, 0.99), after[101] / 100_000.0, 0.01);
    }

    @Test
    void needsAtLeastOneInsertedKey() {
        assertThrows(IllegalArgumentException.class,
                () -> new SkewedLatestGenerator(new KeyCounter(0, 16), new SplittableRandom(1)));
    }
}
