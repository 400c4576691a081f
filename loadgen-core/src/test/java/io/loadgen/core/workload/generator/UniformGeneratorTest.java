package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UniformGeneratorTest {

    @Test
    void coversEveryValueInclusiveWithEqualFrequencies() {
        int draws = 1_000_000;
        long[] counts = Draws.counts(new UniformGenerator(5, 14, new SplittableRandom(7)), 5, 14, draws);
        double expected = draws / 10.0;
        double chiSquare = 0;
        for (long c : counts) {
            assertTrue(c > 0, "every value in [lo, hi] is drawn, including both ends");
            chiSquare += (c - expected) * (c - expected) / expected;
        }
        // 9 degrees of freedom: P(chi^2 > 30) is about 0.0004.
        assertTrue(chiSquare < 30, "chi-square " + chiSquare);
    }

    @Test
    void singleValueRangeAlwaysReturnsIt() {
        UniformGenerator g = new UniformGenerator(3, 3, new SplittableRandom(1));
        for (int i = 0; i < 100; i++) {
            assertTrue(g.next() == 3);
        }
    }

    @Test
    void rejectsInvertedBounds() {
        assertThrows(IllegalArgumentException.class, () -> new UniformGenerator(2, 1, new SplittableRandom(1)));
    }
}
