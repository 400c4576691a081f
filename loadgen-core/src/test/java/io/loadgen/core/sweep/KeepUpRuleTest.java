package io.loadgen.core.sweep;

import io.loadgen.core.schedule.Arrival;
import org.junit.jupiter.api.Test;

import static io.loadgen.core.sweep.SlaVerdictTest.step;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The keep-up rule on constructed steps: the issue's figures, and the edges a store that keeps up may lose. */
class KeepUpRuleTest {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    /** The issue's step: 1 s at 200 ops/s on one thread, 193 completions at 192.9 ops/s, 6 unissued. */
    private static final long ISSUE_RUN_TIME_NS = Math.round(193 * 1e9 / 192.9);

    @Test
    void theIssuesStepFellBehindOnBothCounts() {
        SweepStep s = step(1, 200, 20, 5, 193, ISSUE_RUN_TIME_NS, 6);
        assertEquals(192.9, s.achievedOpsPerSec(), 1e-6);
        // tolerance = 2 × 1 / (200 × 1.0005 s) + 20 ms / 1.0005 s = 1.0% + 2.0% = 3.0%: at least 194.0 ops/s.
        assertEquals(194.0, KeepUpRule.minimumOpsPerSec(s), 0.01);
        assertFalse(s.keptUp());
        assertEquals("fell behind: achieved 192.9 of 200 ops/s (194.0 needed), 6 unissued", s.shortfall());
    }

    @Test
    void theIssuesRateFallsShortEvenWithNothingUnissued() {
        SweepStep s = step(1, 200, 20, 5, 193, ISSUE_RUN_TIME_NS, 0);
        assertFalse(s.keptUp());
        assertEquals("fell behind: achieved 192.9 of 200 ops/s (194.0 needed)", s.shortfall());
    }

    @Test
    void atTenSecondsTheToleranceIsTighter() {
        // 10 s at 200 ops/s: 2 / 2000 + 20 ms / 10 s = 0.1% + 0.2% = 0.3%, so at least 199.4 ops/s.
        SweepStep shortBy3Percent = step(1, 200, 5, 5, 1929, 10 * S, 0);
        assertEquals(199.4, KeepUpRule.minimumOpsPerSec(shortBy3Percent), 1e-9);
        assertFalse(shortBy3Percent.keptUp());
        assertTrue(step(1, 200, 5, 5, 1995, 10 * S, 0).keptUp(), "199.5 ops/s is within 0.3%");
    }

    @Test
    void moreThanOneUnissuedOperationPerWorkerMeansTheStepFellBehind() {
        // One per worker is the end edge: its last intended start fell due just before the end, it woke just after.
        assertTrue(step(1, 200, 5, 5, 199, S, 1).keptUp());
        SweepStep s = step(1, 200, 5, 5, 198, S, 2);
        assertEquals(198.0, s.achievedOpsPerSec());
        assertFalse(s.keptUp());
        assertEquals("fell behind: achieved 198.0 of 200 ops/s (194.0 needed), 2 unissued", s.shortfall());
        assertTrue(step(1, 200, 5, 5, 198, S, 2, 2, Arrival.UNIFORM).keptUp(), "two workers, one each");
        assertFalse(step(1, 200, 5, 5, 197, S, 3, 2, Arrival.UNIFORM).keptUp());
    }

    @Test
    void aStoreThatKeepsUpPassesWhateverItsScheduleLosesAtTheEdges() {
        // The worst a store that keeps up does on a 1 s step at 150 ops/s on one thread (interval 6.667 ms):
        // its first intended start is almost one interval in, so 149 operations fall in the schedule; its last
        // completes almost one interval after its intended start (it keeps up, so it is done before the next is
        // due), and the sampler wakes after that. Window = 1 s + 6.667 ms + wake-up.
        double intervalNs = 1e9 / 150;
        long wakeWithinEdgeNs = (KeepUpRule.EDGE_MS - 1) * MS;
        long wakeBeyondEdgeNs = (KeepUpRule.EDGE_MS + 5) * MS;
        assertTrue(step(1, 150, 6, 6, 149, S + (long) intervalNs + wakeWithinEdgeNs, 0).keptUp());
        assertFalse(step(1, 150, 6, 6, 149, S + (long) intervalNs + wakeBeyondEdgeNs, 0).keptUp());
        // The typical case: every operation in, the last one 5 ms late, the sampler 1 ms later.
        assertTrue(step(1, 150, 5, 5, 150, S + 6 * MS, 0).keptUp());
    }

    @Test
    void moreThreadsAllowOneIntervalPerWorkerAtEachEnd() {
        // 8 threads at 400 ops/s for 1 s: each worker's interval is 20 ms; 2 × 8 / 400 + 2% = 6%, at least 376.
        SweepStep s = step(1, 400, 5, 5, 392, S + 20 * MS, 0, 8, Arrival.UNIFORM);
        assertEquals(376.0, KeepUpRule.minimumOpsPerSec(step(1, 400, 5, 5, 400, S, 0, 8, Arrival.UNIFORM)), 1e-9);
        assertTrue(s.keptUp(), "392 - 8 workers' first starts, over 1.02 s: " + s.achievedOpsPerSec());
    }

    @Test
    void poissonArrivalsMayFallShortByTheCountsOwnVariation() {
        // 10 s at 200 ops/s: 2000 intended starts on average, standard deviation sqrt(2000) = 44.7. A Poisson step
        // two deviations under the mean (1911) kept up; the rule allows 3 (134 operations, 6.7%).
        SweepStep poisson = step(1, 200, 5, 5, 1911, 10 * S, 0, 1, Arrival.POISSON);
        SweepStep uniform = step(1, 200, 5, 5, 1911, 10 * S, 0, 1, Arrival.UNIFORM);
        assertTrue(poisson.keptUp(), poisson.shortfall());
        assertFalse(uniform.keptUp(), "uniform starts have no such variation");
        assertEquals(200 * (1 - 0.003 - 3 / Math.sqrt(2000)), KeepUpRule.minimumOpsPerSec(poisson), 1e-9);
    }

    @Test
    void aStepThatCompletedNothingDidNotKeepUp() {
        SweepStep s = step(1, 200, 5, 5, 0, S, 0);
        assertFalse(s.keptUp());
        assertTrue(s.shortfall().startsWith("fell behind: achieved 0.0 of 200 ops/s"), s.shortfall());
    }
}
