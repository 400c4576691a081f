package io.loadgen.core.run;

import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.summary.HarnessVerdict;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.workload.OperationPlan;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real runs whose culprit is the harness itself, diagnosed as such: a generator that stops for a known time,
 * and one asked to issue faster than it can. The target's own scenarios (slow, stalled, failing, too little
 * in flight, a busy neighbour) run against the real drivers in the drivers module's DiagnosisScenariosTest.
 */
class DiagnosisRunTest {
    private static final long MS = 1_000_000;

    /**
     * READs whose sequence, on each thread, stops the thread once: at the first completion after the run's
     * first second, until {@code stallNs} after the first thread stopped. The sequence runs on the worker
     * between operations (choosing and completing them), so this is the harness itself stopping, as a GC
     * pause or a descheduled process would, not the target.
     */
    private static OperationPlan stallingOnce(long stallNs) {
        AtomicLong firstNs = new AtomicLong();
        AtomicLong stallStartNs = new AtomicLong();
        return HarnessTimePlans.afterEachCompletion(() -> new Runnable() {
            private boolean stalled;

            @Override
            public void run() {
                long now = System.nanoTime();
                firstNs.compareAndSet(0, now);
                if (stalled || now - firstNs.get() < TimeUnit.SECONDS.toNanos(1)) {
                    return;
                }
                stalled = true;
                stallStartNs.compareAndSet(0, now);
                long until = stallStartNs.get() + stallNs;
                while (until - System.nanoTime() > 0) {
                    LockSupport.parkNanos(until - System.nanoTime());
                }
            }
        });
    }

    private static List<CauseCode> codes(Diagnosis d) {
        return d.causes().stream().map(Cause::code).toList();
    }

    @Test
    void aGeneratorThatStopsFor300MsIsHarnessStalledByAbout300Ms() throws Exception {
        // 1000 ops/s on 4 threads for 3 s (each thread's gap 4 ms); an instant target. From the first completion
        // after 1 s (on each thread within one 4 ms gap of the first thread's) every thread stops until 300 ms after
        // the first one did: about 296 operations fall due during the stop and start at its end, each having
        // waited up to 300 ms, all of it the harness's. Of ~3000 operations the top 1% (30) are among them, so
        // intended p99 is about 296 x (1 - 30/296) = 266 ms, and the harness's own delay of those same operations
        // is their whole wait: its share of p99 and p99.9 is near 100% (bound: over half, the rule's MAJOR_SHARE).
        // The longest delay is the stop itself: 300 ms, plus at most a few ms of scheduling on a loaded machine
        // (bound: 280 to 400 ms). The target took microseconds throughout: no target cause.
        RunResult r = new LoadRun(RunOptions.builder("function").target(1000.0).threads(4)
                .duration(Duration.ofSeconds(3)).build(), FunctionDriver.ok(), stallingOnce(300 * MS), null).run();
        Diagnosis d = r.diagnosis();
        assertEquals(CauseCode.HARNESS_STALLED, d.primary().code(), d.headline());
        assertFalse(d.has(CauseCode.TARGET_SLOW) || d.has(CauseCode.TARGET_STALLED)
                || d.has(CauseCode.CONCURRENCY_LIMITED), d.headline());
        double delayMaxMs = d.primary().figures().get("harness_delay_max_ms").doubleValue();
        assertTrue(delayMaxMs >= 280 && delayMaxMs <= 400, "harness delay max " + delayMaxMs + " ms");
        assertTrue(d.primary().figures().get("share").doubleValue() > 0.5, d.primary().text());
        assertTrue(d.headline().startsWith("The load generator itself stalled, up to "), d.headline());
        HarnessVerdict v = r.health().verdict();
        assertFalse(v.healthy(), v.text());
        assertTrue(v.reasons().contains(HarnessVerdict.Reason.LAG), v.text());
    }

    @Test
    void noopAt20MillionOpsPerSecondIsTheHarnessSaturatedNotTheTarget() throws Exception {
        // 20,000,000 ops/s on one thread is a 50 ns gap; the no-op target answers in a few dozen ns, and the
        // harness's own work between two operations (recording in three histograms, choosing the next, reading
        // the clock: about 50-100 ns, HarnessOverheadBenchmark) is at least as long. So the thread is behind all
        // the time (bound: the rule's half), the harness's share of it is about half or more (bound: the rule's
        // 25%), and the diagnosis is harness_saturated, with no target cause.
        RunResult r = new LoadRun(RunOptions.builder("function").target(20_000_000.0)
                .duration(Duration.ofMillis(500)).build(), FunctionDriver.ok(), (OperationPlan) null, (PrintStream) null).run();
        Diagnosis d = r.diagnosis();
        assertEquals(List.of(CauseCode.HARNESS_SATURATED), codes(d).subList(0, 1), d.headline());
        assertFalse(d.has(CauseCode.TARGET_SLOW) || d.has(CauseCode.TARGET_STALLED)
                || d.has(CauseCode.CONCURRENCY_LIMITED), d.headline());
        long canIssue = d.primary().figures().get("can_issue_ops_per_sec").longValue();
        assertTrue(canIssue > 0 && canIssue < 20_000_000, "can issue " + canIssue);
        assertTrue(d.headline().startsWith("The load generator could not issue this fast"), d.headline());
    }

    @Test
    void tooFewThreadsForTheRateAreWarnedOfAfterTheFirstInterval() throws Exception {
        // One blocking thread, each operation 10 ms: it carries at most 100 ops/s. At 400 ops/s Little's law needs
        // 400 x 10 ms = 4 in flight (5 when the sleep overshoots: 10-12.5 ms is 4-5). The warning comes once, after
        // the first 200 ms interval, on the warnings stream, and names --threads.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream warnings = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        RunResult r = new LoadRun(RunOptions.builder("function").target(400.0).interval(Duration.ofMillis(200))
                .duration(Duration.ofMillis(700)).build(), new FunctionDriver(op -> {
            Thread.sleep(10);
            return io.loadgen.core.driver.Status.OK;
        }), (OperationPlan) null, (PrintStream) null).warnTo(warnings).run();
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(1, text.lines().filter(l -> l.contains("Little's law")).count(), text);
        assertTrue(text.startsWith("loadgen: warning: 1 operation in flight cannot carry 400 ops/s at function's"
                + " service mean of 1"), text);
        assertTrue(text.contains("raise --threads "), text);
        assertTrue(text.contains("-c does not raise it"), text);
        assertEquals(CauseCode.CONCURRENCY_LIMITED, r.diagnosis().primary().code(), r.diagnosis().headline());
    }

    @Test
    void enoughThreadsForTheRateAreNotWarnedOf() throws Exception {
        // The same 10 ms operations at 50 ops/s on one thread: 0.5 in flight needed, 1 available.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new LoadRun(RunOptions.builder("function").target(50.0).interval(Duration.ofMillis(200))
                .duration(Duration.ofMillis(500)).build(), new FunctionDriver(op -> {
            Thread.sleep(10);
            return io.loadgen.core.driver.Status.OK;
        }), (OperationPlan) null, (PrintStream) null).warnTo(new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
    }
}
