package io.loadgen.drivers.redis;

import io.lettuce.core.api.sync.RedisCommands;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code redis.requests} against a real redis-server: every command kind, the mix's weights, the integrity check. */
class DataTypeDriverTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    private static RedisServerProcess server;
    private static RedisServerProcess.Inspector inspector;
    private static RedisCommands<String, String> redis;

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() throws Exception {
        server = RedisServerProcess.start();
        inspector = server.inspector();
        redis = inspector.sync();
    }

    @AfterAll
    static void stopServer() {
        if (inspector != null) {
            inspector.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void emptyTheServer() {
        redis.flushall();
        redis.configResetstat();
    }

    private Path file(String yaml) throws Exception {
        Path f = dir.resolve("commands.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private static Map<String, String> props(Path file, String... more) {
        Map<String, String> given = new HashMap<>(Map.of("redis.uri", server.uri(), "redis.requests", file.toString()));
        for (int i = 0; i + 1 < more.length; i += 2) {
            given.put(more[i], more[i + 1]);
        }
        return given;
    }

    private static AsyncDriver open(Map<String, String> given) {
        RedisDriverProvider provider = new RedisDriverProvider();
        return (AsyncDriver) provider.open(DriverProperties.of("redis", provider.properties(), given),
                new DriverContext(1, 1L));
    }

    /** Submits command {@code type} of the file as the harness would, and waits for its status. */
    private static Status send(AsyncDriver driver, List<String> names, String type) throws InterruptedException {
        Operation op = new Operation(0);
        op.prepare(names.indexOf(type), type, System.nanoTime(), 0);
        RecordedCompletion completion = new RecordedCompletion();
        driver.submit(op, completion);
        Status status = completion.await(WAIT);
        assertEquals(1, completion.calls(), type + " completed exactly once");
        return status;
    }

    @Test
    void everyCommandKindIsSentAndItsReplyBecomesItsStatus() throws Exception {
        Path f = file("""
                - {name: SET, command: SET, key: s, value: 20}
                - {name: SET_TTL, command: SET, key: t, value: {min: 16, max: 40}, ttl: 100s}
                - {name: GET, command: GET, key: s}
                - {name: GET_MISSING, command: GET, key: nothing}
                - {name: INCR, command: INCR, key: counter}
                - {name: LPUSH, command: LPUSH, key: l, value: 20}
                - {name: RPUSH, command: RPUSH, key: l, value: 30}
                - {name: LRANGE, command: LRANGE, key: l, start: 0, stop: -1}
                - {name: LPOP, command: LPOP, key: l}
                - {name: LPOP_MISSING, command: LPOP, key: nothing}
                - {name: SADD, command: SADD, key: set, member: m}
                - {name: SISMEMBER, command: SISMEMBER, key: set, member: m}
                - {name: SMEMBERS, command: SMEMBERS, key: set}
                - {name: SREM, command: SREM, key: set, member: m}
                - {name: ZADD, command: ZADD, key: z, member: p, score: 5}
                - {name: ZINCRBY, command: ZINCRBY, key: z, member: p, increment: 2.5}
                - {name: ZRANGE, command: ZRANGE, key: z}
                - {name: ZRANGEBYSCORE, command: ZRANGEBYSCORE, key: z, min: 7, max: "(8", limit: 5}
                - {name: HSET, command: HSET, key: h, field: f, value: 24}
                - {name: HGET, command: HGET, key: h, field: f}
                - {name: HGET_MISSING, command: HGET, key: h, field: g}
                - {name: HGETALL, command: HGETALL, key: h}
                - {name: HGETALL_MISSING, command: HGETALL, key: nothing}
                - {name: GET_OF_A_LIST, command: GET, key: l}
                - {name: INCR_OF_TEXT, command: INCR, key: s}
                """);
        Map<String, String> given = props(f, "redis.dataintegrity", "true");
        List<String> names = new RedisDriverProvider().operations(DriverProperties.of("redis",
                new RedisDriverProvider().properties(), given));
        AsyncDriver driver = open(given);
        try {
            driver.warmUp(Duration.ofMillis(300).toNanos());
            assertEquals(0L, redis.dbsize(), "the warm-up reads a key nothing writes, and writes nothing");
            assertTrue(inspector.calls("hgetall") > 0, "the warm-up sent the file's reads");
            redis.configResetstat(); // from here the server counts the run's commands only
            Map<String, Status> expected = new java.util.LinkedHashMap<>();
            for (String ok : List.of("SET", "SET_TTL", "GET", "INCR", "LPUSH", "RPUSH", "LRANGE", "LPOP", "SADD",
                    "SISMEMBER", "SMEMBERS", "SREM", "ZADD", "ZINCRBY", "ZRANGE", "ZRANGEBYSCORE", "HSET", "HGET",
                    "HGETALL")) {
                expected.put(ok, Status.OK);
            }
            for (String missing : List.of("GET_MISSING", "LPOP_MISSING", "HGET_MISSING", "HGETALL_MISSING")) {
                expected.put(missing, Status.NOT_FOUND);
            }
            expected.put("GET_OF_A_LIST", Status.ERROR);
            expected.put("INCR_OF_TEXT", Status.ERROR);
            Map<String, Status> got = new java.util.LinkedHashMap<>();
            for (String name : names) {
                got.put(name, send(driver, names, name));
            }
            assertEquals(new TreeSet<>(expected.keySet()), new TreeSet<>(got.keySet()));
            assertEquals(new java.util.TreeMap<>(expected), new java.util.TreeMap<>(got));
            Map<String, Long> sent = new java.util.TreeMap<>(Map.ofEntries(Map.entry("set", 2L), Map.entry("get", 3L),
                    Map.entry("incr", 2L), Map.entry("lpush", 1L), Map.entry("rpush", 1L), Map.entry("lrange", 1L),
                    Map.entry("lpop", 2L), Map.entry("sadd", 1L), Map.entry("sismember", 1L),
                    Map.entry("smembers", 1L), Map.entry("srem", 1L), Map.entry("zadd", 1L), Map.entry("zincrby", 1L),
                    Map.entry("zrange", 1L), Map.entry("zrangebyscore", 1L), Map.entry("hset", 1L),
                    Map.entry("hget", 2L), Map.entry("hgetall", 2L)));
            Map<String, Long> ran = new java.util.TreeMap<>();
            sent.keySet().forEach(command -> ran.put(command, inspector.calls(command)));
            assertEquals(sent, ran, "each command reached the server once per operation, and nothing else did");

            assertEquals(20, redis.strlen("s"));
            assertTrue(redis.get("s").matches("[0-9]+:[a-z]+"), redis.get("s"));
            long ttl = redis.ttl("t");
            assertTrue(ttl > 90 && ttl <= 100, "SET ... EX 100: ttl " + ttl);
            assertEquals("1", redis.get("counter"));
            assertEquals(1L, redis.llen("l"), "two pushed, one popped");
            assertEquals(30, redis.lindex("l", 0).length(), "LPOP took the head, LPUSH's; RPUSH's is left");
            assertEquals(0L, redis.scard("set"), "added, then removed");
            assertEquals(7.5, redis.zscore("z", "p"));
            assertEquals(24, redis.hget("h", "f").length());
            Map<String, Number> stats = driver.stats();
            assertEquals(1L, stats.get("wrongtype_errors"), stats.toString());
            assertEquals(1L, stats.get("server_errors"), "the WRONGTYPE is counted apart: " + stats);
            assertEquals(0L, stats.get("integrity_failures"), stats.toString());
            assertEquals(0L, stats.get("timeouts"), stats.toString());
            assertEquals(0L, stats.get("connection_errors"), stats.toString());
            assertTrue(driver.lastFailure().startsWith("WRONGTYPE"), driver.lastFailure());
        } finally {
            driver.close();
        }
    }

    @Test
    void integrityCatchesEveryValueCorruptedByHandAndOnlyThose() throws Exception {
        Path f = file("""
                commands:
                  - {name: FILL, command: SET, key: {prefix: "s:", count: 50, distribution: sequential}, value: {min: 16, max: 300}}
                  - {name: READ, command: GET, key: {prefix: "s:", count: 50, distribution: sequential}}
                  - {name: FILL_HASH, command: HSET, key: {prefix: "h:", count: 10, distribution: sequential}, field: f1, value: 32}
                  - {name: READ_FIELD, command: HGET, key: {prefix: "h:", count: 10, distribution: sequential}, field: f1}
                  - {name: READ_HASH, command: HGETALL, key: {prefix: "h:", count: 10, distribution: sequential}}
                  - {name: FILL_LIST, command: RPUSH, key: {prefix: "l:", count: 10, distribution: sequential}, value: 32}
                  - {name: READ_LIST, command: LRANGE, key: {prefix: "l:", count: 10, distribution: sequential}, start: 0, stop: -1}
                """);
        Map<String, String> given = props(f, "redis.dataintegrity", "true");
        List<String> names = DataTypeRequests.from(DriverProperties.of("redis", RedisSettings.SPECS, given)).names();
        AsyncDriver driver = open(given);
        try {
            fill(driver, names, "FILL", 50);
            fill(driver, names, "FILL_HASH", 10);
            fill(driver, names, "FILL_HASH", 10); // a second field value, the next version, over the first
            fill(driver, names, "FILL_LIST", 10);
            fill(driver, names, "FILL_LIST", 10); // two elements per list
            assertEquals(70L, redis.dbsize());

            redis.set("s:7", "garbage");                      // not a value at all
            redis.set("s:8", redis.get("s:9"));               // well formed, but s:9's
            redis.hset("h:3", "f1", redis.hget("h:4", "f1")); // h:4's field
            redis.lset("l:5", 1, "0:abcdefghijklmnopqrstuvwxyz"); // the second element, a version 0 of nobody's

            assertEquals(Map.of(Status.OK, 48L, Status.UNEXPECTED_STATE, 2L), statuses(driver, names, "READ", 50));
            assertEquals(Map.of(Status.OK, 9L, Status.UNEXPECTED_STATE, 1L), statuses(driver, names, "READ_FIELD", 10));
            assertEquals(Map.of(Status.OK, 9L, Status.UNEXPECTED_STATE, 1L), statuses(driver, names, "READ_HASH", 10));
            assertEquals(Map.of(Status.OK, 9L, Status.UNEXPECTED_STATE, 1L), statuses(driver, names, "READ_LIST", 10));
            assertEquals(5L, driver.stats().get("integrity_failures"), driver.stats().toString());
        } finally {
            driver.close();
        }
    }

    private static void fill(AsyncDriver driver, List<String> names, String type, int n) throws InterruptedException {
        for (int i = 0; i < n; i++) {
            assertEquals(Status.OK, send(driver, names, type), type + " " + i);
        }
    }

    private static Map<Status, Long> statuses(AsyncDriver driver, List<String> names, String type, int n)
            throws InterruptedException {
        Map<Status, Long> counts = new java.util.EnumMap<>(Status.class);
        for (int i = 0; i < n; i++) {
            counts.merge(send(driver, names, type), 1L, Long::sum);
        }
        return counts;
    }

    /**
     * A run of the file's mix through {@link LoadRun}: each command is its own operation type and series, and is
     * sent as often as its weight says. N = 4000 operations drawn independently with p = w / sum(w): each count is
     * binomial(N, p), within 5 standard deviations, sqrt(N p (1 - p)), of N p (a chance below 6e-7 each that a
     * correct mix falls outside). The server's own count of each command equals the operations of its type.
     */
    @Test
    void aRunMixesTheCommandsByWeightEachInItsOwnSeries() throws Exception {
        Path f = file("""
                - {name: PUT, command: SET, key: {prefix: "k:", count: 100}, value: {size: 50}, weight: 1}
                - {name: COUNT, command: INCR, key: {prefix: "c:", count: 10, distribution: zipfian}, weight: 2}
                - {name: JOIN, command: SADD, key: room, member: {prefix: "u:", count: 1000}, weight: 7}
                """);
        Path hlog = dir.resolve("mix.hlog");
        int n = 4000;
        RunOptions options = RunOptions.builder("redis").properties(props(f)).threads(2).operations((long) n)
                .target(8000.0).duration(Duration.ofSeconds(20)).hlog(hlog).build();
        RunResult result = new LoadRun(options, new RedisDriverProvider(), null).run();
        assertEquals(List.of("PUT", "COUNT", "JOIN"), result.operations().stream().map(OpResult::name).toList());
        double[] weights = {1, 2, 7};
        String[] commands = {"set", "incr", "sadd"};
        long total = 0;
        for (int i = 0; i < 3; i++) {
            OpResult op = result.operations().get(i);
            double p = weights[i] / 10;
            double bound = 5 * Math.sqrt(n * p * (1 - p));
            assertEquals(n * p, op.count(), bound, op.name() + ": " + op.count() + " of " + n);
            assertEquals(op.count(), op.statusCount(Status.OK), op.name() + " all OK");
            assertEquals(op.count(), inspector.calls(commands[i]), op.name() + " is what the server ran");
            assertEquals(op.count(), RedisRunTest.intendedCountInLog(hlog, op.name() + ".intended"), op.name() + "'s series");
            total += op.count();
        }
        assertEquals(n, total);
        assertEquals(0L, result.driverStats().get("server_errors"));
        Set<String> keys = new TreeSet<>(redis.keys("*"));
        assertTrue(keys.contains("room") && keys.stream().allMatch(k -> k.matches("room|k:[0-9]{1,2}|c:[0-9]")),
                keys.toString());
    }
}
