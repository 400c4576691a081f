package io.loadgen.core.run;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadRunTest {
    @TempDir
    Path dir;

    private static RunResult run(RunOptions options, FunctionDriver driver) throws Exception {
        return new LoadRun(options, driver, null).run();
    }

    @Test
    void operationCountIsExactAndEveryStatusIsCounted() throws Exception {
        // 3 workers split 3001 operations 1001/1000/1000; each returns ERROR for key numbers divisible by 10
        // (its own 0, 10, 20, ...): 101 + 100 + 100 = 301 errors.
        FunctionDriver driver = new FunctionDriver(op -> op.keyNumber() % 10 == 0 ? Status.ERROR : Status.OK);
        RunResult r = run(RunOptions.builder("function").threads(3).operations(3001L).seed(1).build(), driver);
        OpResult read = r.operations().get(0);
        assertEquals("READ", read.name());
        assertEquals(3001, read.count());
        assertEquals(301, read.errors());
        assertEquals(2700, read.statusCount(Status.OK));
        assertEquals(2700, read.histogram(View.INTENDED).getTotalCount(), "the success views hold the OKs");
        assertEquals(301, read.failedHistogram(View.INTENDED).getTotalCount(), "the failed series the rest");
        assertEquals(301, read.failures());
        assertEquals(0, r.unissuedOps());
    }

    @Test
    void unthrottledRunHasIntendedEqualToServiceAndNoLag() throws Exception {
        RunResult r = run(RunOptions.builder("function").threads(2).operations(20_000L).build(), FunctionDriver.ok());
        OpResult read = r.operations().get(0);
        assertEquals(read.histogram(View.SERVICE), read.histogram(View.INTENDED));
        assertEquals(read.histogram(View.SERVICE), read.histogram(View.CORRECTED));
        assertEquals(0, r.lag().getTotalCount());
        assertEquals(0, r.expectedIntervalNs());
    }

    @Test
    void driverExceptionsCountAsErrorsAndTheirLatencyIsStillRecorded() throws Exception {
        FunctionDriver driver = new FunctionDriver(op -> {
            if (op.keyNumber() % 2 == 1) {
                throw new IllegalStateException("boom");
            }
            return Status.OK;
        });
        RunResult r = run(RunOptions.builder("function").operations(1000L).build(), driver);
        assertEquals(1000, r.operations().get(0).count());
        assertEquals(500, r.operations().get(0).statusCount(Status.ERROR));
    }

    @Test
    void stopFromAnotherThreadEndsTheRunAndKeepsWhatWasMeasured() throws Exception {
        RunOptions options = RunOptions.builder("function").target(1000.0).duration(Duration.ofMinutes(1)).build();
        LoadRun run = new LoadRun(options, FunctionDriver.ok(), null);
        Thread stopper = new Thread(() -> {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                return;
            }
            run.stop("test stop");
        });
        stopper.start();
        RunResult r = run.run();
        // ~300 ms at 1000 ops/s: about 300 operations, far fewer than the minute's 60,000.
        long n = r.operations().get(0).count();
        assertTrue(n > 100 && n < 3000, "operations before the stop: " + n);
        assertEquals("test stop", r.stopReason());
    }

    @Test
    void lagIsTheSchedulersOwnDelayNotTheQueueBehindASlowDriver() throws Exception {
        // A 2 ms driver asked for 1000 ops/s by one worker falls ~1 ms further behind with every op: after
        // 1 s (~500 ops) the last op has queued ~500 ms, all of it in intended. The scheduler itself adds
        // nothing while behind (each op starts the moment the previous one ends), so lag stays at the
        // cost of a clock read, far below the queueing.
        FunctionDriver slow = new FunctionDriver(op -> {
            java.util.concurrent.locks.LockSupport.parkNanos(2_000_000);
            return Status.OK;
        });
        RunResult r = run(RunOptions.builder("function").target(1000.0).duration(Duration.ofSeconds(1)).build(), slow);
        Histogram intended = r.operations().get(0).histogram(View.INTENDED);
        assertTrue(intended.getMaxValue() > 300_000_000L, "queueing shows in intended: " + intended.getMaxValue());
        assertTrue(r.lag().getValueAtPercentile(99) < 20_000_000L, "lag p99 " + r.lag().getValueAtPercentile(99));
        assertEquals(intended.getTotalCount(), r.lag().getTotalCount());
    }

    @Test
    void intervalLogHoldsEveryOperationUnderItsTags() throws Exception {
        Path log = dir.resolve("run.hlog");
        RunOptions options = RunOptions.builder("function").target(2000.0).threads(2).duration(Duration.ofMillis(800))
                .interval(Duration.ofMillis(100)).hlog(log).build();
        RunResult r = run(options, FunctionDriver.ok());
        Map<String, Histogram> byTag = readLog(log);
        long count = r.operations().get(0).count();
        assertEquals(Map.of("READ.intended", count, "READ.service", count, "harness.lag", count),
                Map.of("READ.intended", byTag.get("READ.intended").getTotalCount(),
                        "READ.service", byTag.get("READ.service").getTotalCount(),
                        "harness.lag", byTag.get("harness.lag").getTotalCount()));
        assertEquals(r.operations().get(0).histogram(View.INTENDED), byTag.get("READ.intended"));
    }

    @Test
    void warmupIsLoggedButLeftOutOfTheSummary() throws Exception {
        // 1 worker at 2000 ops/s for 1 s with a 500 ms warm-up: ~1000 operations in the summary, ~2000 in the log.
        Path log = dir.resolve("warm.hlog");
        RunOptions options = RunOptions.builder("function").target(2000.0).duration(Duration.ofSeconds(1))
                .warmup(Duration.ofMillis(500)).interval(Duration.ofMillis(200)).hlog(log).build();
        RunResult r = run(options, FunctionDriver.ok());
        long summarised = r.operations().get(0).count();
        long logged = readLog(log).get("READ.service").getTotalCount();
        assertEquals(1000, summarised, 50);
        assertEquals(2000, logged, 50);
        assertEquals(0.5e9, r.runTimeNs(), 0.05e9, "run time excludes the warm-up");
        // One operation's views are recorded together, so no interval boundary (the warm-up's included)
        // splits them: every view counts the same operations.
        assertEquals(summarised, r.operations().get(0).histogram(View.INTENDED).getTotalCount());
        assertEquals(summarised, r.lag().getTotalCount());
        assertEquals(summarised, r.operations().get(0).statusCount(Status.OK), "Return=OK counts the same operations");
    }

    @Test
    void unknownDriverPropertyIsBadInputListingTheKnownOnes() {
        RunOptions options = RunOptions.builder("function").property("function.unknown", "1").build();
        BadInputException e = assertThrows(BadInputException.class, () -> run(options, FunctionDriver.ok()));
        assertEquals("driver function has no property 'function.unknown'; it knows function.known", e.getMessage());
    }

    @Test
    void unwritableIntervalLogIsBadInputNamingTheOption() {
        RunOptions options = RunOptions.builder("function").hlog(dir.resolve("no/such/dir/x.hlog")).build();
        BadInputException e = assertThrows(BadInputException.class, () -> run(options, FunctionDriver.ok()));
        assertTrue(e.getMessage().contains("--hlog"), e.getMessage());
    }

    static Map<String, Histogram> readLog(Path log) throws java.io.IOException {
        Map<String, Histogram> byTag = new HashMap<>();
        HistogramLogReader reader = new HistogramLogReader(log.toFile());
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            Histogram interval = (Histogram) h;
            byTag.computeIfAbsent(interval.getTag(), t -> new Histogram(3)).add(interval);
        }
        return byTag;
    }
}
