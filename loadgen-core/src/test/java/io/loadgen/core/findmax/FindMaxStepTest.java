package io.loadgen.core.findmax;

import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.diagnosis.Evidences;
import io.loadgen.core.driver.Status;
import io.loadgen.core.gate.RuleParser;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.record.View;
import io.loadgen.core.run.IntervalHistograms;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.summary.HarnessReport;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunInfo;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Judging one step on constructed intervals: ten 0.5 s intervals of READs at one latency, fed to a
 * {@link StepRecorder} whose detector (minimum 5 s) decides on the tenth, and the matching run result.
 */
class FindMaxStepTest {
    private static final long MS = 1_000_000L;

    /** A step at {@code offered} ops/s whose intervals completed {@code perInterval} READs each at {@code latencyNs}. */
    private static FindMaxStep step(double offered, long[] perInterval, long latencyNs, long unissued,
                                    Diagnosis diagnosis, String... slos) {
        StepRecorder recorder = new StepRecorder(new StabilityDetector(offered, 5, 30), reason -> { });
        Histogram total = Histograms.newHistogram();
        long n = 0;
        for (int i = 0; i < perInterval.length; i++) {
            Histogram h = Histograms.newHistogram();
            h.recordValueWithCount(latencyNs, perInterval[i]);
            Histogram status = StatusTags.newHistogram();
            status.recordValueWithCount(Status.OK.ordinal(), perInterval[i]);
            Map<String, Histogram> byTag = new LinkedHashMap<>();
            byTag.put("READ.intended", h);
            byTag.put("READ.service", h);
            byTag.put("READ.status", status);
            recorder.onInterval(new IntervalHistograms(0, i * 500L, (i + 1) * 500L, true, byTag));
            total.add(h);
            n += perInterval[i];
        }
        Map<View, Histogram> views = new EnumMap<>(View.class);
        views.put(View.INTENDED, total);
        views.put(View.SERVICE, total.copy());
        views.put(View.CORRECTED, total.copy());
        long[] statuses = new long[Status.count()];
        statuses[Status.OK.ordinal()] = n;
        RunResult r = new RunResult("mockdb", offered, 1, perInterval.length * 500 * MS,
                List.of(new OpResult("READ", views, statuses)), Histograms.newHistogram(), (long) (1e9 / offered),
                unissued, Map.of(), Map.of(), StabilityDetector.Decision.STABLE.text(),
                io.loadgen.core.summary.CorrectedBasis.serial((long) (1e9 / offered)), HarnessReport.NONE, RunInfo.NONE,
                diagnosis);
        return FindMaxStep.judge(1, offered, r, Arrival.POISSON, recorder,
                java.util.Arrays.stream(slos).map(RuleParser::parseObjective).toList(), 42);
    }

    private static long[] tenOf(long... counts) {
        return counts;
    }

    @Test
    void aPoissonStepIsJudgedAgainstWhatWasScheduledNotRateTimesTime() {
        // 1000 ops/s for 5 s: λT = 5000. The Poisson schedule happened to put 4880 in the window (2.4% low, 1.7 sd),
        // and all completed, none left: scheduled 4880, so it kept up. Against λT the 2% rule (4900) would fail it.
        long[] counts = tenOf(488, 488, 488, 488, 488, 488, 488, 488, 488, 488);
        FindMaxStep s = step(1000, counts, MS, 0, null);
        assertEquals(StabilityDetector.Decision.STABLE, s.ended());
        assertEquals(4880, s.scheduled());
        assertEquals(4880, s.windowCompleted());
        assertTrue(s.keptUp());
        assertTrue(s.passed());
        // The same completions with 200 left unissued: 5080 scheduled, and 4880 < 0.98 x 5080 - 1 thread - 1000 x
        // 20 ms = 4957.4: fell behind.
        FindMaxStep behind = step(1000, counts, MS, 200, null);
        assertEquals(5080, behind.scheduled());
        assertFalse(behind.keptUp());
        assertTrue(behind.clearlyFailed());
    }

    @Test
    void anObjectiveWhoseIntervalLiesOnOneSideIsClear() {
        long[] counts = tenOf(500, 500, 500, 500, 500, 500, 500, 500, 500, 500);
        // Every operation at 1 ms: p99 = 1 ms in every resample, interval [1, 1] ms, below 5 ms: clearly passes.
        FindMaxStep pass = step(1000, counts, MS, 0, null, "p99 < 5ms");
        FindMaxStep.RuleOutcome o = pass.rules().get(0);
        assertEquals("READ.intended.p99 < 5ms", o.name());
        assertEquals(1.0, o.ciLow() / MS, 0.001);
        assertEquals(1.0, o.ciHigh() / MS, 0.001);
        assertTrue(pass.clearlyPassed());
        // At 10 ms every resample is above 5 ms: clearly fails.
        FindMaxStep fail = step(1000, counts, 10 * MS, 0, null, "p99 < 5ms");
        assertFalse(fail.passed());
        assertTrue(fail.clearlyFailed());
        assertFalse(fail.clearlyPassed());
    }

    @Test
    void theHarnessIsBlamedOnlyForAStepThatFailed() {
        Diagnosis saturated = Evidences.healthy().shares(1.0, 0.62).diagnose();
        assertEquals(CauseCode.HARNESS_SATURATED, saturated.primary().code());
        long[] counts = tenOf(500, 500, 500, 500, 500, 500, 500, 500, 500, 500);
        // Met everything despite the harness: it stands.
        FindMaxStep passed = step(1000, counts, MS, 0, saturated, "p99 < 5ms");
        assertNull(passed.harnessFault());
        assertTrue(passed.passed());
        // Failed with the harness the primary cause: the harness could not drive it.
        FindMaxStep failed = step(1000, counts, 10 * MS, 0, saturated, "p99 < 5ms");
        assertEquals(CauseCode.HARNESS_SATURATED, failed.harnessFault().code());
        assertFalse(failed.passed());
    }
}
