package io.loadgen.core.findmax;

import io.loadgen.core.findmax.StabilityDetector.Decision;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The stability detector on exact interval sequences: each test feeds 0.5 s intervals (counts and p99 in µs) and
 * checks the decision after each, derived from the rules in the class comment (window 5 intervals).
 */
class StabilityDetectorTest {
    private static final double SEC = 0.5;
    private static final long US = 1_000;

    /** Feeds the intervals and returns the decision after each. */
    private static List<Decision> feed(StabilityDetector d, long[] counts, double[] p99Us) {
        List<Decision> out = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            out.add(d.add(SEC, counts[i], p99Us[i] * US));
        }
        return out;
    }

    @Test
    void aSteadyStepIsStableAtItsMinimumAndNotBefore() {
        // 1000 ops/s offered: 500 per 0.5 s interval, p99 around 400 us. Minimum 3 s = 6 intervals: decisions 1-5
        // continue (under 3 s), the 6th is stable: the last five counts 498..502 move 0.4% (trend limit 5% + 2/sqrt(500)
        // = 14%), spread 0.8%; p99 differences are within the 100 us floor.
        StabilityDetector d = new StabilityDetector(1000, 3, 30);
        List<Decision> out = feed(d, new long[]{500, 499, 501, 498, 502, 500},
                new double[]{400, 420, 390, 410, 405, 398});
        assertEquals(List.of(Decision.CONTINUE, Decision.CONTINUE, Decision.CONTINUE, Decision.CONTINUE,
                Decision.CONTINUE, Decision.STABLE), out);
    }

    @Test
    void aRisingP99IsABacklogAfterTheMinimum() {
        // p99 1, 2, 4, 8, 16, 32 ms: strictly rising, last/first of the window (2..32) = 16 >= 1.5 and 30 ms >= 100 us:
        // a backlog, decided at the 6th interval (3 s, the minimum), not before however clear.
        StabilityDetector d = new StabilityDetector(1000, 3, 30);
        List<Decision> out = feed(d, new long[]{500, 500, 500, 500, 500, 500},
                new double[]{1000, 2000, 4000, 8000, 16000, 32000});
        assertEquals(Decision.CONTINUE, out.get(4));
        assertEquals(Decision.BACKLOG, out.get(5));
        assertTrue(Decision.BACKLOG.failed());
    }

    @Test
    void aRiseOfOnlyJitterIsNoBacklog() {
        // Strictly rising 300..340 us: last/first = 1.13 < 1.5 and 40 us < the 100 us floor: no backlog; the spread is
        // within the floor, so stable.
        StabilityDetector d = new StabilityDetector(1000, 2.5, 30);
        List<Decision> out = feed(d, new long[]{500, 500, 500, 500, 500},
                new double[]{300, 310, 320, 330, 340});
        assertEquals(Decision.STABLE, out.get(4));
    }

    @Test
    void aShortRateEndsTheStep() {
        // 1000 ops/s offered, 400 completed per interval: over the window 2000 of 2500 expected, below
        // 2500 x 0.9 - 3 sqrt(2500) = 2100: short. p99 steady, so it is the rate that decides.
        StabilityDetector d = new StabilityDetector(1000, 2.5, 30);
        List<Decision> out = feed(d, new long[]{400, 400, 400, 400, 400}, new double[]{500, 500, 500, 500, 500});
        assertEquals(Decision.SHORT, out.get(4));
    }

    @Test
    void aRateJustShortIsNotDecisive() {
        // 460 per interval = 2300 of 2500: above the 2100 line, so not decisively short (the keep-up rule judges
        // it afterwards); steady, so stable.
        StabilityDetector d = new StabilityDetector(1000, 2.5, 30);
        List<Decision> out = feed(d, new long[]{460, 460, 460, 460, 460}, new double[]{500, 500, 500, 500, 500});
        assertEquals(Decision.STABLE, out.get(4));
    }

    @Test
    void aP99ThatSwingsIsNotStableAndRunsToTheMaximum() {
        // p99 alternating 1 ms and 5 ms: spread (5 - 1) / mean 2.6 = 1.5 > 1.0; not rising every interval, so no
        // backlog: the step continues until the 4 s maximum (8 intervals), then MAX.
        StabilityDetector d = new StabilityDetector(1000, 2.5, 4);
        List<Decision> out = feed(d, new long[]{500, 500, 500, 500, 500, 500, 500, 500},
                new double[]{1000, 5000, 1000, 5000, 1000, 5000, 1000, 5000});
        for (int i = 0; i < 7; i++) {
            assertEquals(Decision.CONTINUE, out.get(i), "interval " + (i + 1));
        }
        assertEquals(Decision.MAX, out.get(7));
    }

    @Test
    void aThroughputTrendIsNotStable() {
        // Counts 500, 540, 580, 620, 660: the least-squares slope 40 per interval x 4 intervals / mean 580 = 27.6%,
        // above 5% + 2/sqrt(580) = 13.3%: a trend, not stable (and not short: 2900 completed of 2500 expected).
        StabilityDetector d = new StabilityDetector(1000, 2.5, 30);
        List<Decision> out = feed(d, new long[]{500, 540, 580, 620, 660}, new double[]{500, 500, 500, 500, 500});
        assertEquals(Decision.CONTINUE, out.get(4));
        assertEquals(0.2759, StabilityDetector.relativeTrend(new double[]{500, 540, 580, 620, 660}), 1e-4);
    }

    @Test
    void aStepThatSettlesLateIsStableOnceItsLastWindowIs() {
        // A start transient: p99 5, 1, 0.4 ms, then steady at 0.4 ms. The window ending at interval 5 holds 5 and 1
        // ms (spread and trend too high); the window ending at interval 7 holds only 0.4 ms values: stable there.
        StabilityDetector d = new StabilityDetector(1000, 2.5, 30);
        List<Decision> out = feed(d, new long[]{500, 500, 500, 500, 500, 500, 500},
                new double[]{5000, 1000, 400, 400, 400, 400, 400});
        assertEquals(Decision.CONTINUE, out.get(4));
        assertEquals(Decision.CONTINUE, out.get(5));
        assertEquals(Decision.STABLE, out.get(6));
    }

    @Test
    void nothingCompletedIsShort() {
        StabilityDetector d = new StabilityDetector(1000, 2.5, 30);
        List<Decision> out = feed(d, new long[]{0, 0, 0, 0, 0}, new double[]{Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN});
        assertEquals(Decision.SHORT, out.get(4));
    }
}
