package io.loadgen.core.run;

import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnoser;
import io.loadgen.core.driver.Status;
import io.loadgen.core.summary.HarnessReport;
import io.loadgen.core.summary.HarnessVerdict;
import io.loadgen.core.summary.HarnessVerdict.Reason;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.workload.OperationPlan;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real runs judged by the harness's verdict: one whose harness cannot issue as fast as asked falls behind
 * for the harness's own reason, one whose target is slow does not, and a comfortable one is healthy. The
 * bounds are shares of time, so they hold on a loaded machine: a preempted worker is preempted in
 * proportion to where its time goes.
 */
class HarnessHealthRunTest {
    private static final long BURN_NS = 50_000;

    @TempDir
    Path dir;

    private static RunResult run(RunOptions options, FunctionDriver driver, OperationPlan plan) throws Exception {
        return new LoadRun(options, driver, plan, null).run();
    }

    /** Spins on the clock for {@code ns}: CPU time of a known length, on whichever side of the split it runs. */
    private static void burn(long ns) {
        long until = System.nanoTime() + ns;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    /** READs whose sequence burns {@link #BURN_NS} after each completion: harness time, as key choice is. */
    private static OperationPlan burningBetweenOperations() {
        return HarnessTimePlans.afterEachCompletion(() -> () -> burn(BURN_NS));
    }

    @Test
    void noopAtAnImpossibleRateIsTheHarnessFallingBehindThoughItsLagIsTiny() throws Exception {
        // 1e9 ops/s on one thread: a 1 ns gap, so the worker is always behind. Between one op's completion and
        // the next one's start the harness records (46 ns by HarnessOverheadBenchmark), counts and reads the
        // clock; the op itself is a no-op call and a clock read. So the harness takes about half of the
        // worker's time or more (well over the 25% limit), while lag, measured from when the worker was free,
        // stays at that gap: well under 1 ms.
        RunResult r = run(RunOptions.builder("function").target(1e9).duration(Duration.ofMillis(300)).build(),
                FunctionDriver.ok(), null);
        HarnessReport h = r.health();
        assertTrue(h.verdict().reasons().contains(Reason.CAPACITY), h.verdict().text());
        assertFalse(h.verdict().healthy());
        assertTrue(h.harnessShare() > Diagnoser.HARNESS_SHARE_LIMIT, "harness share " + h.harnessShare());
        assertTrue(h.behindShare() > 0.9, "behind share " + h.behindShare());
        assertTrue(r.lag().getValueAtPercentile(99) < 1_000_000, "lag p99 "
                + r.lag().getValueAtPercentile(99));
        assertTrue(h.verdict().text().startsWith("the load generator itself fell behind (harness_saturated"),
                h.verdict().text());
        assertEquals(CauseCode.HARNESS_SATURATED, r.diagnosis().primary().code(), r.diagnosis().headline());
    }

    @Test
    void harnessWorkBetweenOperationsIsTheHarnessShareAndFailsTheVerdict() throws Exception {
        // 100,000 ops/s on one thread is a 10 us gap; each op's completion is followed by 50 us of the plan's own
        // work (harness time) and the op itself returns at once (under 1 us of the worker's time). So the worker
        // is behind from the second op on, and of each ~51 us cycle the harness takes 50 us: a share near 98%.
        // Bound: over half.
        RunResult r = run(RunOptions.builder("function").target(100_000.0).duration(Duration.ofMillis(300)).build(),
                FunctionDriver.ok(), burningBetweenOperations());
        HarnessReport h = r.health();
        assertTrue(h.harnessShare() > 0.5, "harness share " + h.harnessShare());
        assertTrue(h.verdict().reasons().contains(Reason.CAPACITY), h.verdict().text());
    }

    @Test
    void aSlowTargetKeepsTheWorkersBehindWithoutBlamingTheHarness() throws Exception {
        // The same 100,000 ops/s, but now the 50 us are the driver's: the worker is behind all the time, and of
        // each ~51 us cycle the harness takes the part between the ops (recording, the clock: about 1 us or
        // less), near 2%. Bounds: behind over half the time, the harness's share under the 25% limit.
        FunctionDriver slow = new FunctionDriver(op -> {
            burn(BURN_NS);
            return Status.OK;
        });
        RunResult r = run(RunOptions.builder("function").target(100_000.0).duration(Duration.ofMillis(300)).build(),
                slow, null);
        HarnessReport h = r.health();
        assertTrue(h.behindShare() > 0.5, "behind share " + h.behindShare());
        assertTrue(h.harnessShare() < Diagnoser.HARNESS_SHARE_LIMIT, "harness share " + h.harnessShare());
        assertFalse(h.verdict().reasons().contains(Reason.CAPACITY), h.verdict().text());
        assertFalse(r.diagnosis().has(CauseCode.HARNESS_SATURATED), r.diagnosis().headline());
        if (h.verdict().healthy()) {
            assertTrue(h.verdict().text().contains("of their time behind schedule"), h.verdict().text());
        }
    }

    @Test
    void aComfortableRunIsHealthyAndLogsItsHiccupsEveryInterval() throws Exception {
        // 1000 ops/s of a no-op on one thread: the worker idles 99.99% of the time, so nothing is behind. The
        // verdict is healthy unless the harness's own delay of the operations is a tenth or more of their intended
        // p99 or p99.9 (then the diagnosis blames a stall, never the capacity). A hiccup alone is never blame.
        Path log = dir.resolve("run.hlog");
        RunResult r = run(RunOptions.builder("function").target(1000.0).duration(Duration.ofMillis(600))
                .interval(Duration.ofMillis(100)).hlog(log).build(), FunctionDriver.ok(), null);
        HarnessReport h = r.health();
        HarnessVerdict v = h.verdict();
        assertTrue(h.harnessShare() < 0.01, "harness share " + h.harnessShare());
        boolean platformCalm = !r.diagnosis().has(CauseCode.HARNESS_STALLED);
        assertEquals(platformCalm, v.healthy(), v.text());
        assertFalse(v.reasons().contains(Reason.CAPACITY), v.text());
        if (platformCalm) {
            assertTrue(v.text().startsWith("harness healthy: lag p99 "), v.text());
        }
        // ~600 sleeps of ~1 ms: each interval's harness.hiccup line counts its sleeps.
        Map<String, Integer> lines = new HashMap<>();
        long hiccupValues = 0;
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        EncodableHistogram e;
        while ((e = reader.nextIntervalHistogram()) != null) {
            lines.merge(e.getTag(), 1, Integer::sum);
            if ("harness.hiccup".equals(e.getTag())) {
                hiccupValues += ((org.HdrHistogram.Histogram) e).getTotalCount();
            }
        }
        assertEquals(lines.get("READ.intended"), lines.get("harness.hiccup"), "one hiccup line per interval");
        assertTrue(hiccupValues > 100, "hiccup meter samples: " + hiccupValues);
    }
}
