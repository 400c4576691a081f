package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RemainderTest {

    private static void assertFloorMod(long divisor, long x) {
        assertEquals(Math.floorMod(x, divisor), new Remainder(divisor).of(x), x + " mod " + divisor);
    }

    @Test
    void equalsFloorModAtTheEdgesOfDividendAndDivisor() {
        long[] divisors = {1, 2, 3, 5, 7, 10, 1000, 1001, 1024, 1023, 1025, (1L << 32) - 1, 1L << 32, (1L << 32) + 1,
                10_000_000_001L, (1L << 62) + 1, Long.MAX_VALUE - 1, Long.MAX_VALUE, 1L << 62};
        long[] dividends = {0, 1, 2, 999, 1000, 1001, Long.MAX_VALUE, Long.MAX_VALUE - 1, 1L << 62, (1L << 62) - 1,
                Long.MIN_VALUE, -1, 6284781860667377211L};
        for (long d : divisors) {
            for (long x : dividends) {
                assertFloorMod(d, x);
            }
            // Just below and at each multiple near the top of the range, where a quotient off by one shows.
            long top = Long.MAX_VALUE / d * d;
            assertFloorMod(d, top);
            assertFloorMod(d, top - 1);
            assertFloorMod(d, d - 1);
        }
    }

    @Test
    void equalsFloorModForRandomDivisorsAndHashes() {
        SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 2_000; i++) {
            long d = Math.max(1, random.nextLong() >>> (1 + random.nextInt(63))); // every magnitude
            Remainder r = new Remainder(d);
            for (int j = 0; j < 200; j++) {
                long x = random.nextLong() >>> random.nextInt(64);
                assertEquals(Math.floorMod(x, d), r.of(x), x + " mod " + d);
            }
        }
    }

    @Test
    void rejectsANonPositiveDivisor() {
        assertThrows(IllegalArgumentException.class, () -> new Remainder(0));
        assertThrows(IllegalArgumentException.class, () -> new Remainder(-5));
    }
}
