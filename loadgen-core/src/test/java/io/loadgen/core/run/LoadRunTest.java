package io.loadgen.core.run;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
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
        // On a stepped manual clock: 1 unthrottled worker, ops of 1 ms, 100 ms intervals, a minute's duration.
        // The clock starts 20 ms before t0 and op k ends at t0 + k + 1 - 20 ms. The aggregator's thread calls
        // stop as it closes the third interval, at t0 + 300 ms; by then ops 0..318 have ended, and op 319 (ending
        // at t0 + 300 ms) is in flight: it completes, then the worker sees the stop: 320 ops, not a minute's 60,000.
        long ms = 1_000_000L;
        SteppedClock stepped = new SteppedClock(100 * ms, 200 * ms, 300 * ms);
        FunctionDriver oneMs = new FunctionDriver(op -> {
            stepped.advanceTo(stepped.offsetNs() + ms);
            return Status.OK;
        });
        RunOptions options = RunOptions.builder("function").duration(Duration.ofMinutes(1))
                .interval(Duration.ofMillis(100)).build();
        LoadRun run = new LoadRun(options, oneMs, null, null, stepped.clock);
        int[] intervals = new int[1];
        run.addSink(s -> {
            if (++intervals[0] == 3) {
                run.stop("test stop"); // from the aggregator's thread, before the stepped clock moves on
            }
        }).addSink(stepped);
        RunResult r = run.run();
        assertEquals(320, r.operations().get(0).count());
        assertEquals("test stop", r.stopReason());
    }

    @Test
    void lagIsTheSchedulersOwnDelayNotTheQueueBehindASlowDriver() throws Exception {
        // On a stepped manual clock: a 2 ms driver asked for 1000 ops/s (I = 1 ms) by one worker for 1 s. Op k is
        // intended at t0 + off + k ms (off in [0, 1 ms), the worker's start offset). The clock is moved to
        // t0 + 1 ms once the worker waits for op 0, so op 0 starts there, and every later op the moment the one
        // before ends: op k runs from t0 + 1 + 2k ms to t0 + 3 + 2k ms. Ops start before t0 + 1 s for
        // k = 0..499: 500 ops; the other 500 due before the end were never issued. Intended latency
        // L(k) = 3 + k ms - off, so max = L(499) = 502 ms - off: the queue, all of it in intended. Lag is the
        // scheduler's own delay: op 0 started 1 ms - off after its intended start; every later op started the
        // moment its worker became free: exactly 0.
        long ms = 1_000_000L;
        long[] boundaries = new long[10];
        for (int i = 0; i < boundaries.length; i++) {
            boundaries[i] = (i + 1) * 100 * ms;
        }
        SteppedClock stepped = new SteppedClock(boundaries);
        long[] firstIntendedNs = {-1};
        FunctionDriver slow = new FunctionDriver(op -> {
            if (firstIntendedNs[0] < 0) {
                firstIntendedNs[0] = op.intendedStartNs();
            }
            stepped.advanceTo(stepped.offsetNs() + 2 * ms);
            return Status.OK;
        });
        RunOptions options = RunOptions.builder("function").target(1000.0).duration(Duration.ofSeconds(1))
                .interval(Duration.ofMillis(100)).build();
        LoadRun run = new LoadRun(options, slow, null, null, stepped.clock).addSink(stepped);
        Thread starter = startWhenWorkerWaits(() -> stepped.advanceTo(ms));
        RunResult r = run.run();
        starter.join();

        long offNs = firstIntendedNs[0] - SteppedClock.T0_NS;
        assertTrue(offNs >= 0 && offNs < ms, "start offset " + offNs);
        Histogram shape = Histograms.newHistogram();
        Histogram intended = r.operations().get(0).histogram(View.INTENDED);
        assertEquals(500, intended.getTotalCount());
        assertEquals(500, r.unissuedOps());
        assertEquals(shape.highestEquivalentValue(502 * ms - offNs), intended.getMaxValue(), "queueing shows in intended");
        assertEquals(shape.lowestEquivalentValue(3 * ms - offNs), intended.getMinValue());
        assertEquals(500, r.operations().get(0).histogram(View.SERVICE).getCountAtValue(2 * ms), "service: 2 ms each");
        assertEquals(500, r.lag().getTotalCount());
        assertEquals(499, r.lag().getCountAtValue(0), "no lag while behind: each op starts when its worker is free");
        assertEquals(shape.highestEquivalentValue(ms - offNs), r.lag().getMaxValue());
    }

    /**
     * Runs {@code start} once the run's only worker waits for its first intended start (parked in its wait
     * strategy): by then t0 is fixed, since workers start after it is. Bounded to 10 s.
     */
    static Thread startWhenWorkerWaits(Runnable start) {
        Thread t = new Thread(() -> {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() - deadline < 0) {
                for (Thread candidate : Thread.getAllStackTraces().keySet()) {
                    if (candidate.getName().equals("loadgen-worker-0")
                            && candidate.getState() == Thread.State.TIMED_WAITING) {
                        start.run();
                        return;
                    }
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
        }, "test-starter");
        t.start();
        return t;
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
        // On a stepped manual clock, 1 unthrottled worker, ops of 0.5 ms (2000 ops/s) for 1 s with a 500 ms
        // warm-up and 200 ms intervals. The clock starts 20 ms before t0 and the worker at once, so op k ends
        // at (k + 1) * 0.5 ms on the clock, t0 + (k + 1) * 0.5 - 20 ms. Ops start before t0 + 1 s (1020 ms on
        // the clock) for k = 0..2039: 2040 in the log. The warm-up ends at t0 + 500 ms (an interval ends there),
        // so the summary holds the ops ending from then on: (k + 1) * 0.5 >= 520, k = 1039..2039: 1001, over
        // the 500 ms from the warm-up's end to the last op's end at t0 + 1000 ms.
        long ms = 1_000_000L;
        SteppedClock stepped = new SteppedClock(200 * ms, 400 * ms, 500 * ms, 600 * ms, 800 * ms, 1000 * ms);
        FunctionDriver halfMs = new FunctionDriver(op -> {
            stepped.advanceTo(stepped.offsetNs() + ms / 2);
            return Status.OK;
        });
        Path log = dir.resolve("warm.hlog");
        RunOptions options = RunOptions.builder("function").duration(Duration.ofSeconds(1))
                .warmup(Duration.ofMillis(500)).interval(Duration.ofMillis(200)).hlog(log).build();
        RunResult r = new LoadRun(options, halfMs, null, null, stepped.clock).addSink(stepped).run();
        long summarised = r.operations().get(0).count();
        long logged = readLog(log).get("READ.service").getTotalCount();
        assertEquals(1001, summarised);
        assertEquals(2040, logged);
        assertEquals(500 * ms, r.runTimeNs(), "run time excludes the warm-up");
        // One operation's views are recorded together, so no interval boundary (the warm-up's included)
        // splits them: every view counts the same operations.
        assertEquals(summarised, r.operations().get(0).histogram(View.INTENDED).getTotalCount());
        assertEquals(summarised, r.operations().get(0).statusCount(Status.OK), "Return=OK counts the same operations");
    }

    @Test
    void warmupOfAThrottledRunLeavesItsLagOutOfTheSummary() throws Exception {
        // 1 worker at 2000 ops/s for 1 s with a 500 ms warm-up on the system clock: every view, the lag
        // included, counts the same operations (an operation's views are recorded in one critical section).
        RunOptions options = RunOptions.builder("function").target(2000.0).duration(Duration.ofSeconds(1))
                .warmup(Duration.ofMillis(500)).interval(Duration.ofMillis(200)).build();
        RunResult r = run(options, FunctionDriver.ok());
        long summarised = r.operations().get(0).count();
        assertEquals(summarised, r.lag().getTotalCount());
        assertEquals(summarised, r.operations().get(0).histogram(View.INTENDED).getTotalCount());
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
