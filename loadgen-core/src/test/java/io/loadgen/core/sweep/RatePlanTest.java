package io.loadgen.core.sweep;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RatePlanTest {
    @Test
    void linearStepsAreEvenlySpacedWithBothEndsIncluded() {
        // 1000 to 20000 in 10 steps: 9 gaps of 19000 / 9 = 2111.1 ops/s.
        List<Double> rates = RatePlan.spaced(1000, 20000, 10, RatePlan.Scale.LINEAR);
        assertEquals(10, rates.size());
        assertEquals(1000.0, rates.get(0));
        assertEquals(20000.0, rates.get(9));
        for (int i = 1; i < rates.size(); i++) {
            assertEquals(19000.0 / 9, rates.get(i) - rates.get(i - 1), 1e-9);
        }
        assertEquals("3111.1", RatePlan.format(rates.get(1)));
    }

    @Test
    void logStepsKeepAConstantRatio() {
        // 1000 to 8000 in 4 steps: ratio (8000/1000)^(1/3) = 2.
        List<Double> rates = RatePlan.spaced(1000, 8000, 4, RatePlan.Scale.LOG);
        assertEquals(1000.0, rates.get(0));
        assertEquals(2000.0, rates.get(1), 1e-9);
        assertEquals(4000.0, rates.get(2), 1e-9);
        assertEquals(8000.0, rates.get(3));
    }

    @Test
    void listIsKeptInTheOrderGiven() {
        assertEquals(List.of(4000.0, 1000.0, 2000.0), RatePlan.of(List.of(4000.0, 1000.0, 2000.0)));
    }

    @Test
    void badPlansAreRejectedWithTheOptionToFix() {
        assertTrue(message(() -> RatePlan.of(List.of(1000.0, 0.0))).contains("--rates: every rate must be a positive"));
        assertTrue(message(() -> RatePlan.of(List.of(-5.0))).contains("positive"));
        assertTrue(message(() -> RatePlan.spaced(2000, 1000, 5, RatePlan.Scale.LINEAR))
                .contains("--from (2000) must be lower than --to (1000)"));
        assertTrue(message(() -> RatePlan.spaced(1000, 1000, 5, RatePlan.Scale.LOG)).contains("must be lower"));
        assertTrue(message(() -> RatePlan.spaced(1000, 2000, 1, RatePlan.Scale.LINEAR))
                .contains("--steps must be at least 2 (got 1)"));
        assertTrue(message(() -> RatePlan.spaced(0, 2000, 3, RatePlan.Scale.LINEAR)).contains("must be positive"));
    }

    @Test
    void ratesPrintWithoutNeedlessDecimals() {
        assertEquals("1000", RatePlan.format(1000.0));
        assertEquals("1414.2", RatePlan.format(1414.2135));
        assertEquals("2.5", RatePlan.format(2.5));
        assertEquals("step-01-1000ops.hlog", SweepRun.hlogName(1, 1000));
        assertEquals("step-12-3111.1ops.hlog", SweepRun.hlogName(12, 19000.0 / 9 + 1000));
    }

    private static String message(Runnable r) {
        return assertThrows(BadInputException.class, r::run).getMessage();
    }
}
