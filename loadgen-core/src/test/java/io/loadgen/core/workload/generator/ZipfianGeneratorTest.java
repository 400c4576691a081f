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

    /** Gray's draw exactly as YCSB writes it, with {@link Math#pow}: the reference for the squaring shortcut. */
    private static long grayWithMathPow(SplittableRandom random, long items, double theta, double zetan) {
        double alpha = 1.0 / (1.0 - theta);
        double eta = (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - ZipfianGenerator.zeta(2, theta) / zetan);
        double u = random.nextDouble();
        double uz = u * zetan;
        if (uz < 1.0) {
            return 0;
        }
        if (uz < 1.0 + Math.pow(0.5, theta)) {
            return 1;
        }
        return (long) (items * Math.pow(eta * u - eta + 1, alpha));
    }

    @Test
    void squaringForAnIntegerExponentDrawsMathPowsRanksToRounding() {
        // YCSB's ranks: 10^10 + 1 items, theta 0.99, alpha = 100 (99.99999999999991), raised by squaring.
        // Both x^100 and Math.pow(x, alpha) carry a relative error near 1e-14 (the base's rounding times 100),
        // so a rank r can move by at most 1, and only when r * 1e-14 spans the next integer: the mean rank
        // is about 10^10 * 1.26 / 26.5 / 1.01 = 4.7e8, so at most about 1 draw in 2e5 (5 in 10^6; seed 9 gives
        // 11 in 10^7). Allow 100.
        long items = ScrambledZipfianGenerator.ITEM_COUNT + 1;
        double zetan = ScrambledZipfianGenerator.ZETAN;
        ZipfianGenerator squared = new ZipfianGenerator(0, items - 1, 0.99, zetan, new SplittableRandom(9));
        SplittableRandom reference = new SplittableRandom(9);
        int differ = 0;
        for (int i = 0; i < DRAWS; i++) {
            long expected = grayWithMathPow(reference, items, 0.99, zetan);
            long actual = squared.next();
            assertTrue(Math.abs(actual - expected) <= 1, "draw " + i + ": " + actual + " vs " + expected);
            differ += actual != expected ? 1 : 0;
        }
        assertTrue(differ <= 100, differ + " of " + DRAWS + " draws differ from Math.pow's");
    }

    @Test
    void aNonIntegerExponentUsesMathPowExactly() {
        // theta 0.7: alpha = 3.33..., not an integer, so every draw is the reference's.
        double zetan = ZipfianGenerator.zeta(100_000, 0.7);
        ZipfianGenerator generator = new ZipfianGenerator(0, 99_999, 0.7, zetan, new SplittableRandom(10));
        SplittableRandom reference = new SplittableRandom(10);
        for (int i = 0; i < 100_000; i++) {
            assertEquals(grayWithMathPow(reference, 100_000, 0.7, zetan), generator.next());
        }
    }

    @Test
    void integerExponentsAreThoseWithinRoundingOfAnInteger() {
        assertEquals(100, ZipfianGenerator.integerExponent(1.0 / (1.0 - 0.99)));
        assertEquals(2, ZipfianGenerator.integerExponent(1.0 / (1.0 - 0.5)));
        assertEquals(10, ZipfianGenerator.integerExponent(1.0 / (1.0 - 0.9)));
        assertEquals(0, ZipfianGenerator.integerExponent(1.0 / (1.0 - 0.7)), "3.33...");
        assertEquals(0, ZipfianGenerator.integerExponent(100.001), "not within rounding");
        assertEquals(0, ZipfianGenerator.integerExponent(1.0 / (1.0 - 0.9999)), "10,000: past the squaring bits");
    }

    @Test
    void rejectsThetaOutsideOpenUnitInterval() {
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(0, 9, 1.0, new SplittableRandom(1)));
        assertThrows(IllegalArgumentException.class, () -> new ZipfianGenerator(0, 9, 0.0, new SplittableRandom(1)));
    }
}
