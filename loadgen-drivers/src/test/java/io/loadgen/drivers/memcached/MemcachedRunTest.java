package io.loadgen.drivers.memcached;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.workload.CoreWorkloadPlan;
import io.loadgen.core.workload.WorkloadOptions;
import io.loadgen.drivers.redis.RecordValues;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole runs through {@link LoadRun}'s issuers on the connections' event loops, against a real memcached. */
class MemcachedRunTest {
    private static final int RECORDS = 300;
    private static MemcachedServerProcess server;

    /** A server of its own per test (and per workload): flush_all empties a server lazily, curr_items would lag. */
    @BeforeEach
    void startServer() throws Exception {
        server = MemcachedServerProcess.start();
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static long stat(String name) throws Exception {
        try (MemcachedServerProcess.Inspector inspector = server.inspector()) {
            return inspector.stat(name);
        }
    }

    private static RunOptions.Builder options() {
        return RunOptions.builder("memcached").property("memcached.uri", server.uri()).seed(5);
    }

    private static OpResult op(RunResult r, String name) {
        return r.operations().stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }

    private static WorkloadOptions workload(String name) throws Exception {
        Properties file = new Properties();
        try (Reader r = Files.newBufferedReader(Path.of("..", "workloads", name))) {
            file.load(r);
        }
        Map<String, String> props = new HashMap<>();
        file.stringPropertyNames().forEach(k -> props.put(k, file.getProperty(k).trim()));
        props.put("recordcount", Integer.toString(RECORDS));
        return WorkloadOptions.from(props);
    }

    /**
     * YCSB's six core workloads, each loaded (300 records) and then run (1500 operations at 3000/s on 2 threads):
     * every READ, UPDATE, INSERT and READ-MODIFY-WRITE is OK (the run reads only keys the load or the run's own
     * acknowledged inserts wrote, so none misses), every SCAN (workload e's 95 %) is NOT_IMPLEMENTED and counted
     * by the driver, and the server holds what the phases wrote: 300 items plus the run's inserts.
     */
    @Test
    void ycsbWorkloadsAToFLoadAndRunWithEveryOperationAnsweredAsItShouldBe() throws Exception {
        for (String name : List.of("workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf")) {
            server.close();
            server = MemcachedServerProcess.start();
            WorkloadOptions w = workload(name);
            CoreWorkloadPlan.Config config = CoreWorkloadPlan.Config.of(w);
            RunResult loaded = new LoadRun(options().threads(2).coldStart(true).operations(w.insertCount()).build(),
                    new MemcachedDriverProvider(), CoreWorkloadPlan.load(config), null).run();
            assertEquals(RECORDS, op(loaded, "INSERT").statusCount(Status.OK), name + " load");
            assertEquals(RECORDS, stat("curr_items"), name + ": one item per record");

            RunResult ran = new LoadRun(options().threads(2).coldStart(true).operations(1500L).target(3000.0).build(),
                    new MemcachedDriverProvider(), CoreWorkloadPlan.run(config), null).run();
            long total = 0;
            long inserts = 0;
            for (OpResult o : ran.operations()) {
                total += o.count();
                if (o.name().equals("SCAN")) {
                    assertEquals(o.count(), o.statusCount(Status.NOT_IMPLEMENTED), name + " SCAN");
                    assertEquals(o.count(), ran.driverStats().get("not_implemented").longValue(), name);
                } else {
                    assertEquals(o.count(), o.statusCount(Status.OK), name + " " + o.name() + " all OK");
                }
                if (o.name().equals("INSERT")) {
                    inserts = o.count();
                }
            }
            assertEquals(1500, total, name);
            assertEquals(0L, ran.driverStats().get("misses").longValue(), name);
            assertEquals(RECORDS + inserts, stat("curr_items"), name + ": the load's items and the run's inserts");
            if (name.equals("workloade")) {
                assertTrue(op(ran, "SCAN").count() > 1300, "workload e is 95 % SCAN");
            }
        }
    }

    @Test
    void anInsertRunWritesEveryKeyOnceAndAReadRunReadsThemAllBack() throws Exception {
        int n = 2000;
        RunResult insert = new LoadRun(options().operation("INSERT").operations((long) n).threads(2).target(4000.0)
                .duration(Duration.ofSeconds(20)).build(), new MemcachedDriverProvider(), null).run();
        assertEquals(n, op(insert, "INSERT").statusCount(Status.OK));
        assertEquals(n, stat("curr_items"));
        RecordValues records = RecordValues.of(10, 100);
        try (MemcachedServerProcess.Inspector inspector = server.inspector()) {
            for (long k : new long[] {0, 1, 999, n - 1}) {
                assertEquals(MemcachedDriverTest.expectedValue(records, k, RecordValues.INSERTED),
                        inspector.get("user" + k), "item " + k);
            }
        }
        RunResult read = new LoadRun(options().operation("READ").operations((long) n).threads(2).target(4000.0)
                .duration(Duration.ofSeconds(20)).build(), new MemcachedDriverProvider(), null).run();
        OpResult reads = op(read, "READ");
        assertEquals(n, reads.statusCount(Status.OK), "every key read back (a missing one is NOT_FOUND)");
        assertEquals(n, reads.histogram(View.INTENDED).getTotalCount());
    }

    /**
     * {@code -c} ({@code memcached.connections}) means memtier's clients: without {@code --max-in-flight} a thread
     * keeps one operation in flight on each of its connections; {@code --max-in-flight} still wins, and pipelines
     * on one connection when asked.
     */
    @Test
    void theInFlightDefaultFollowsTheConnectionsPerThreadAndMaxInFlightWins() throws Exception {
        assertEquals(1, perThread(run(1, 0, null)), "no -c: a connection per thread, one in flight each");
        RunResult sixteen = run(1, 16, null);
        assertEquals(16, perThread(sixteen), "16 connections on one thread: 16 in flight");
        assertEquals(16, sixteen.driverStats().get("connections").intValue());
        assertEquals(4, perThread(run(4, 16, null)), "16 over 4 threads: 4 each");
        assertEquals(2, perThread(run(1, 16, 2)), "--max-in-flight wins");
        RunResult pipelined = run(1, 1, 8);
        assertEquals(8, perThread(pipelined), "and pipelines on one connection when asked");
        assertEquals(0, pipelined.operations().get(0).errors());
    }

    private static RunResult run(int threads, int connections, Integer maxInFlight) throws Exception {
        RunOptions.Builder b = options().operation("UPDATE").target(2000.0).threads(threads).coldStart(true)
                .duration(Duration.ofMillis(300)).maxInFlight(maxInFlight);
        if (connections > 0) {
            b.property("memcached.connections", Integer.toString(connections));
        }
        return new LoadRun(b.build(), new MemcachedDriverProvider(), null).run();
    }

    private static long perThread(RunResult r) {
        return r.harness().get("max_in_flight_per_thread").longValue();
    }
}
