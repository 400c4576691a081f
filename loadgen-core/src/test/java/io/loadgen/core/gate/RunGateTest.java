package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import io.loadgen.core.run.IntervalHistograms;
import io.loadgen.core.summary.CorrectedBasis;
import io.loadgen.core.summary.HarnessReport;
import io.loadgen.core.summary.HarnessVerdict;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.loadgen.core.gate.TestLogs.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Gates on a live run, fed the intervals a sampler would hand over. */
class RunGateTest {
    private static final long RUN_START_MS = 1_763_000_000_000L;
    private static final List<String> READ = List.of("READ");

    private final List<String> stops = new ArrayList<>();

    private RunGate gate(Duration runGrace, String... rules) {
        List<Rule> parsed = new ArrayList<>();
        for (String r : rules) {
            parsed.add(RuleParser.parse(r));
        }
        return RunGate.prepare(parsed, runGrace, READ, true, stops::add);
    }

    /** One 1 s interval starting at {@code second}: 100 READs of {@code intendedNs} (service 1 ms). */
    private static IntervalHistograms second(int second, long intendedNs, boolean measured) {
        Map<String, Histogram> byTag = new LinkedHashMap<>();
        byTag.put("READ.intended", histogram(100, intendedNs));
        byTag.put("READ.service", histogram(100, MS));
        byTag.put("harness.lag", histogram(100, 10_000));
        long start = RUN_START_MS + second * 1000L;
        // The sampler wakes a little after each boundary.
        return new IntervalHistograms(RUN_START_MS, start + (second == 0 ? 0 : 1), start + 1001, measured, byTag);
    }

    private static Histogram histogram(long count, long valueNs) {
        Histogram h = Histograms.newHistogram();
        h.recordValueWithCount(valueNs, count);
        return h;
    }

    @Test
    void abortOnFailStopsTheRunOnceARuleHasFailedForItsGrace() {
        RunGate gate = gate(null, "READ.intended.p99 < 5ms over 1s windows abort-on-fail after 2s");
        gate.onInterval(second(0, MS, true));
        gate.onInterval(second(1, 50 * MS, true));
        assertEquals(List.of(), stops, "failing for 1 s of a 2 s grace");
        gate.onInterval(second(2, 60 * MS, true));
        assertEquals(List.of("gate failed: READ.intended.p99 < 5ms over 1s windows abort-on-fail after 2s"
                + " (60 ms @ 2-3 s, failing for 2 s)"), stops);
        gate.onInterval(second(3, 60 * MS, true));
        assertEquals(1, stops.size(), "stopped once");
        assertEquals(stops.get(0), gate.abortReason());
    }

    @Test
    void aPassingWindowRestartsTheGrace() {
        RunGate gate = gate(Duration.ofSeconds(2), "READ.intended.p99 < 5ms over 1s windows");
        for (int s = 0; s < 6; s++) {
            gate.onInterval(second(s, s % 2 == 0 ? 50 * MS : MS, true)); // bad, good, bad, good, ...
        }
        assertEquals(List.of(), stops);
        assertNull(gate.abortReason());
    }

    @Test
    void theRunsAbortOnFailWithoutGraceStopsAtTheFirstFailedWindow() {
        RunGate gate = gate(Duration.ZERO, "READ.intended.max < 5ms over 2s windows");
        gate.onInterval(second(0, 50 * MS, true));
        assertEquals(List.of(), stops, "the window 0-2 s is not over yet");
        gate.onInterval(second(1, MS, true));
        assertEquals(List.of("gate failed: READ.intended.max < 5ms over 2s windows (50 ms @ 0-2 s, failing for 2 s)"),
                stops);
    }

    @Test
    void warmUpIntervalsAreNotJudged() {
        RunGate gate = gate(Duration.ZERO, "READ.intended.max < 5ms over 1s windows");
        gate.onInterval(second(0, 50 * MS, false));
        gate.onInterval(second(1, 50 * MS, false));
        gate.onInterval(second(2, MS, true));
        gate.onInterval(second(3, MS, true));
        assertEquals(List.of(), stops);
        List<Verdict> v = gate.verdicts(result());
        assertEquals(new Verdict("READ.intended.max < 5ms over 1s windows", "1 ms @ 2-3 s, worst of 2 windows", "< 5 ms",
                true), v.get(0));
    }

    @Test
    void verdictsJudgeWindowsLiveAndTheRestOnTheFinishedRun() {
        RunGate gate = gate(null, "READ.intended.p99 < 5ms over 1s windows", "READ.intended.p99 < 5ms",
                "READ.errors < 1%", "READ.corrected.max < 1s", "harness.lag.p99 < 1ms", "throughput >= 90/s",
                "READ.intended.p75 < 2.5ms", "READ.intended.p76 < 2.5ms");
        for (int s = 0; s < 3; s++) {
            gate.onInterval(second(s, s == 1 ? 50 * MS : MS, true));
        }
        assertEquals(List.of(), stops, "no abort-on-fail");
        assertEquals(List.of(
                new Verdict("READ.intended.p99 < 5ms over 1s windows", "50 ms @ 1-2 s, 1 of 3 windows failed", "< 5 ms",
                        false),
                new Verdict("READ.intended.p99 < 5ms", "3 ms", "< 5 ms", true),
                new Verdict("READ.errors < 1%", "0.5% (1 of 200)", "< 1%", true),
                new Verdict("READ.corrected.max < 1s", "3 ms", "< 1 s", true),
                new Verdict("harness.lag.p99 < 1ms", "20 us", "< 1 ms", true),
                new Verdict("throughput >= 90/s", "100/s (succeeded; 1 failed not counted)", ">= 90/s", true),
                // Any percentile of the whole run: 75% of operations took 2 ms, the rest 3 ms.
                new Verdict("READ.intended.p75 < 2.5ms", "2 ms", "< 2.5 ms", true),
                new Verdict("READ.intended.p76 < 2.5ms", "3 ms", "< 2.5 ms", false)), gate.verdicts(result()));
    }

    /** A finished 2 s run: 200 READs, intended 2 ms (150) and 3 ms (50), service 1 ms, one ERROR; lag 20 us. */
    private static RunResult result() {
        Histogram intended = histogram(150, 2 * MS);
        intended.recordValueWithCount(3 * MS, 50);
        Histogram service = histogram(200, MS);
        Map<View, Histogram> views = new EnumMap<>(View.class);
        views.put(View.INTENDED, intended);
        views.put(View.SERVICE, service);
        views.put(View.CORRECTED, intended.copy());
        long[] statuses = new long[Status.count()];
        statuses[Status.OK.ordinal()] = 199;
        statuses[Status.ERROR.ordinal()] = 1;
        return new RunResult("mockdb", 100, 1, 2_000_000_000L, List.of(new OpResult("READ", views, statuses)),
                histogram(200, 20_000), 10 * MS, 0, Map.of(), Map.of(), "duration");
    }

    @Test
    void aCorrectedViewThatIsNotApplicableIsBadInputWhenJudgedSayingWhy() {
        RunResult r = result();
        RunResult async = new RunResult(r.driver(), r.targetOpsPerSec(), r.threads(), r.runTimeNs(), r.operations(),
                r.lag(), r.expectedIntervalNs(), 0, Map.of(), Map.of(), "duration",
                CorrectedBasis.of(100, 1, 1024, r.runTimeNs()));
        RunGate gate = gate(null, "READ.corrected.p99 < 5ms");
        assertEquals("rule 'READ.corrected.p99 < 5ms': the run has no corrected view: the expected interval"
                + " 10240.000 ms = 1 thread x 1024 in flight / 100 ops/s is not shorter than the measured run"
                + " (2000.000 ms): the correction could add nothing within the run; gate on intended",
                assertThrows(BadInputException.class, () -> gate.verdicts(async)).getMessage());
    }

    @Test
    void rulesARunCannotJudgeAreBadInputBeforeItStarts() {
        assertEquals("rule 'UPDATE.intended.p99 < 5ms': the run issues no operation 'UPDATE'; it issues READ",
                assertThrows(BadInputException.class, () -> gate(null, "UPDATE.intended.p99 < 5ms")).getMessage());
        assertEquals("rule 'READ.corrected.p99 < 1s over 10s windows': windows are judged on the interval histograms"
                + " (intended, service, failed.intended, failed.service, harness.lag, status); corrected is judged on the whole run: leave out 'over ..."
                + " windows'", assertThrows(BadInputException.class,
                        () -> gate(null, "READ.corrected.p99 < 1s over 10s windows")).getMessage());
        assertEquals("--abort-on-fail stops a run when a windowed --gate rule fails (e.g. 'READ.intended.p99 < 20ms"
                + " over 10s windows'); none of the rules has windows",
                assertThrows(BadInputException.class, () -> gate(Duration.ZERO, "READ.intended.p99 < 5ms")).getMessage());
        BadInputException unthrottled = assertThrows(BadInputException.class, () -> RunGate.prepare(
                List.of(RuleParser.parse("READ.corrected.p99 < 5ms")), null, READ, false, stops::add));
        assertEquals("rule 'READ.corrected.p99 < 5ms': without --target the run has no schedule, so no corrected view;"
                + " give --target OPS, or gate on intended", unthrottled.getMessage());
    }

    @Test
    void aRunWhoseHarnessFellBehindFailsTheVerdictRule() {
        RunResult r = result();
        io.loadgen.core.diagnosis.Diagnosis saturated = io.loadgen.core.diagnosis.Evidences.healthy().shares(1.0, 0.62)
                .diagnose();
        HarnessVerdict behind = HarnessVerdict.of(saturated, new HarnessVerdict.Measured(true, 120, 400_000, 0, 0, 0,
                1.0, 0.62));
        RunResult judged = new RunResult(r.driver(), r.targetOpsPerSec(), r.threads(), r.runTimeNs(), r.operations(),
                r.lag(), r.expectedIntervalNs(), 0, Map.of(), Map.of(), "duration", r.corrected(),
                new HarnessReport(null, 0, 0, 0, 1.0, 0.62, behind));
        RunGate gate = gate(null, "harness.verdict == healthy", "READ.intended.p99 < 5ms");
        assertEquals(List.of(new Verdict("harness.verdict == healthy", "behind (capacity)", "== healthy", false),
                new Verdict("READ.intended.p99 < 5ms", "3 ms", "< 5 ms", true)),
                gate.verdicts(judged));
    }

    @Test
    void aRunGateRulesOnTheRunsDiagnosis() {
        RunResult r = result();
        io.loadgen.core.diagnosis.Diagnosis saturated = io.loadgen.core.diagnosis.Evidences.healthy().shares(1.0, 0.62)
                .diagnose();
        RunResult judged = new RunResult(r.driver(), r.targetOpsPerSec(), r.threads(), r.runTimeNs(), r.operations(),
                r.lag(), r.expectedIntervalNs(), 0, Map.of(), Map.of(), "duration", r.corrected(),
                HarnessReport.NONE, io.loadgen.core.summary.RunInfo.NONE, saturated);
        RunGate gate = gate(null, "diagnosis != harness_saturated", "diagnosis != harness_stalled");
        assertEquals(List.of(
                new Verdict("diagnosis != harness_saturated", "causes: harness_saturated", "!= harness_saturated", false),
                new Verdict("diagnosis != harness_stalled", "causes: harness_saturated", "!= harness_stalled", true)),
                gate.verdicts(judged));
    }
}
