package io.loadgen.drivers.redis;

import io.lettuce.core.api.sync.RedisCommands;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole runs through {@link LoadRun}'s async issuers against a real redis-server, including one that dies. */
class RedisRunTest {
    private static final RecordLayout LAYOUT = new RecordLayout(10, 100);

    private static RedisServerProcess server;

    @BeforeAll
    static void startServer() throws Exception {
        server = RedisServerProcess.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void emptyTheServer() {
        try (RedisServerProcess.Inspector inspector = server.inspector()) {
            inspector.sync().flushall();
        }
    }

    private static RunResult run(RunOptions.Builder options) throws Exception {
        return new LoadRun(options.property("redis.uri", server.uri()).build(), new RedisDriverProvider(), null).run();
    }

    private static Map<String, String> expectedRecord(long keyNumber) {
        Map<String, String> record = new HashMap<>();
        for (int f = 0; f < 10; f++) {
            record.put("field" + f, LAYOUT.valueText(keyNumber, f, RecordLayout.INSERTED));
        }
        return record;
    }

    @Test
    void ycsbWorkloadaLoadsThenRunsItsMixWithEveryReadFindingItsRecord() throws Exception {
        // YCSB's workloada (hashed insert order, zipfian requests): the load phase inserts recordcount records
        // under hashed key numbers; the run phase's READs and UPDATEs pick key numbers among them and hash them
        // the same way, so no READ can miss. 50/50 mix over 3000 ops: each share within 10 points.
        java.util.Properties file = new java.util.Properties();
        try (java.io.Reader r = java.nio.file.Files.newBufferedReader(Path.of("..", "workloads", "workloada"))) {
            file.load(r);
        }
        Map<String, String> props = new HashMap<>();
        file.stringPropertyNames().forEach(k -> props.put(k, file.getProperty(k).trim()));
        props.put("recordcount", "500");
        io.loadgen.core.workload.WorkloadOptions w = io.loadgen.core.workload.WorkloadOptions.from(props);
        io.loadgen.core.workload.CoreWorkloadPlan.Config config = io.loadgen.core.workload.CoreWorkloadPlan.Config.of(w);

        RunOptions loadOptions = RunOptions.builder("redis").property("redis.uri", server.uri()).threads(2)
                .operations(w.insertCount()).build();
        RunResult loaded = new LoadRun(loadOptions, new RedisDriverProvider(),
                io.loadgen.core.workload.CoreWorkloadPlan.load(config), null).run();
        assertEquals(500, loaded.operations().get(0).statusCount(Status.OK));

        RunOptions runOptions = RunOptions.builder("redis").property("redis.uri", server.uri()).threads(2)
                .operations(3000L).target(3000.0).build();
        RunResult ran = new LoadRun(runOptions, new RedisDriverProvider(),
                io.loadgen.core.workload.CoreWorkloadPlan.run(config), null).run();
        assertEquals(java.util.List.of("READ", "UPDATE"), ran.operations().stream().map(OpResult::name).toList());
        OpResult reads = ran.operations().get(0);
        OpResult updates = ran.operations().get(1);
        assertEquals(3000, reads.count() + updates.count());
        assertEquals(reads.count(), reads.statusCount(Status.OK), "every READ found its record");
        assertEquals(updates.count(), updates.statusCount(Status.OK));
        assertEquals(0.5, reads.count() / 3000.0, 0.1);
        try (RedisServerProcess.Inspector inspector = server.inspector()) {
            assertEquals(501L, inspector.sync().dbsize(), "the run added no records: 500 hashes and the index");
        }
    }

    @Test
    void anInsertRunLoadsEveryKeyOnceAndAReadRunReadsThemAllBack() throws Exception {
        int n = 2000;
        RunResult insert = run(RunOptions.builder("redis").operation("INSERT").operations((long) n).threads(2)
                .target(2000.0).duration(Duration.ofSeconds(20)));
        OpResult inserted = insert.operations().get(0);
        assertEquals("INSERT", inserted.name());
        assertEquals(n, inserted.count());
        assertEquals(n, inserted.statusCount(Status.OK));

        try (RedisServerProcess.Inspector inspector = server.inspector()) {
            RedisCommands<String, String> redis = inspector.sync();
            assertEquals(n + 1L, redis.dbsize(), "N hashes and the index");
            assertEquals((long) n, redis.zcard("_indices"));
            for (long k : new long[] {0, 1, 2, 999, 1000, n - 2, n - 1}) {
                assertEquals(expectedRecord(k), redis.hgetall(RecordLayout.keyName(k)), "record " + k);
                assertEquals((double) RecordLayout.keyName(k).hashCode(), redis.zscore("_indices", RecordLayout.keyName(k)));
            }
            assertEquals(0L, redis.exists(RecordLayout.keyName(n)), "keys are 0..N-1");
        }

        RunResult read = run(RunOptions.builder("redis").operation("READ").operations((long) n).threads(2)
                .target(2000.0).duration(Duration.ofSeconds(20)));
        OpResult reads = read.operations().get(0);
        assertEquals("READ", reads.name());
        assertEquals(n, reads.count());
        assertEquals(n, reads.statusCount(Status.OK), "every key read back (a missing one is NOT_FOUND)");
        assertEquals(n, reads.histogram(View.INTENDED).getTotalCount());
    }

    @Test
    void aServerThatDiesMidRunFailsOperationsUntilItIsBackThenTheRunCarriesOn(@TempDir Path dir) throws Exception {
        // 500 inserts/s for 6 s (3000 ops); the server is killed at 2 s and restarted, empty, at 3.5 s.
        // While it is gone, operations fail fast (rejected while disconnected) or at the 1 s timeout;
        // after it is back (reconnect within 0.5 s), inserts land in the new, empty server.
        int n = 3000;
        Path hlog = dir.resolve("redis.hlog");
        ScheduledExecutorService chaos = Executors.newSingleThreadScheduledExecutor();
        RunResult r;
        try {
            ScheduledFuture<?> kill = chaos.schedule(() -> {
                server.kill();
                return null;
            }, 2000, TimeUnit.MILLISECONDS);
            ScheduledFuture<?> restart = chaos.schedule(() -> {
                server.restart();
                return null;
            }, 3500, TimeUnit.MILLISECONDS);
            r = run(RunOptions.builder("redis").operation("INSERT").operations((long) n).target(500.0)
                    .duration(Duration.ofSeconds(15)).hlog(hlog));
            kill.get(10, TimeUnit.SECONDS);
            restart.get(10, TimeUnit.SECONDS);
        } finally {
            chaos.shutdownNow();
            assertTrue(chaos.awaitTermination(10, TimeUnit.SECONDS));
        }

        OpResult inserts = r.operations().get(0);
        long ok = inserts.statusCount(Status.OK);
        long timeouts = inserts.statusCount(Status.TIMEOUT);
        long errors = inserts.statusCount(Status.ERROR) + timeouts;
        assertEquals(n, inserts.count(), "every operation issued completed and was recorded, errors too");
        assertEquals(n, ok + errors, "an insert is OK, ERROR or TIMEOUT");
        assertEquals(r.driverStats().get("timeouts").longValue(), timeouts, "the driver's timeouts are the TIMEOUT returns");
        assertEquals(0L, r.harness().get("in_flight_at_end"));
        // ~1.5 s down at 500/s is ~750 failures; allow for the reconnect and a slow machine either way.
        assertTrue(errors >= 300 && errors <= 1500, "errors " + errors);
        long afterRestart;
        try (RedisServerProcess.Inspector inspector = server.inspector()) {
            afterRestart = inspector.sync().zcard("_indices");
        }
        // The restarted server started empty: what it holds was inserted after the restart (~2.5 s of 500/s).
        assertTrue(afterRestart >= 500, "inserts after the restart " + afterRestart);
        assertTrue(ok > afterRestart, "inserts before the kill succeeded too: ok " + ok + ", after restart " + afterRestart);
        // No operation hung: each ended within the 1 s command timeout of its intended start, plus slack.
        long maxMs = Math.max(inserts.histogram(View.INTENDED).getMaxValue(),
                inserts.failedHistogram(View.INTENDED).getMaxValue()) / 1_000_000;
        assertTrue(maxMs < 2_500, "intended max " + maxMs + " ms");
        // Failed inserts are in their own series, not in the successes'.
        assertEquals(ok, intendedCountInLog(hlog, "INSERT.intended"));
        assertEquals(errors, intendedCountInLog(hlog, "INSERT.failed.intended"));
        assertTrue(r.driverStats().get("reconnects").longValue() >= 1, r.driverStats().toString());
        assertEquals(errors, r.driverStats().get("timeouts").longValue() + r.driverStats().get("connection_errors").longValue()
                + r.driverStats().get("server_errors").longValue(), "the driver counted every failure by cause");
        System.out.printf("ok %d, errors %d, inserted after restart %d, intended max %d ms, intended p99 %.1f ms, %s%n",
                ok, errors, afterRestart, maxMs, inserts.histogram(View.INTENDED).getValueAtPercentile(99) / 1e6,
                r.driverStats());
    }

    @Test
    void batchedReadsAndUpdatesAreRefusedAtOnceWhileTheServerIsGoneAndReachItOnceItIsBack() throws Exception {
        // READ and UPDATE are written in batches straight to the connection's channel (CommandBatch). While the
        // connection is down they must fail at once, as Lettuce refuses its own commands while disconnected,
        // not wait for their 5 s timeout; once the server is back (reconnect within 500 ms) they must reach it.
        // After the kill, 300 ms is ample for the client to see its loopback socket closed (the kernel closes
        // it when the process dies; the event loop hears of it at once).
        try (io.loadgen.core.driver.AsyncDriver driver = RedisDriverTest.open(
                Map.of("redis.uri", server.uri(), "redis.timeout", "5s"))) {
            assertEquals(Status.NOT_FOUND, RedisDriverTest.run(driver, "READ", 1));
            server.kill();
            Thread.sleep(300);
            for (String type : new String[] {"READ", "UPDATE"}) {
                long startNs = System.nanoTime();
                assertEquals(Status.ERROR, RedisDriverTest.run(driver, type, 1), type + " while the server is gone");
                long tookMs = (System.nanoTime() - startNs) / 1_000_000;
                assertTrue(tookMs < 1000, type + " was refused after " + tookMs + " ms, not at once");
            }
            assertEquals(0L, driver.stats().get("timeouts"), driver.stats().toString());
            assertEquals(2L, driver.stats().get("connection_errors"), driver.stats().toString());

            server.restart();
            Status read = Status.ERROR;
            for (int attempt = 0; attempt < 50 && read == Status.ERROR; attempt++) { // at most ~5 s
                Thread.sleep(100);
                read = RedisDriverTest.run(driver, "READ", 1);
            }
            assertEquals(Status.NOT_FOUND, read, "a READ reaches the restarted (empty) server");
            assertEquals(Status.OK, RedisDriverTest.run(driver, "UPDATE", 1));
            try (RedisServerProcess.Inspector inspector = server.inspector()) {
                assertEquals(10L, inspector.sync().hlen(RecordLayout.keyName(1)), "the UPDATE wrote every field");
            }
            assertTrue(driver.stats().get("reconnects").longValue() >= 1, driver.stats().toString());
        }
    }

    /** How many operations the interval log {@code hlog} recorded under {@code tag}. */
    static long intendedCountInLog(Path hlog, String tag) throws Exception {
        long count = 0;
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        try {
            EncodableHistogram h;
            while ((h = reader.nextIntervalHistogram()) != null) {
                if (tag.equals(h.getTag())) {
                    count += ((org.HdrHistogram.AbstractHistogram) h).getTotalCount();
                }
            }
        } finally {
            reader.close();
        }
        return count;
    }
}
