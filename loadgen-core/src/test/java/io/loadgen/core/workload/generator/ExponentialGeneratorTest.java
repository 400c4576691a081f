package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExponentialGeneratorTest {

    @Test
    void percentileOfDrawsFallWithinFracOfTheRecords() {
        long records = 1_000_000;
        double range = records * ExponentialGenerator.DEFAULT_FRAC; // 857,142.86
        ExponentialGenerator g = ExponentialGenerator.forRecords(records, ExponentialGenerator.DEFAULT_PERCENTILE,
                ExponentialGenerator.DEFAULT_FRAC, new SplittableRandom(51));
        int draws = 1_000_000;
        int within = 0;
        for (int i = 0; i < draws; i++) {
            long v = g.next();
            assertTrue(v >= 0);
            if (v < range) {
                within++;
            }
        }
        assertEquals(0.95, within / (double) draws, 0.01);
    }

    @Test
    void gammaFollowsYcsbFormula() {
        // gamma = -ln(1 - 90/100) / 100, so the mean 1/gamma = 100 / ln 10.
        ExponentialGenerator g = new ExponentialGenerator(90, 100, new SplittableRandom(1));
        assertEquals(100 / Math.log(10), g.mean(), 1e-9);
    }

    @Test
    void rejectsPercentileOf100() {
        assertThrows(IllegalArgumentException.class, () -> new ExponentialGenerator(100, 10, new SplittableRandom(1)));
    }
}
