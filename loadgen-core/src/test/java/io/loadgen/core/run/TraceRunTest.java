package io.loadgen.core.run;

import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.trace.TraceWriter;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ground truth for {@code --trace}: a real run's trace, read back with the JDK's gzip reader, holds every operation
 * once, and its rows reproduce the run's summary exactly: the count, the statuses, and the intended and service
 * histograms themselves (each row's {@code end - intended} and {@code end - actual start}, recorded into a histogram
 * of the recorders' shape, give the very histogram the summary reports, so its max within HdrHistogram's precision).
 */
class TraceRunTest {
    private static final int OPERATIONS = 600;

    @TempDir
    Path dir;

    /** One trace row, as read back. */
    record Row(long intendedNs, long startNs, long endNs, String op, String status, int worker) {
    }

    static List<Row> read(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(
                new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
            assertEquals(TraceWriter.HEADER, in.readLine());
            String line;
            while ((line = in.readLine()) != null) {
                String[] f = line.split(",", -1);
                assertEquals(6, f.length, line);
                rows.add(new Row(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), f[3], f[4],
                        Integer.parseInt(f[5])));
            }
        }
        return rows;
    }

    /**
     * A blocking store on 2 workers at 2,000 ops/s: keys k % 4 == 3 fail with ERROR, k % 10 == 0 with NOT_FOUND
     * (FailedSeriesTest's mix), every operation takes 0.2 ms, and key 100 stalls 30 ms, so a backlog forms behind
     * it and intended differs from service.
     */
    @Test
    void aBlockingRunsTraceReproducesItsSummary() throws Exception {
        FunctionDriver store = new FunctionDriver(op -> {
            LockSupport.parkNanos(op.keyNumber() == 100 ? 30_000_000L : 200_000L);
            return status(op.keyNumber());
        });
        Path trace = dir.resolve("blocking.csv.gz");
        RunOptions options = RunOptions.builder("function").threads(2).target(2000.0).operations((long) OPERATIONS)
                .trace(trace).build();
        LoadRun run = new LoadRun(options, store, null);
        RunResult result = run.run();

        List<Row> rows = read(trace);
        assertReproduces(result, rows, 2);
        assertEquals(OPERATIONS, run.traceSummary().rows());
        assertEquals(0, run.traceSummary().droppedRows());
        assertEquals(Files.size(trace), run.traceSummary().bytes());
        assertEquals((long) OPERATIONS, result.harness().get("trace_rows"));
        assertEquals(0L, result.harness().get("trace_dropped_rows"));
        for (Row r : rows) {
            assertTrue(r.startNs() >= r.intendedNs(), "a worker starts at or after the intended start: " + r);
        }
        long stalled = rows.stream().mapToLong(r -> r.endNs() - r.intendedNs()).max().orElseThrow();
        assertTrue(stalled >= 30_000_000L, "the stall is in the trace: " + stalled);
    }

    /**
     * An async store completing on a pool of 2 threads (so the ring has several producers) after 1 ms; one issuer,
     * 16 in flight, 2,000 ops/s.
     */
    @Test
    void anAsyncRunsTraceReproducesItsSummary() throws Exception {
        ScheduledExecutorService completers = Executors.newScheduledThreadPool(2);
        try {
            Path trace = dir.resolve("async.csv.gz");
            RunOptions options = RunOptions.builder("pooled").threads(1).target(2000.0)
                    .operations((long) OPERATIONS).maxInFlight(16).trace(trace).build();
            RunResult result = new LoadRun(options, pooled(completers), null).run();
            assertReproduces(result, read(trace), 1);
        } finally {
            completers.shutdownNow();
        }
    }

    private static Status status(long key) {
        return key % 4 == 3 ? Status.ERROR : key % 10 == 0 ? Status.NOT_FOUND : Status.OK;
    }

    /** Every operation once; per status the summary's count; the views' histograms rebuilt from the rows. */
    private static void assertReproduces(RunResult result, List<Row> rows, int workers) {
        assertEquals(result.totalOperations(), rows.size(), "one row per operation");
        assertEquals(OPERATIONS, rows.size());
        OpResult read = result.operations().get(0);
        for (Status s : Status.values()) {
            long traced = rows.stream().filter(r -> r.status().equals(s.name())).count();
            assertEquals(read.statusCount(s), traced, s.name());
        }
        Histogram intended = Histograms.newHistogram();
        Histogram service = Histograms.newHistogram();
        Histogram failedIntended = Histograms.newHistogram();
        for (Row r : rows) {
            assertEquals("READ", r.op());
            assertTrue(r.worker() >= 0 && r.worker() < workers, r.toString());
            assertTrue(r.endNs() >= r.startNs(), r.toString());
            if (r.status().equals("OK")) {
                intended.recordValue(r.endNs() - r.intendedNs());
                service.recordValue(r.endNs() - r.startNs());
            } else {
                failedIntended.recordValue(r.endNs() - r.intendedNs());
            }
        }
        assertEquals(read.histogram(View.INTENDED), intended, "the trace's intended latencies are the summary's");
        assertEquals(read.histogram(View.SERVICE), service);
        assertEquals(read.failedHistogram(View.INTENDED), failedIntended);
        assertEquals(read.histogram(View.INTENDED).getMaxValue(), intended.getMaxValue(),
                "the max of end - intended over the rows is the intended view's, to HdrHistogram's precision");
    }

    /** An async store whose completions run on {@code completers}, 1 ms after submit. */
    private static DriverProvider pooled(ScheduledExecutorService completers) {
        return new DriverProvider() {
            public String name() {
                return "pooled";
            }

            public String description() {
                return "completes on a pool of threads";
            }

            public List<PropertySpec> properties() {
                return List.of();
            }

            public List<String> operations() {
                return List.of("READ");
            }

            public AsyncDriver open(DriverProperties p, DriverContext c) {
                return new AsyncDriver() {
                    public void submit(Operation op, Completion completion) {
                        Status s = status(op.keyNumber());
                        completers.schedule(() -> completion.complete(s), 1, TimeUnit.MILLISECONDS);
                    }

                    public int maxInFlight() {
                        return Integer.MAX_VALUE;
                    }
                };
            }
        };
    }
}
