package io.loadgen.core.calibrate;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The analytic values, at points worked by hand. */
class GroundTruthTest {
    @Test
    void backlogGrowsLinearlyFromOneServiceTime() {
        // 2 ms a turn, 1 ms a gap: op k waits k ms more than op 0. p0 is the first op's 2 ms, p100 the last's
        // 2 + 1499 x 1 ms; p50 halfway.
        assertEquals(2.0, GroundTruth.backlogPercentile(0, 1500, 2, 1), 1e-12);
        assertEquals(1501.0, GroundTruth.backlogPercentile(1, 1500, 2, 1), 1e-12);
        assertEquals(2 + 0.5 * 1499, GroundTruth.backlogPercentile(0.5, 1500, 2, 1), 1e-12);
    }

    @Test
    void pausePercentilesAreTheIssuesFigures() {
        // P = 50 ms, 10% paused: p99 = 50 (1 - 0.01/0.1) = 45 ms, p95 = 25 ms; p80 falls among the unpaused: 0.
        assertEquals(45.0, GroundTruth.pausePercentile(0.99, 50, 0.1), 1e-9);
        assertEquals(25.0, GroundTruth.pausePercentile(0.95, 50, 0.1), 1e-9);
        assertEquals(0.0, GroundTruth.pausePercentile(0.80, 50, 0.1), 0.0);
    }

    @Test
    void md1AtHalfLoad() {
        // S = 1, rho = 0.5: mean sojourn 1 + 0.5 / (2 x 0.5) = 1.5; Var = 0.5 / 1.5 + 0.5^2 = 7/12.
        assertEquals(1.5, GroundTruth.md1MeanSojourn(0.5, 1), 1e-12);
        assertEquals(7.0 / 12, GroundTruth.md1SojournVariance(0.5, 1), 1e-12);
        // Units scale: 250 ops/s into 500 ops/s is 3 ms (rates per ms) or 0.003 s (per s).
        assertEquals(3.0, GroundTruth.md1MeanSojourn(0.25, 0.5), 1e-12);
        assertEquals(0.003, GroundTruth.md1MeanSojourn(250, 500), 1e-12);
    }
}
