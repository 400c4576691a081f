package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZipfianGeneratorTest {
    private static final int DRAWS = 1_000_000;

    @Test
    void mostPopularItemShareIsOneOverZetan() {
        long[] counts = Draws.counts(new ZipfianGenerator(0, 999, 0.99, new SplittableRandom(11)), 0, 999, DRAWS);
        double expected = 1.0 / Draws.zetaByHand(1000, 0.99); // about 0.134
        assertEquals(expected, counts[0] / (double) DRAWS, 0.01);
        // Item 1 is also exact in Gray's algorithm: 2^-theta / zetan.
        assertEquals(Math.pow(2, -0.99) * expected, counts[1] / (double) DRAWS, 0.01);
    }

    @Test
    void frequencyDecreasesWithRankForTheTopItems() {
        long[] counts = Draws.counts(new ZipfianGenerator(0, 999, 0.99, new SplittableRandom(12)), 0, 999, DRAWS);
        for (int rank = 1; rank < 6; rank++) {
            assertTrue(counts[rank] < counts[rank - 1], "rank " + rank + ": " + counts[rank] + " vs " + counts[rank - 1]);
        }
    }

    @Test
    void offsetRangeMakesMinTheMostPopular() {
        long[] counts = Draws.counts(new ZipfianGenerator(500, 1499, new SplittableRandom(13)), 500, 1499, 200_000);
        assertEquals(0, Draws.argMax(counts));
    }

    @Test
    void precomputedZetanGivesTheSameSequence() {
        ZipfianGenerator computed = new ZipfianGenerator(0, 9999, 0.99, new SplittableRandom(5));
        ZipfianGenerator shared = new ZipfianGenerator(0, 9999, 0.99, Draws.zetaByHand(10_000, 0.99), new SplittableRandom(5));
        for (int i = 0; i < 10_000; i++) {
            assertEquals(computed.next(), shared.next());
        }
    }

    @Test
    void zetaIsTheSumOfInversePowersAndExtendsIncrementally() {
        assertEquals(Draws.zetaByHand(1000, 0.99), ZipfianGenerator.zeta(1000, 0.99), 1e-12);
        double first600 = ZipfianGenerator.zeta(600, 0.5);
        assertEquals(Draws.zetaByHand(1000, 0.5), ZipfianGenerator.zeta(600, 1000, 0.5, first600), 1e-12);
    }

    @Test
    void rejectsThetaOutsideOpenUnitInterval() {
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(0, 9, 1.0, new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(0, 9, 0.0, new SplittableRandom(1)));
    }
}
