package io.loadgen.drivers.redis;

import io.lettuce.core.MigrateArgs;
import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.workload.CoreWorkloadPlan;
import io.loadgen.core.workload.WorkloadOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code redis} driver on a real Redis Cluster: three masters with a replica each, on free loopback ports
 * ({@link ClusterProcess}), {@code cluster-node-timeout} 1000 ms. One cluster for the class; the tests run in order,
 * the failover last, as it leaves a master dead.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterTest {
    private static final int NODE_TIMEOUT_MS = 1000;
    private static final int RECORDS = 300;

    private static ClusterProcess cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ClusterProcess.start(3, 1, NODE_TIMEOUT_MS);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static CoreWorkloadPlan.Config workload(String name, Map<String, String> overrides) throws Exception {
        Properties file = new Properties();
        try (Reader r = Files.newBufferedReader(Path.of("..", "workloads", name))) {
            file.load(r);
        }
        Map<String, String> props = new HashMap<>();
        file.stringPropertyNames().forEach(k -> props.put(k, file.getProperty(k).trim()));
        props.put("recordcount", Integer.toString(RECORDS));
        props.putAll(overrides);
        return CoreWorkloadPlan.Config.of(WorkloadOptions.from(props));
    }

    private static RunOptions.Builder options() {
        return RunOptions.builder("redis").property("redis.uri", cluster.uri()).property("redis.cluster", "true");
    }

    private static long dbsize(int port) {
        return cluster.on(port, redis -> redis.dbsize());
    }

    private static BadInputException openFails(Map<String, String> given) {
        RedisDriverProvider provider = new RedisDriverProvider();
        return assertThrows(BadInputException.class,
                () -> provider.open(DriverProperties.of("redis", provider.properties(), given), new DriverContext(1, 1L)));
    }

    @Test
    @Order(0)
    void aClusterWithoutTheFlagAPlainServerWithItAndADatabaseAreRefusedInOneLine() throws Exception {
        BadInputException e = openFails(Map.of("redis.uri", cluster.uri()));
        assertEquals("the server at " + cluster.uri() + " is a node of a Redis Cluster (INFO cluster: cluster_enabled:1),"
                + " which serves only its own slots' keys; give -p redis.cluster=true to send each key to the master"
                + " that serves it", e.getMessage());
        e = openFails(Map.of("redis.uri", cluster.uri() + "/1", "redis.cluster", "true"));
        assertEquals("Redis Cluster has only database 0, and redis.uri " + cluster.uri() + "/1 asks for database 1;"
                + " drop the /DB from the URI", e.getMessage());
        try (RedisServerProcess plain = RedisServerProcess.start()) {
            e = openFails(Map.of("redis.uri", plain.uri(), "redis.cluster", "true"));
            assertEquals("the server at " + plain.uri() + " is not a Redis Cluster node (ERR This instance has"
                    + " cluster support disabled); drop -p redis.cluster=true for a single server, or point -p"
                    + " redis.uri at a node of a cluster", e.getMessage());
        }
    }

    @Test
    @Order(1)
    void ycsbWorkloadsAToFRunOnTheClusterEveryOperationOkAndRecordsOnEveryMaster() throws Exception {
        CoreWorkloadPlan.Config load = workload("workloada", Map.of());
        RunResult loaded = new LoadRun(options().threads(2).operations((long) RECORDS).build(), new RedisDriverProvider(),
                CoreWorkloadPlan.load(load), null).run();
        assertEquals(RECORDS, loaded.operations().get(0).statusCount(Status.OK), "every record loaded");
        assertEquals(6L, loaded.driverStats().get("connections").longValue(), "2 threads x 3 masters");
        assertEquals(3L, loaded.driverStats().get("masters").longValue());
        Map<Integer, String> masters = cluster.masters();
        assertEquals(3, masters.size());
        long total = 0;
        for (int port : masters.keySet()) {
            long keys = dbsize(port);
            assertTrue(keys > RECORDS / 10, "master " + port + " holds " + keys + " keys: records on every master");
            total += keys;
        }
        assertEquals(RECORDS + 1L, total, "the records and the one index, each once");
        int indexMaster = cluster.masterOf(ClusterSlots.slot(RecordLayout.INDEX_KEY));
        assertEquals((long) RECORDS, cluster.<Long>on(indexMaster, redis -> redis.zcard(RecordLayout.INDEX_KEY)),
                "YCSB's one index, on the master serving its slot");

        Map<String, Set<String>> expected = Map.of(
                "workloada", Set.of("READ", "UPDATE"),
                "workloadb", Set.of("READ", "UPDATE"),
                "workloadc", Set.of("READ"),
                "workloadd", Set.of("READ", "INSERT"),
                "workloade", Set.of("SCAN", "INSERT"),
                "workloadf", Set.of("READ", "READ-MODIFY-WRITE"));
        for (String name : new TreeSet<>(expected.keySet())) {
            // 400 operations at 2000/s: 0.2 s each. Every record exists, so every operation is OK.
            RunResult r = new LoadRun(options().threads(2).operations(400L).target(2000.0).coldStart(true).build(),
                    new RedisDriverProvider(), CoreWorkloadPlan.run(workload(name, Map.of())), null).run();
            Set<String> ops = new TreeSet<>();
            long count = 0;
            for (OpResult op : r.operations()) {
                ops.add(op.name());
                count += op.count();
                assertEquals(op.count(), op.statusCount(Status.OK), name + " " + op.name() + ": every one OK");
            }
            assertEquals(new TreeSet<>(expected.get(name)), ops, name);
            assertEquals(400L, count, name);
            assertEquals(0L, r.driverStats().get("moved").longValue(), name + ": the map read at open is right");
        }
    }

    @Test
    @Order(2)
    void redisRequestsRunOnTheClusterEachKeyOnItsMaster(@TempDir Path dir) throws Exception {
        // redis.requests' commands, each one operation, go to their key's master as YCSB's do: 100 keys per
        // prefix spread over all three masters; a counter and a set per key, every command answered OK.
        Path file = Files.writeString(dir.resolve("commands.yaml"), String.join("\n",
                "- {name: COUNT, command: INCR, key: {prefix: \"c:\", count: 100}, weight: 2}",
                "- {name: JOIN, command: SADD, key: {prefix: \"room:\", count: 100}, member: {prefix: \"u\", count: 50}, weight: 1}",
                "- {name: PUT, command: SET, key: {prefix: \"s:\", count: 100}, value: 20, weight: 1}", ""));
        RunResult r = new LoadRun(options().property("redis.requests", file.toString()).threads(2).operations(800L)
                .target(4000.0).build(), new RedisDriverProvider(), null).run();
        assertEquals(List.of("COUNT", "JOIN", "PUT"), r.operations().stream().map(OpResult::name).toList());
        long total = 0;
        for (OpResult op : r.operations()) {
            assertEquals(op.count(), op.statusCount(Status.OK), op.name() + ": every one OK, " + r.driverStats());
            total += op.count();
        }
        assertEquals(800L, total);
        assertEquals(6L, r.driverStats().get("connections").longValue(), r.driverStats().toString());
        long counted = 0;
        for (int port : cluster.masters().keySet()) {
            List<String> counters = cluster.on(port, redis -> redis.keys("c:*"));
            assertTrue(!counters.isEmpty(), "master " + port + " holds counters");
            for (String key : counters) {
                counted += Long.parseLong(cluster.on(port, redis -> redis.get(key)));
            }
        }
        assertEquals(r.operations().get(0).count(), counted, "every INCR reached its key, once");
    }

    @Test
    @Order(3)
    void aSlotMigratedUnderTheDriverIsFollowedByAskThenMovedAndEveryReadFindsItsRecord() throws Exception {
        try (AsyncDriver driver = RedisDriverTest.open(Map.of("redis.uri", cluster.uri(), "redis.cluster", "true"))) {
            long key = 7;
            assertEquals(Status.OK, RedisDriverTest.run(driver, "INSERT", key));
            String name = RecordLayout.keyName(key);
            int slot = ClusterSlots.slot(name);
            int from = cluster.masterOf(slot);
            Map<Integer, String> masters = cluster.masters();
            int to = masters.keySet().stream().filter(p -> p != from).findFirst().orElseThrow();
            // Half a migration: the slot is MIGRATING on its master, IMPORTING on the other, and the key has moved.
            // Its old master now answers ASK for it (the slot is still its own); the map must not change.
            cluster.on(to, redis -> redis.clusterSetSlotImporting(slot, masters.get(from)));
            cluster.on(from, redis -> redis.clusterSetSlotMigrating(slot, masters.get(to)));
            cluster.on(from, redis -> redis.migrate("127.0.0.1", to, 0, 5000, MigrateArgs.Builder.keys(name)));
            assertEquals(1L, cluster.<Long>on(to, redis -> {
                redis.asking(); // the slot is not its own yet: without ASKING it would answer MOVED
                return redis.exists(name);
            }));

            assertEquals(Status.OK, RedisDriverTest.run(driver, "READ", key), "READ (hot path) follows the ASK");
            assertEquals(Status.OK, RedisDriverTest.run(driver, "UPDATE", key));
            assertEquals(Status.OK, RedisDriverTest.run(driver, "READ-MODIFY-WRITE", key), "Lettuce's path follows it too");
            Map<String, Number> stats = ((RedisDriver) driver).stats();
            assertEquals(4L, stats.get("ask").longValue(), "READ, UPDATE, and RMW's HGETALL and HSET: " + stats);
            assertEquals(0L, stats.get("moved").longValue(), stats.toString());
            assertEquals("u7-3:", cluster.on(to, redis -> {
                redis.asking();
                return redis.hget(name, "field3");
            }).substring(0, 5),
                    "the update reached the key on its new master");

            // The migration ends: every master hears the slot's new owner; the old one answers MOVED from now on.
            finishMigration(slot, from, to, masters);
            assertEquals(Status.OK, RedisDriverTest.run(driver, "READ", key));
            assertEquals(Status.OK, RedisDriverTest.run(driver, "READ", key));
            assertEquals(Status.OK, RedisDriverTest.run(driver, "DELETE", key), "DEL to the key's master, ZREM to the index's");
            assertEquals(Status.NOT_FOUND, RedisDriverTest.run(driver, "READ", key));
            stats = ((RedisDriver) driver).stats();
            assertEquals(1L, stats.get("moved").longValue(), "one MOVED, then the map knew: " + stats);
            assertEquals(4L, stats.get("ask").longValue(), stats.toString());
            assertEquals(0L, stats.get("server_errors").longValue(), stats.toString());
            long refreshes = stats.get("slot_map_refreshes").longValue();
            assertTrue(refreshes >= 1 || awaitRefresh((RedisDriver) driver), "a MOVED asks for a refresh: " + stats);
            assertEquals(0L, cluster.<Long>on(to, redis -> redis.exists(name)));
        }
    }

    /** Whether the refresh a MOVED asked for is done within a second (it runs at most 100 ms after the ask). */
    private static boolean awaitRefresh(RedisDriver driver) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            if (driver.stats().get("slot_map_refreshes").longValue() >= 1) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    @Test
    @Order(4)
    void aSlotMovedMidRunSendsEveryReadToItsNewMasterWithoutAnError() throws Exception {
        // Reads at 1500/s for 2 s, uniformly over the records; at 0.6 s twenty slots that hold records move (keys
        // migrated, then every master told), so the reads of their keys meet MOVED (and ASK while a slot moves).
        CoreWorkloadPlan.Config reads = workload("workloadc", Map.of("requestdistribution", "uniform"));
        CompletableFuture<Integer> moved = CompletableFuture.supplyAsync(() -> {
            sleep(600);
            return migrateSlots(20);
        });
        RunResult r = new LoadRun(options().threads(2).operations(3000L).target(1500.0).coldStart(true).build(),
                new RedisDriverProvider(), CoreWorkloadPlan.run(reads), null).run();
        assertEquals(20, moved.get(10, TimeUnit.SECONDS));
        OpResult read = r.operations().get(0);
        assertEquals(3000L, read.count());
        assertEquals(3000L, read.statusCount(Status.OK), "every read found its record: " + r.driverStats());
        assertTrue(r.driverStats().get("moved").longValue() > 0, r.driverStats().toString());
        assertTrue(r.driverStats().get("slot_map_refreshes").longValue() > 0, r.driverStats().toString());
        assertEquals(0L, r.driverStats().get("server_errors").longValue());
        System.out.println("slots moved mid-run: " + r.driverStats());
    }

    /** Moves {@code n} slots that hold records (not the index's) from one master to another; returns n. */
    private static int migrateSlots(int n) {
        Map<Integer, String> masters = cluster.masters();
        List<Integer> ports = List.copyOf(masters.keySet());
        int from = ports.get(0);
        int to = ports.get(1);
        int indexSlot = ClusterSlots.slot(RecordLayout.INDEX_KEY);
        Set<Integer> slots = new TreeSet<>();
        for (String key : cluster.on(from, redis -> redis.keys("user*"))) {
            int slot = ClusterSlots.slot(key);
            if (slot != indexSlot && slots.size() < n) {
                slots.add(slot);
            }
        }
        for (int slot : slots) {
            cluster.on(to, redis -> redis.clusterSetSlotImporting(slot, masters.get(from)));
            cluster.on(from, redis -> redis.clusterSetSlotMigrating(slot, masters.get(to)));
            List<String> keys = cluster.on(from, redis -> redis.clusterGetKeysInSlot(slot, 1000));
            cluster.on(from, redis -> redis.migrate("127.0.0.1", to, 0, 5000, MigrateArgs.Builder.keys(keys)));
            finishMigration(slot, from, to, masters);
        }
        return slots.size();
    }

    /**
     * Tells every master that {@code to} serves {@code slot} now: {@code to} first, so that it stops redirecting the
     * slot back to {@code from} before {@code from} starts redirecting it to {@code to} (else a command could bounce
     * between them), then {@code from}, then the others, as Redis's cluster tutorial orders it.
     */
    private static void finishMigration(int slot, int from, int to, Map<Integer, String> masters) {
        cluster.on(to, redis -> redis.clusterSetSlotNode(slot, masters.get(to)));
        cluster.on(from, redis -> redis.clusterSetSlotNode(slot, masters.get(to)));
        for (int port : masters.keySet()) {
            if (port != from && port != to) {
                cluster.on(port, redis -> redis.clusterSetSlotNode(slot, masters.get(to)));
            }
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    @Order(5)
    void aMasterKilledMidRunIsWaitedOutUntilItsReplicaTakesOverAndTheIntendedViewCarriesTheOutage() throws Exception {
        // One thread reads at 500/s for 5 s (2500 reads, uniform over the records); at 1 s the master serving a
        // third of the slots is killed (SIGKILL). Its replica takes over once the others have not heard from it
        // for cluster-node-timeout (1000 ms) and its election delay (500 ms and more) has passed: an outage of
        // at least 1.5 s. Reads of its slots wait for a slot map that names a live master, and end as TIMEOUT
        // after redis.timeout (1 s), so the outage is errors counted by status, and the one thread is held up
        // for the whole outage: the read it sends when the new master serves was due just after the kill, so the
        // intended max is at least the outage (less the few ms before the first read of a dead slot, and the 100 ms
        // between refreshes: 300 ms is ample), while no read is served in more than the 1 s timeout.
        int victim = cluster.masterOf(ClusterSlots.slot(RecordLayout.keyName(1)));
        int replica = cluster.replicaOf(victim);
        CoreWorkloadPlan.Config reads = workload("workloadc", Map.of("requestdistribution", "uniform"));
        long[] outageNs = new long[1];
        CompletableFuture<Void> chaos = CompletableFuture.runAsync(() -> {
            sleep(1000);
            try {
                cluster.kill(victim);
                long killedNs = System.nanoTime();
                while (!cluster.on(replica, redis -> redis.info("replication")).contains("role:master")) {
                    sleep(10);
                    if (System.nanoTime() - killedNs > TimeUnit.SECONDS.toNanos(15)) {
                        throw new AssertionError("the replica did not take over within 15 s");
                    }
                }
                outageNs[0] = System.nanoTime() - killedNs;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        long startNs = System.nanoTime();
        RunResult r = new LoadRun(options().threads(1).operations(2500L).target(500.0).coldStart(true).build(),
                new RedisDriverProvider(), CoreWorkloadPlan.run(reads), null).run();
        long tookMs = (System.nanoTime() - startNs) / 1_000_000;
        chaos.get(20, TimeUnit.SECONDS);
        long outageMs = outageNs[0] / 1_000_000;

        OpResult read = r.operations().get(0);
        long ok = read.statusCount(Status.OK);
        long timeouts = read.statusCount(Status.TIMEOUT);
        long errors = read.statusCount(Status.ERROR);
        Map<String, Number> stats = r.driverStats();
        assertEquals(2500L, read.count(), "every read completed and was recorded");
        assertEquals(2500L, ok + timeouts + errors, "OK, TIMEOUT or ERROR: " + stats);
        assertTrue(timeouts >= 1, "a read of the dead master's slots outlived the 1 s timeout: " + stats);
        assertEquals(stats.get("timeouts").longValue(), timeouts, "the driver's timeouts are the TIMEOUT returns");
        assertEquals(errors, stats.get("connection_errors").longValue() + stats.get("server_errors").longValue(),
                "every ERROR counted by cause: " + stats);
        assertTrue(ok > 2000, "the other masters served throughout, the new one after: " + ok);
        assertEquals(0L, r.harness().get("in_flight_at_end"));
        assertTrue(outageMs >= NODE_TIMEOUT_MS, "outage " + outageMs + " ms");
        // On time: 5 s of schedule, the last reads at most 1 s late (a timeout), 2 s for a slow machine.
        assertTrue(tookMs < 8_000, "the run took " + tookMs + " ms");
        long intendedMaxMs = Math.max(read.histogram(View.INTENDED).getMaxValue(),
                read.failedHistogram(View.INTENDED).getMaxValue()) / 1_000_000;
        long serviceMaxMs = Math.max(read.histogram(View.SERVICE).getMaxValue(),
                read.failedHistogram(View.SERVICE).getMaxValue()) / 1_000_000;
        assertTrue(intendedMaxMs >= outageMs - 300, "intended max " + intendedMaxMs + " ms, outage " + outageMs + " ms");
        assertTrue(serviceMaxMs <= 1_300, "service max " + serviceMaxMs + " ms: no read served beyond the timeout");
        assertTrue(stats.get("slot_map_refreshes").longValue() >= 1, stats.toString());
        assertEquals(3L, stats.get("masters").longValue(), "the replica serves the dead master's slots: " + stats);
        assertEquals(3L, stats.get("connections").longValue(), "one to each live master; the dead one's closed: " + stats);
        assertNotEquals(victim, cluster.masterOf(ClusterSlots.slot(RecordLayout.keyName(1))));
        System.out.printf("failover: outage %d ms, ok %d, timeouts %d, errors %d, intended max %d ms, service max %d ms,"
                + " run %d ms, %s%n", outageMs, ok, timeouts, errors, intendedMaxMs, serviceMaxMs, tookMs, stats);
    }
}
