package io.loadgen.core.run;

import io.loadgen.core.driver.Status;
import io.loadgen.core.log.LogEvent;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.record.View;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.HistogramLogProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ground truth for a rate changed while the run goes on, on the real clock: 4 threads at 2000 ops/s, 500 ms
 * intervals, 3 s; as the aggregator closes the interval ending at 1 s, the test asks the run's {@link
 * io.loadgen.core.schedule.RateControl} for 6000 ops/s, which switches at the next boundary, t0 + 1.5 s.
 */
class RateChangeRunTest {
    private static final long MS = 1_000_000L;
    private static final int THREADS = 4;
    private static final int MAX_PER_THREAD = 20_000;

    @TempDir
    Path dir;

    private final long[][] intended = new long[THREADS][MAX_PER_THREAD];
    private final int[] counts = new int[THREADS];

    @Test
    void scheduleSwitchesAtTheBoundaryWithoutBurstOrGapAndTheLogMarksIt() throws Exception {
        FunctionDriver driver = new FunctionDriver(op -> {
            int w = op.workerIndex();
            if (counts[w] < MAX_PER_THREAD) {
                intended[w][counts[w]++] = op.intendedStartNs();
            }
            return Status.OK;
        });
        Path hlog = dir.resolve("run.hlog");
        RunOptions options = RunOptions.builder("function").threads(THREADS).target(2000.0)
                .duration(Duration.ofSeconds(3)).interval(Duration.ofMillis(500)).hlog(hlog).seed(3).build();
        LoadRun run = new LoadRun(options, driver, null);
        long[] t0 = new long[1];
        long[] switchAt = new long[1];
        List<long[]> intervals = new ArrayList<>(); // {end - t0, operations}
        run.addSink(s -> {
            t0[0] = s.runStartNs();
            long ops = 0;
            for (IntervalSnapshot.Op op : s.operations()) {
                ops += op.operations();
            }
            intervals.add(new long[]{s.endNs() - s.runStartNs(), ops});
            if (intervals.size() == 2) {
                switchAt[0] = run.rateControl().request(6000, "test");
            }
        });
        RunResult r = run.run();
        // Asked as the interval ending at 1 s closed, so it switches at 1.5 s (at 2 s, should this machine have kept
        // the sampler from running for half a second; the expected counts below follow the switch it names).
        long switchNs = switchAt[0];
        long beforeNs = switchNs - t0[0];
        assertTrue(beforeNs == 1500 * MS || beforeNs == 2000 * MS, "switches at " + beforeNs + " ns");
        // Counted up to 100 ms before the end: a worker that a busy machine kept from running in the run's last
        // milliseconds leaves the operations then due unissued (counted apart, below), which says nothing of the switch.
        long endNs = t0[0] + 2900 * MS;

        // Each worker's share: 500/s (a 2 ms gap) before the switch, 1500/s (666,667 ns) after. Worker w starts at
        // t0 + offset_w, offset_w in [0, 2 ms): before the switch at 1.5 s exactly 1.5 s / 2 ms = 750 starts. After
        // it, the residual of the gap running at the switch shrinks to a third, then 1.4 s / 666,667 ns = 2100
        // starts up to 2.9 s, +-1.
        double oldGapNs = 2 * MS;
        double newGapNs = 1e9 / 1500;
        for (int w = 0; w < THREADS; w++) {
            int before = 0;
            int after = 0;
            long lastBefore = 0;
            long firstAfter = 0;
            for (int k = 0; k < counts[w]; k++) {
                long t = intended[w][k];
                if (t - switchNs < 0) {
                    before++;
                    lastBefore = t;
                } else if (t - endNs < 0) {
                    if (after++ == 0) {
                        firstAfter = t;
                    }
                }
                if (k > 0) {
                    long gap = t - intended[w][k - 1];
                    double expected = t - switchNs <= 0 ? oldGapNs : intended[w][k - 1] - switchNs >= 0 ? newGapNs : -1;
                    if (expected > 0) {
                        assertEquals(expected, gap, 2, "worker " + w + " gap " + k);
                    }
                }
            }
            assertEquals(beforeNs / (2 * MS), before, "worker " + w + " before the switch");
            assertEquals((2900 * MS - beforeNs) / newGapNs, after, 1, "worker " + w + " after the switch");
            // Continuity: the old rate's next start, lastBefore + 2 ms, was (lastBefore + 2 ms - S) past the switch;
            // the first new one is a third of that past it.
            double residualNs = lastBefore + oldGapNs - switchNs;
            assertEquals(residualNs / 3, firstAfter - switchNs, 2, "worker " + w + " first start after the switch");
        }

        // Per interval (operations complete at once, so they count where they were intended, give or take the few
        // the sampler's wake-up moves across a boundary): 2000/s x 0.5 s = 1000 in the first three, then 6000/s x
        // 0.5 s = 3000. Generous: 20 %.
        for (long[] iv : intervals) {
            long endMs = iv[0] / MS;
            if (endMs >= 500 && endMs < 3000 && Math.abs(endMs % 500) < 100) {
                double expected = endMs * MS < beforeNs + 100 * MS ? 1000 : 3000;
                assertEquals(expected, iv[1], expected * 0.2, "interval ending at " + endMs + " ms");
            }
        }
        // The summary judges by the target in force: (2000 x 1.5 + 6000 x 1.5) / 3 = 4000 ops/s offered.
        double offered = (2000 * beforeNs / 1e9 + 6000 * (3 - beforeNs / 1e9)) / 3;
        assertEquals(offered, r.targetOpsPerSec(), 1);
        assertEquals(offered, r.throughputOpsPerSec(), offered * 0.05);
        // Due and never issued: at most the operation each worker was waiting for when the end came (a wake-up late
        // past the end leaves it); the old rate's schedule would not matter here, the count is of the new one's.
        assertTrue(r.unissuedOps() <= THREADS, "unissued " + r.unissuedOps());
        assertFalse(r.diagnosis().headline().contains("could not keep up"), r.diagnosis().headline());
        assertTrue(r.operations().get(0).histogram(View.INTENDED).getValueAtPercentile(99) < 50 * MS,
                "no burst at the switch: operations issued on time");

        // The log: one rate-change event at 1.5 s with the new rate, and HdrHistogram's processor still reads it.
        List<LogEvent> events;
        try (LogSet set = LogSet.open(List.of(hlog), w -> { })) {
            while (set.next() != null) {
                // read every interval, and the events between them
            }
            events = set.events().stream().filter(LogEvent::isRateChange).toList();
        }
        assertEquals(1, events.size());
        assertEquals("test", events.get(0).source());
        assertEquals(6000, events.get(0).rateOpsPerSec());
        assertTrue(Files.readString(hlog).contains(String.format(java.util.Locale.ROOT,
                "kind=rate-change source=test start=%.3f length_ms=0.000 rate_ops_s=6000", beforeNs / 1e9)));
        Path out = dir.resolve("out");
        new HistogramLogProcessor(new String[]{"-i", hlog.toString(), "-o", out.toString(), "-tag", "READ.intended"}).run();
        Matcher m = Pattern.compile("Total count\\s*=\\s*(\\d+)").matcher(Files.readString(Path.of(out + ".hgrm")));
        assertTrue(m.find());
        assertEquals(r.operations().get(0).histogram(View.INTENDED).getTotalCount(), Long.parseLong(m.group(1)));
    }

    @Test
    void runsWithoutAScheduleOfTheirOwnToChangeRefuseWithTheReason() {
        LoadRun unthrottled = new LoadRun(RunOptions.builder("function").build(), FunctionDriver.ok(), null);
        assertEquals("the run is unthrottled (no --target): it has no schedule whose rate could change; start it with"
                + " --target OPS", unthrottled.rateControl().requestRate("100"));
        RunOptions phased = RunOptions.builder("function").rateProfile(new io.loadgen.core.schedule.RateProfile(
                List.of(new io.loadgen.core.schedule.RateProfile.Segment(1_000_000_000L, 100, 200)))).build();
        assertEquals("the rate follows --phases; a phased run's rate cannot be changed while it runs",
                new LoadRun(phased, FunctionDriver.ok(), null).rateControl().requestRate("100"));
        LoadRun step = new LoadRun(RunOptions.builder("function").target(100.0).build(), FunctionDriver.ok(), null)
                .rateOwnedBy("findmax");
        assertEquals("findmax sets the rate of each of its steps itself, so it cannot be changed while a step runs",
                step.rateControl().requestRate("100"));
    }
}
