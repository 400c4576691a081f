package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ScrambledZipfianGeneratorTest {

    @Test
    void precomputedZetanIsZetaOfTenToTheTenItems() {
        // sum_{i=1..N} i^-s: first M terms exactly, the rest by Euler-Maclaurin (integral, half ends, first derivative).
        double s = 0.99;
        int m = 100_000;
        double n = 1e10;
        double head = Draws.zetaByHand(m, s);
        double tail = (Math.pow(n, 1 - s) - Math.pow(m, 1 - s)) / (1 - s)
                + (Math.pow(n, -s) - Math.pow(m, -s)) / 2
                + (-s * Math.pow(n, -s - 1) + s * Math.pow(m, -s - 1)) / 12;
        assertEquals(head + tail, ScrambledZipfianGenerator.ZETAN, 1e-9);
    }

    @Test
    void mostPopularKeyIsTheHashOfRankZeroNotTheFirstKey() {
        int draws = 1_000_000;
        long[] counts = Draws.counts(new ScrambledZipfianGenerator(1000, 1999, new SplittableRandom(21)), 1000, 1999, draws);
        long top = 1000 + Draws.argMax(counts);
        assertEquals(1000 + Fnv.hash64(0) % 1000, top);
        assertNotEquals(1000, top, "popular keys are scattered, not clustered at min");
    }

    @Test
    void topKeyShareIsRankZerosShareOfTenToTheTenItems() {
        int draws = 1_000_000;
        long[] counts = Draws.counts(new ScrambledZipfianGenerator(0, 999, new SplittableRandom(22)), 0, 999, draws);
        double share = counts[Draws.argMax(counts)] / (double) draws;
        // Rank 0 alone is 1/ZETAN (3.78%); the folded tail adds about 1/1000 of the rest to each key.
        double rankZero = 1.0 / ScrambledZipfianGenerator.ZETAN;
        assertEquals(rankZero + (1 - rankZero) / 1000, share, 0.01);
        assertTrue(share > rankZero - 0.002, "share " + share);
    }

    @Test
    void sameSeedGivesSameKeys() {
        ScrambledZipfianGenerator a = new ScrambledZipfianGenerator(0, 99_999, new SplittableRandom(3));
        ScrambledZipfianGenerator b = new ScrambledZipfianGenerator(0, 99_999, new SplittableRandom(3));
        for (int i = 0; i < 10_000; i++) {
            assertEquals(a.next(), b.next());
        }
    }
}
