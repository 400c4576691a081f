package io.loadgen.drivers.stwmockdb;

import io.loadgen.core.driver.DriverProperties;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ModeTableTest {

    /** Powers of two, so every slice boundary is exact in binary: [0, .5) [.5, .75) [.75, .875) [.875, 1). */
    private final ModeTable halves = new ModeTable(new double[] {0.5, 0.25, 0.125, 0.125});

    @Test
    void eachSliceStartsAtItsLowerBoundInclusive() {
        assertEquals(Mode.FAST, halves.pick(0.0));
        assertEquals(Mode.SLOW, halves.pick(0.5));
        assertEquals(Mode.HICCUP, halves.pick(0.75));
        assertEquals(Mode.STOP_THE_WORLD, halves.pick(0.875));
    }

    @Test
    void eachSliceEndsJustBelowTheNextBound() {
        assertEquals(Mode.FAST, halves.pick(Math.nextDown(0.5)));
        assertEquals(Mode.SLOW, halves.pick(Math.nextDown(0.75)));
        assertEquals(Mode.HICCUP, halves.pick(Math.nextDown(0.875)));
        assertEquals(Mode.STOP_THE_WORLD, halves.pick(Math.nextDown(1.0)));
    }

    @Test
    void modeWithZeroProbabilityIsNeverPicked() {
        ModeTable stwOnly = new ModeTable(new double[] {0, 0, 0, 1});
        assertEquals(Mode.STOP_THE_WORLD, stwOnly.pick(0.0));
        assertEquals(Mode.STOP_THE_WORLD, stwOnly.pick(Math.nextDown(1.0)));
        ModeTable noHiccup = new ModeTable(new double[] {0.5, 0, 0.5, 0});
        assertEquals(Mode.HICCUP, noHiccup.pick(0.5));
    }

    @Test
    void roundingInTheSumCannotPickATrailingZeroMode() {
        // 0.7 + 0.2 + 0.1 is 0.9999999999999999 in doubles, so a naive table would give the top
        // sliver of [0, 1) to STOP_THE_WORLD although its probability is 0.
        assertTrue(0.7 + 0.2 + 0.1 < 1.0);
        ModeTable table = new ModeTable(new double[] {0.7, 0.2, 0.1, 0});
        assertEquals(Mode.HICCUP, table.pick(Math.nextDown(1.0)));
    }

    @Test
    void defaultMixIsDrawnInItsStatedProportions() {
        StwMockDbSettings defaults = StwMockDbSettings.from(
                DriverProperties.of("stw-mockdb", StwMockDbSettings.SPECS, Map.of()));
        ModeTable table = new ModeTable(defaults.probabilities);
        int n = 1_000_000;
        long[] counts = new long[Mode.VALUES.length];
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < n; i++) {
            counts[table.pick(random.nextDouble()).ordinal()]++;
        }
        // Binomial sd of each count is sqrt(n p (1-p)):
        //   fast   p=0.9     expect 900000, sd 300  -> 1%  (9000) is 30 sd
        //   slow   p=0.09    expect  90000, sd 286  -> 1%  (900)  is 3.1 sd
        //   hiccup p=0.0099  expect   9900, sd  99  -> 5%  (495)  is 5 sd
        //   stw    p=0.0001  expect    100, sd  10  -> 50% (50)   is 5 sd
        // The seed is fixed, so the outcome is the same on every run; the bounds only say the
        // chosen seed is not special.
        assertWithin(900_000, counts[Mode.FAST.ordinal()], 0.01);
        assertWithin(90_000, counts[Mode.SLOW.ordinal()], 0.01);
        assertWithin(9_900, counts[Mode.HICCUP.ordinal()], 0.05);
        assertWithin(100, counts[Mode.STOP_THE_WORLD.ordinal()], 0.5);
    }

    private static void assertWithin(long expected, long actual, double relative) {
        assertTrue(Math.abs(actual - expected) <= expected * relative,
                "expected " + expected + " within " + relative * 100 + "%, got " + actual);
    }
}
