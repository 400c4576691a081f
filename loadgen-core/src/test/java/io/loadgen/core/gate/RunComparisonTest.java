package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.gate.CompareOptions;
import io.loadgen.core.compare.CompareRow;
import io.loadgen.core.compare.RunComparison;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.IntervalLog;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.loadgen.core.gate.TestLogs.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The comparison's arithmetic and verdict rule on logs whose every interval is known: each interval of 1 s holds
 * 100 operations, a quarter each at a, 2a, 3a and 4a ms, so the run's p50 is 2a and its p90 and p99 4a, in every
 * interval alike (the bootstrap's interval is then the change itself), and throughput is 100/s.
 */
class RunComparisonTest {
    @TempDir
    Path dir;

    private Path log(String name, int seconds, double aMs) throws IOException {
        return log(name, seconds, aMs, 25, 25);
    }

    /** {@code seconds} intervals of 1 s: {@code low} operations each at a and 2a ms, {@code high} at 3a and 4a. */
    private Path log(String name, int seconds, double aMs, int low, int high) throws IOException {
        Path file = dir.resolve(name);
        Histogram h = Histograms.newHistogram();
        try (IntervalLog log = IntervalLog.open(file)) {
            log.writeHeader(TestLogs.START_MS, List.of("test log"));
            for (int s = 0; s < seconds; s++) {
                h.reset();
                for (int k = 1; k <= 4; k++) {
                    h.recordValueWithCount(Math.round(k * aMs * MS), k <= 2 ? low : high);
                }
                h.setTag("READ.intended");
                h.setStartTimeStamp(TestLogs.START_MS + s * 1000L);
                h.setEndTimeStamp(TestLogs.START_MS + (s + 1) * 1000L);
                log.write(h);
            }
        }
        return file;
    }

    private static Map<String, CompareRow> compare(Path base, Path cand) throws IOException {
        RunIntervals b = RunIntervals.read(List.of(base), w -> { }, InputPolicy.STRICT);
        RunIntervals c = RunIntervals.read(List.of(cand), w -> { }, InputPolicy.STRICT);
        Map<String, CompareRow> rows = new LinkedHashMap<>();
        for (CompareRow r : RunComparison.compare(b, c, CompareOptions.DEFAULTS).rows()) {
            rows.put(r.view() + " " + r.stat(), r);
        }
        return rows;
    }

    @Test
    void aTenPercentChangeIsSlowerAndTheMaxIsShownButNotJudged() throws IOException {
        Map<String, CompareRow> rows = compare(log("a.hlog", 20, 1), log("b.hlog", 20, 1.1));
        for (String stat : new String[]{"p50", "p90", "p99"}) {
            CompareRow r = rows.get("intended " + stat);
            assertEquals(CompareRow.Verdict.SLOWER, r.verdict(), stat);
            assertEquals(0.10, r.estimate().change(), 0.002, stat + ": 3 significant digits either side");
            assertEquals(r.estimate().change(), r.estimate().ciLow(), 1e-9, "every interval alike: no spread");
        }
        assertTrue(rows.get("intended p50").verdictText(0.95).matches("slower by 10\\.[0-9] % \\(95 % CI"
                + " 10\\.[0-9]-10\\.[0-9] %\\)"), rows.get("intended p50").verdictText(0.95));
        // 2,000 operations: 2 beyond p99.9, fewer than the 10 the bootstrap needs.
        assertEquals("too few samples to say", rows.get("intended p99.9").verdictText(0.95));
        assertEquals(CompareRow.Verdict.UNKNOWN, rows.get("intended max").verdict());
        assertEquals(0.10, rows.get("intended max").estimate().change(), 0.002, "the max's change is shown");
        assertEquals(CompareRow.Verdict.SAME, rows.get("- throughput").verdict());
        assertEquals(0, rows.get("- throughput").estimate().change(), 1e-9);
        assertEquals(CompareRow.Verdict.UNKNOWN, rows.get("- error_rate").verdict(), "no OP.status lines");
    }

    @Test
    void aSignificantChangeBelowTheMinimumIsSameAndAFallIsFaster() throws IOException {
        Path base = log("a.hlog", 20, 1);
        Map<String, CompareRow> small = compare(base, log("b.hlog", 20, 1.03));
        CompareRow p50 = small.get("intended p50");
        assertTrue(p50.estimate().ciLow() > 0, "significant: " + p50.intervalText());
        assertEquals(CompareRow.Verdict.SAME, p50.verdict(), "+3 % is below the 5 % --min-change");
        Map<String, CompareRow> fall = compare(base, log("c.hlog", 20, 0.9));
        assertEquals(CompareRow.Verdict.FASTER, fall.get("intended p99").verdict());
        assertTrue(fall.get("intended p99").verdictText(0.95).startsWith("faster by 10."),
                fall.get("intended p99").verdictText(0.95));
        Map<String, CompareRow> same = compare(base, base);
        same.values().stream().filter(r -> r.estimate().hasInterval())
                .forEach(r -> assertEquals(CompareRow.Verdict.SAME, r.verdict(), r.toString()));
    }

    @Test
    void fewerThanEightIntervalsAreTooFewAndAThroughputDropIsSlower() throws IOException {
        Map<String, CompareRow> rows = compare(log("a.hlog", 20, 1), log("b.hlog", 7, 1.1));
        assertEquals("too few samples to say", rows.get("intended p50").verdictText(0.95));
        assertTrue(rows.get("intended p50").estimate().reason().endsWith("b.hlog has 7 intervals (8 needed; a shorter"
                + " --interval gives more)"), rows.get("intended p50").estimate().reason());
        // 90 a second instead of 100.
        CompareRow tput = compare(log("a.hlog", 20, 1), log("c.hlog", 20, 1, 25, 20)).get("- throughput");
        assertEquals(-0.10, tput.estimate().change(), 1e-9);
        assertEquals(CompareRow.Verdict.SLOWER, tput.verdict(), "a drop in throughput is slower");
        assertTrue(tput.verdictText(0.95).startsWith("slower by 10.0 %"), tput.verdictText(0.95));
    }

    @Test
    void aTagThatAppearsLateIsEmptyInTheIntervalsBefore() throws IOException {
        TestLogs logs = new TestLogs().seconds(0, 10, "READ.intended", 10, MS).seconds(5, 10, "READ.service", 10, MS);
        RunIntervals run = RunIntervals.read(List.of(logs.write(dir.resolve("late.hlog"))), w -> { },
                InputPolicy.STRICT);
        assertEquals(10, run.series("READ", GateView.SERVICE).size(), "one index for every series");
        assertEquals(0, run.series("READ", GateView.SERVICE).count(4));
        assertEquals(10, run.series("READ", GateView.SERVICE).count(5));
        assertEquals(1.0, run.series("READ", GateView.SERVICE).seconds(4), 1e-9, "the interval's own length");
    }

    @Test
    void differentOperationTypesAreBadInput() throws IOException {
        Path a = log("a.hlog", 10, 1);
        Path b = new TestLogs().seconds(0, 10, "UPDATE.intended", 10, MS).write(dir.resolve("u.hlog"));
        BadInputException e = assertThrows(BadInputException.class, () -> compare(a, b));
        assertEquals("the baseline " + a + " has operation types READ but the candidate " + b + " has UPDATE; compare"
                + " two runs of the same workload", e.getMessage());
    }
}
