package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class HotspotGeneratorTest {
    private static final int DRAWS = 1_000_000;

    @Test
    void hotSetGetsTheHotOperationFraction() {
        // [100, 1099]: 1000 values, hot set the first 20% = [100, 299], 80% of draws there.
        HotspotGenerator g = new HotspotGenerator(100, 1099, 0.2, 0.8, new SplittableRandom(41));
        assertEquals(200, g.hotSetSize());
        long[] counts = Draws.counts(g, 100, 1099, DRAWS);
        long hot = 0;
        for (int i = 0; i < 200; i++) {
            hot += counts[i];
        }
        assertEquals(0.8, hot / (double) DRAWS, 0.01);
    }

    @Test
    void hotSetEndsExactlyAtHotsetFractionOfTheRange() {
        HotspotGenerator g = new HotspotGenerator(0, 999, 0.2, 0.8, new SplittableRandom(42));
        long[] counts = Draws.counts(g, 0, 999, DRAWS);
        // Per-key shares: hot keys 0.8 / 200 = 0.004, cold keys 0.2 / 800 = 0.00025.
        assertEquals(0.004, counts[199] / (double) DRAWS, 0.0005, "last hot key");
        assertEquals(0.00025, counts[200] / (double) DRAWS, 0.0001, "first cold key");
        assertEquals(0.00025, counts[999] / (double) DRAWS, 0.0001, "last key");
    }

    @Test
    void emptyHotSetSendsEveryDrawCold() {
        HotspotGenerator g = new HotspotGenerator(0, 9, 0.05, 0.9, new SplittableRandom(43));
        assertEquals(0, g.hotSetSize());
        long[] counts = Draws.counts(g, 0, 9, 10_000);
        for (long c : counts) {
            assertEquals(0.1, c / 10_000.0, 0.02);
        }
    }

    @Test
    void rejectsFractionsOutsideUnitInterval() {
        assertThrows(IllegalArgumentException.class, () -> new HotspotGenerator(0, 9, 1.5, 0.5, new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> new HotspotGenerator(0, 9, 0.5, -0.1, new SplittableRandom(1)));
    }
}
