package io.loadgen.drivers.redis;

import io.lettuce.core.api.sync.RedisCommands;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every operation type against a real redis-server, submitted one at a time with a test completion. */
class RedisDriverTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final List<String> OPS = new RedisDriverProvider().operations();

    private static RedisServerProcess server;
    private static RedisServerProcess.Inspector inspector;
    private static RedisCommands<String, String> redis;
    private static AsyncDriver driver;
    private static final RecordLayout LAYOUT = new RecordLayout(10, 100);

    @BeforeAll
    static void startServer() throws Exception {
        server = RedisServerProcess.start();
        inspector = server.inspector();
        redis = inspector.sync();
        driver = open(Map.of("redis.uri", server.uri()));
    }

    @AfterAll
    static void stopServer() throws Exception {
        if (driver != null) {
            driver.close();
        }
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
    }

    static AsyncDriver open(Map<String, String> given) {
        RedisDriverProvider provider = new RedisDriverProvider();
        return (AsyncDriver) provider.open(DriverProperties.of("redis", provider.properties(), given),
                new DriverContext(1, 1L));
    }

    /** Submits one operation as the harness would (reusing nothing) and waits for its status. */
    static Status run(AsyncDriver driver, String type, long keyNumber) throws InterruptedException {
        Operation op = new Operation(0);
        op.prepare(OPS.indexOf(type), type, System.nanoTime(), keyNumber);
        RecordedCompletion completion = new RecordedCompletion();
        driver.submit(op, completion);
        Status status = completion.await(WAIT);
        assertEquals(1, completion.calls(), "completed exactly once");
        return status;
    }

    private static Status run(String type, long keyNumber) throws InterruptedException {
        return run(driver, type, keyNumber);
    }

    private static Map<String, String> expectedRecord(long keyNumber, byte writer) {
        Map<String, String> record = new HashMap<>();
        for (int f = 0; f < 10; f++) {
            record.put("field" + f, LAYOUT.valueText(keyNumber, f, writer));
        }
        return record;
    }

    @Test
    void insertWritesEveryFieldAndIndexesTheKeyByItsHash() throws Exception {
        assertEquals(Status.OK, run("INSERT", 7));

        assertEquals(expectedRecord(7, RecordLayout.INSERTED), redis.hgetall("user7"));
        assertEquals("i7-0:", redis.hget("user7", "field0").substring(0, 5));
        assertEquals(100, redis.hget("user7", "field9").length());
        assertEquals((double) "user7".hashCode(), redis.zscore("_indices", "user7"));
        assertEquals(2L, redis.dbsize(), "the hash and the index, nothing else");
    }

    @Test
    void readOfAnInsertedRecordIsOkAndOfAMissingOneIsNotFound() throws Exception {
        assertEquals(Status.OK, run("INSERT", 3));
        long before = inspector.calls("hgetall");

        assertEquals(Status.OK, run("READ", 3));
        assertEquals(Status.NOT_FOUND, run("READ", 4));
        assertEquals(before + 2, inspector.calls("hgetall"));
    }

    @Test
    void updateRewritesEveryFieldWithTheUpdateValue() throws Exception {
        assertEquals(Status.OK, run("INSERT", 11));
        assertEquals(Status.OK, run("UPDATE", 11));

        assertEquals(expectedRecord(11, RecordLayout.UPDATED), redis.hgetall("user11"));
        assertEquals(1L, redis.zcard("_indices"), "an update does not touch the index");
    }

    @Test
    void scanReadsScanLengthRecordsInIndexOrderFromTheStartKey() throws Exception {
        for (long k = 0; k < 40; k++) {
            assertEquals(Status.OK, run("INSERT", k));
        }
        // The index orders keys by score (hashCode), ties by key; a scan starts at the start key's score.
        String start = "user17";
        List<String> expected = LongStream.range(0, 40).mapToObj(RecordLayout::keyName)
                .filter(k -> k.hashCode() >= start.hashCode())
                .sorted(Comparator.comparingInt(String::hashCode).thenComparing(Comparator.naturalOrder()))
                .limit(10)
                .collect(Collectors.toList());
        assertEquals(10, expected.size(), "the test needs a full scan: pick another start key");

        List<String> scanned = new ArrayList<>();
        for (byte[] key : ((RedisDriver) driver).scanKeys(start).toCompletableFuture().get()) {
            scanned.add(new String(key, StandardCharsets.US_ASCII));
        }
        assertEquals(expected, scanned);

        long before = inspector.calls("hgetall");
        assertEquals(Status.OK, run("SCAN", 17));
        assertEquals(before + 10, inspector.calls("hgetall"), "a SCAN reads every record it finds");
    }

    /** Submits one operation with a workload's details (one field, or a scan length) and waits for its status. */
    private static Status run(String type, long keyNumber, int field, int scanLength) throws InterruptedException {
        Operation op = new Operation(0);
        op.prepare(OPS.indexOf(type), type, System.nanoTime(), keyNumber);
        op.detail(field, scanLength);
        RecordedCompletion completion = new RecordedCompletion();
        driver.submit(op, completion);
        return completion.await(WAIT);
    }

    @Test
    void aWorkloadsOneFieldReadAndUpdateTouchOnlyThatField() throws Exception {
        // YCSB's readallfields=false / writeallfields=false: HGET and HSET of the one field the workload chose.
        assertEquals(Status.OK, run("INSERT", 5));
        long hgetallBefore = inspector.calls("hgetall");
        assertEquals(Status.OK, run("READ", 5, 3, 0));
        assertEquals(Status.NOT_FOUND, run("READ", 6, 3, 0));
        assertEquals(hgetallBefore, inspector.calls("hgetall"), "a one-field read is an HGET, not an HGETALL");
        assertEquals(Status.OK, run("UPDATE", 5, 2, 0));
        Map<String, String> expected = expectedRecord(5, RecordLayout.INSERTED);
        expected.put("field2", LAYOUT.valueText(5, 2, RecordLayout.UPDATED));
        assertEquals(expected, redis.hgetall("user5"), "only field2 was rewritten");
    }

    @Test
    void aWorkloadsScanLengthOverridesTheDriversDefault() throws Exception {
        for (long k = 0; k < 40; k++) {
            assertEquals(Status.OK, run("INSERT", k));
        }
        long before = inspector.calls("hgetall");
        // From user17 at least 10 keys follow in index order (see the test above), so a scan of 3 reads exactly 3.
        assertEquals(Status.OK, run("SCAN", 17, -1, 3));
        assertEquals(before + 3, inspector.calls("hgetall"));
    }

    @Test
    void scanPastTheLastKeyIsOkAndReadsNothing() throws Exception {
        assertEquals(Status.OK, run("INSERT", 1));
        long before = inspector.calls("hgetall");
        // Scan from a key whose score is above every indexed one.
        long above = LongStream.range(2, 1000).filter(k -> RecordLayout.keyName(k).hashCode() > "user1".hashCode())
                .findFirst().orElseThrow();
        assertEquals(Status.OK, run("SCAN", above));
        assertEquals(before, inspector.calls("hgetall"));
    }

    @Test
    void readModifyWriteRewritesAnExistingRecordAndLeavesAMissingOneMissing() throws Exception {
        assertEquals(Status.OK, run("INSERT", 5));
        long readsBefore = inspector.calls("hgetall");

        assertEquals(Status.OK, run("READ-MODIFY-WRITE", 5));
        assertEquals(readsBefore + 1, inspector.calls("hgetall"), "it reads first");
        assertEquals(expectedRecord(5, RecordLayout.UPDATED), redis.hgetall("user5"));

        assertEquals(Status.NOT_FOUND, run("READ-MODIFY-WRITE", 6));
        assertEquals(0L, redis.exists("user6"));
    }

    @Test
    void deleteRemovesTheRecordAndItsIndexEntryThenReadIsNotFound() throws Exception {
        assertEquals(Status.OK, run("INSERT", 9));
        assertEquals(Status.OK, run("INSERT", 10));

        assertEquals(Status.OK, run("DELETE", 9));
        assertEquals(Status.NOT_FOUND, run("READ", 9));
        assertEquals(0L, redis.exists("user9"));
        assertEquals(List.of("user10"), redis.zrange("_indices", 0, -1));
        assertEquals(Status.NOT_FOUND, run("DELETE", 9), "deleting it again finds nothing");
    }

    @Test
    void concurrentSubmitsFromTwoThreadsEachCompleteOnce() throws Exception {
        int perThread = 500;
        RecordedCompletion[][] completions = new RecordedCompletion[2][perThread];
        Thread[] issuers = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int thread = t;
            issuers[t] = new Thread(() -> {
                Operation op = new Operation(thread);
                for (int i = 0; i < perThread; i++) {
                    op.prepare(OPS.indexOf("INSERT"), "INSERT", System.nanoTime(), (long) i * 2 + thread);
                    completions[thread][i] = new RecordedCompletion();
                    driver.submit(op, completions[thread][i]);
                }
            });
            issuers[t].start();
        }
        for (Thread issuer : issuers) {
            issuer.join(WAIT.toMillis());
        }
        for (RecordedCompletion[] row : completions) {
            for (RecordedCompletion c : row) {
                assertEquals(Status.OK, c.await(WAIT));
                assertEquals(1, c.calls());
            }
        }
        // Keys 0..999, each inserted once, with its own values (the Operation was reused between submits).
        assertEquals(1000L, redis.zcard("_indices"));
        assertEquals(expectedRecord(999, RecordLayout.INSERTED), redis.hgetall("user999"));
        assertEquals(expectedRecord(0, RecordLayout.INSERTED), redis.hgetall("user0"));
    }

    @Test
    void onePassOfReadsAndUpdatesIsOneBatchAndEachReplyReachesItsOwnOperation() throws Exception {
        // Keys 0, 2, ..., 62 exist. One task on the connection's event loop submits 64 READs (keys 0..63) and
        // 16 UPDATEs (keys 0, 4, ..., 60) interleaved, all in one pass, so CommandBatch writes them as one
        // message. Redis answers in order; each reply must complete its own operation: a READ of an even key
        // is OK, of an odd key NOT_FOUND, an UPDATE OK, and every update lands on its own key.
        for (long k = 0; k < 64; k += 2) {
            assertEquals(Status.OK, run("INSERT", k));
        }
        List<RecordedCompletion> reads = new ArrayList<>();
        List<RecordedCompletion> updates = new ArrayList<>();
        driver.issuerExecutor(0).submit(() -> {
            Operation op = new Operation(0);
            for (long k = 0; k < 64; k++) {
                op.prepare(OPS.indexOf("READ"), "READ", System.nanoTime(), k);
                RecordedCompletion read = new RecordedCompletion();
                reads.add(read);
                driver.submit(op, read);
                if (k % 4 == 0) {
                    op.prepare(OPS.indexOf("UPDATE"), "UPDATE", System.nanoTime(), k);
                    RecordedCompletion update = new RecordedCompletion();
                    updates.add(update);
                    driver.submit(op, update);
                }
            }
        }).get(WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        for (int k = 0; k < 64; k++) {
            assertEquals(k % 2 == 0 ? Status.OK : Status.NOT_FOUND, reads.get(k).await(WAIT), "READ of key " + k);
            assertEquals(1, reads.get(k).calls());
        }
        for (int u = 0; u < updates.size(); u++) {
            assertEquals(Status.OK, updates.get(u).await(WAIT), "UPDATE of key " + 4 * u);
            assertEquals(expectedRecord(4L * u, RecordLayout.UPDATED), redis.hgetall("user" + 4 * u));
        }
        assertEquals(expectedRecord(2, RecordLayout.INSERTED), redis.hgetall("user2"), "a record not updated keeps its values");
    }

    @Test
    void commandTimeoutCompletesWithTimeoutWhileTheServerDoesNotAnswer() throws Exception {
        try (AsyncDriver impatient = open(Map.of("redis.uri", server.uri(), "redis.timeout", "200ms"))) {
            assertEquals(Status.OK, run(impatient, "INSERT", 1));
            server.pause();
            try {
                long startNs = System.nanoTime();
                assertEquals(Status.TIMEOUT, run(impatient, "READ", 1));
                long tookMs = (System.nanoTime() - startNs) / 1_000_000;
                // The driver's own timer on the connection's loop: 200 ms plus its precision and two thread
                // wake-ups (60 ms allows a busy 2-core VM). Lettuce's 100 ms timer wheel could take 300.
                assertTrue(tookMs >= 199 && tookMs < 260, "completed after " + tookMs + " ms, not at the 200 ms timeout");
                assertEquals(1L, impatient.stats().get("timeouts"));
            } finally {
                server.resume();
            }
            assertEquals(Status.OK, run(impatient, "READ", 1), "answers again once the server does");
        }
    }

    @Test
    void everyOperationEndsAtItsTimeoutHoweverManyCommandsItSends() throws Exception {
        // With the server stopped, READ (one command), INSERT (two, pipelined), SCAN (two, the second sent only
        // after the first is answered) and READ-MODIFY-WRITE each end with TIMEOUT 150 ms after they start: one
        // deadline per operation from its start, not one per command from each command's send (under which a
        // SCAN could last two timeouts). Bound: 150 ms plus the loop timer's precision and thread wake-ups;
        // 60 ms allows a busy 2-core VM, and stays below what Lettuce's 100 ms timer wheel would allow (250 ms).
        try (AsyncDriver impatient = open(Map.of("redis.uri", server.uri(), "redis.timeout", "150ms"))) {
            assertEquals(Status.OK, run(impatient, "INSERT", 7));
            server.pause();
            try {
                for (String type : List.of("READ", "INSERT", "SCAN", "READ-MODIFY-WRITE")) {
                    long startNs = System.nanoTime();
                    assertEquals(Status.TIMEOUT, run(impatient, type, 7), type);
                    long tookMs = (System.nanoTime() - startNs) / 1_000_000;
                    assertTrue(tookMs >= 149 && tookMs < 210, type + " ended after " + tookMs + " ms, not at its 150 ms timeout");
                }
                assertEquals(4L, impatient.stats().get("timeouts"));
            } finally {
                server.resume();
            }
            assertEquals(Status.OK, run(impatient, "READ", 7), "answers again once the server does");
        }
    }

    @Test
    void warmUpRunsEveryOperationOnScratchRecordsAndLeavesTheDataAsItWas() throws Exception {
        // Two records and their index before; the warm-up inserts, updates, scans and deletes its own
        // loadgen-warmup:* records through the run's path, then removes them: the data are as they were.
        assertEquals(Status.OK, run("INSERT", 1));
        assertEquals(Status.OK, run("INSERT", 2));
        driver.warmUp(java.util.concurrent.TimeUnit.SECONDS.toNanos(1));
        assertEquals(3L, redis.dbsize(), "user1, user2 and _indices, nothing else");
        assertEquals(List.of(), redis.keys(RecordLayout.SCRATCH_PREFIX + "*"));
        assertEquals(2L, redis.zcard("_indices"));
        assertEquals(expectedRecord(1, RecordLayout.INSERTED), redis.hgetall("user1"));
        assertEquals(0L, driver.stats().get("timeouts"), "the warm-up's own failures are not the run's");
    }
}
