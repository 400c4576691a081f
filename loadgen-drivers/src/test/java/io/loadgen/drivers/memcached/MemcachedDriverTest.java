package io.loadgen.drivers.memcached;

import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.drivers.redis.RecordValues;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every operation type against a real memcached, submitted one at a time as the harness would, in the text and
 * the meta protocol; what the driver wrote is read back over a plain socket and compared with the documented
 * value encoding (the record's fields' values back to back).
 */
class MemcachedDriverTest {
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final List<String> OPS = new MemcachedDriverProvider().operations();
    private static final RecordValues RECORDS = RecordValues.of(10, 100);

    private static MemcachedServerProcess server;
    private static MemcachedServerProcess.Inspector inspector;
    private static AsyncDriver text;
    private static AsyncDriver meta;

    @BeforeAll
    static void startServer() throws Exception {
        server = MemcachedServerProcess.start();
        inspector = server.inspector();
        text = open(Map.of("memcached.uri", server.uri()));
        meta = open(Map.of("memcached.uri", server.uri(), "memcached.protocol", "meta"));
    }

    @AfterAll
    static void stopServer() throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {text, meta, inspector, server}) {
            if (c != null) {
                c.close();
            }
        }
    }

    @BeforeEach
    void emptyTheServer() throws Exception {
        inspector.flushAll();
    }

    static AsyncDriver open(Map<String, String> given) {
        return open(given, null);
    }

    static AsyncDriver open(Map<String, String> given, DriverContext.RecordShape shape) {
        MemcachedDriverProvider provider = new MemcachedDriverProvider();
        return (AsyncDriver) provider.open(DriverProperties.of("memcached", provider.properties(), given),
                new DriverContext(1, 1L, shape));
    }

    /** Submits one operation as the harness would and waits for its status; it must complete exactly once. */
    static Status run(AsyncDriver driver, String type, long keyNumber) throws Exception {
        Operation op = new Operation(0);
        op.prepare(OPS.indexOf(type), type, System.nanoTime(), keyNumber);
        Once once = new Once();
        driver.submit(op, once);
        Status status = once.await();
        if (status == Status.ERROR) {
            System.out.println("[memcached test] " + type + " " + keyNumber + ": ERROR, " + driver.lastFailure() + ", "
                    + driver.stats());
        }
        return status;
    }

    /** A completion that keeps its status and counts its calls. */
    static final class Once implements Completion {
        final CompletableFuture<Status> status = new CompletableFuture<>();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void complete(Status s) {
            calls.incrementAndGet();
            status.complete(s);
        }

        Status await() throws Exception {
            Status s = status.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            assertEquals(1, calls.get(), "completed exactly once");
            return s;
        }
    }

    /** The documented value: every field's value back to back, field 0 first. */
    static String expectedValue(RecordValues records, long keyNumber, byte writer) {
        StringBuilder sb = new StringBuilder();
        for (int f = 0; f < records.fieldCount(); f++) {
            sb.append(records.valueText(keyNumber, f, writer));
        }
        return sb.toString();
    }

    private static long stat(String name) throws Exception {
        return inspector.stat(name);
    }

    @Test
    void insertStoresTheRecordAsOneItemOfItsFieldsBackToBack() throws Exception {
        for (AsyncDriver driver : new AsyncDriver[] {text, meta}) {
            inspector.flushAll();
            assertEquals(Status.OK, run(driver, "INSERT", 7));
            String value = inspector.get("user7");
            assertEquals(expectedValue(RECORDS, 7, RecordValues.INSERTED), value);
            assertEquals(1000, value.length(), "10 fields x 100 bytes");
            assertTrue(value.startsWith("i7-0:"), value);
            assertEquals("i7-1:", value.substring(100, 105), "field 1 starts at byte 100");
            assertEquals(-1L, inspector.ttl("user7"), "memcached.ttl 0: the item never expires");
        }
    }

    @Test
    void readOfAStoredItemIsOkAndOfAMissingOneIsNotFoundAndCounted() throws Exception {
        for (AsyncDriver driver : new AsyncDriver[] {text, meta}) {
            inspector.flushAll();
            assertEquals(Status.OK, run(driver, "INSERT", 3));
            long gets = stat("cmd_get");
            long misses = driver.stats().get("misses").longValue();
            assertEquals(Status.OK, run(driver, "READ", 3));
            assertEquals(Status.NOT_FOUND, run(driver, "READ", 4));
            assertEquals(gets + 2, stat("cmd_get"), "one get each");
            assertEquals(misses + 1, driver.stats().get("misses").longValue());
        }
    }

    @Test
    void updateRewritesTheWholeRecordWithTheUpdateValues() throws Exception {
        for (AsyncDriver driver : new AsyncDriver[] {text, meta}) {
            inspector.flushAll();
            assertEquals(Status.OK, run(driver, "INSERT", 11));
            assertEquals(Status.OK, run(driver, "UPDATE", 11));
            assertEquals(expectedValue(RECORDS, 11, RecordValues.UPDATED), inspector.get("user11"));
        }
    }

    @Test
    void readModifyWriteRewritesAnExistingItemAndLeavesAMissingOneMissing() throws Exception {
        for (AsyncDriver driver : new AsyncDriver[] {text, meta}) {
            inspector.flushAll();
            assertEquals(Status.OK, run(driver, "INSERT", 5));
            long gets = stat("cmd_get");
            long sets = stat("cmd_set");
            assertEquals(Status.OK, run(driver, "READ-MODIFY-WRITE", 5));
            assertEquals(gets + 1, stat("cmd_get"), "it reads first");
            assertEquals(sets + 1, stat("cmd_set"), "then writes");
            assertEquals(expectedValue(RECORDS, 5, RecordValues.UPDATED), inspector.get("user5"));

            assertEquals(Status.NOT_FOUND, run(driver, "READ-MODIFY-WRITE", 6));
            assertEquals(sets + 1, stat("cmd_set"), "no write after a miss");
            assertNull(inspector.get("user6"));
        }
    }

    @Test
    void deleteRemovesTheItemThenReadAndDeleteAreNotFound() throws Exception {
        for (AsyncDriver driver : new AsyncDriver[] {text, meta}) {
            inspector.flushAll();
            assertEquals(Status.OK, run(driver, "INSERT", 9));
            assertEquals(Status.OK, run(driver, "INSERT", 10));
            assertEquals(Status.OK, run(driver, "DELETE", 9));
            assertNull(inspector.get("user9"));
            assertEquals(Status.NOT_FOUND, run(driver, "READ", 9));
            assertEquals(Status.NOT_FOUND, run(driver, "DELETE", 9), "deleting it again finds nothing");
            assertEquals(expectedValue(RECORDS, 10, RecordValues.INSERTED), inspector.get("user10"));
        }
    }

    @Test
    void scanIsNotImplementedSendsNothingAndIsCounted() throws Exception {
        assertEquals(Status.OK, run(text, "INSERT", 1));
        long gets = stat("cmd_get");
        long before = text.stats().get("not_implemented").longValue();
        assertEquals(Status.NOT_IMPLEMENTED, run(text, "SCAN", 1));
        assertEquals(Status.NOT_IMPLEMENTED, run(text, "SCAN", 2));
        assertEquals(before + 2, text.stats().get("not_implemented").longValue());
        assertEquals(gets, stat("cmd_get"), "nothing reached the server");
    }

    @Test
    void ttlAndValueSizeAreTheItemsExpirationAndLength() throws Exception {
        try (AsyncDriver driver = open(Map.of("memcached.uri", server.uri(), "memcached.ttl", "10m",
                "memcached.valuesize", "64"))) {
            assertEquals(Status.OK, run(driver, "INSERT", 42));
            String value = inspector.get("user42");
            assertEquals(RecordValues.of(1, 64).valueText(42, 0, RecordValues.INSERTED), value);
            assertEquals(64, value.length());
            long ttl = inspector.ttl("user42");
            // 600 s, less the second or so the set and this check took (memcached's clock ticks once a second)
            assertTrue(ttl >= 597 && ttl <= 600, "TTL " + ttl);
        }
        try (AsyncDriver driver = open(Map.of("memcached.uri", server.uri(), "memcached.protocol", "meta",
                "memcached.ttl", "90"))) {
            assertEquals(Status.OK, run(driver, "UPDATE", 43));
            long ttl = inspector.ttl("user43");
            assertTrue(ttl >= 87 && ttl <= 90, "TTL " + ttl);
        }
    }

    @Test
    void aWorkloadsRecordShapeSetsTheValueAndItsKeysPadding() throws Exception {
        // fieldcount 3, fieldlength 20, keys zero-padded to 6 digits, as YCSB's zeropadding=6.
        DriverContext.RecordShape shape = new DriverContext.RecordShape(3, 20, 20, "constant", "field", 6);
        try (AsyncDriver driver = open(Map.of("memcached.uri", server.uri()), shape)) {
            assertEquals(Status.OK, run(driver, "INSERT", 42));
            assertEquals(expectedValue(RecordValues.of(shape), 42, RecordValues.INSERTED), inspector.get("user000042"));
            assertEquals(60, inspector.get("user000042").length());
            assertEquals(Status.OK, run(driver, "READ", 42));
        }
    }

    @Test
    void anItemTooLargeForTheServerIsAServerErrorNamedInTheHeadline() throws Exception {
        // memcached's default item limit is 1 MB (-I 1m): a 2 MB value is refused with SERVER_ERROR.
        try (AsyncDriver driver = open(Map.of("memcached.uri", server.uri(), "memcached.valuesize", "2000000"))) {
            assertEquals(Status.ERROR, run(driver, "INSERT", 1));
            assertEquals(1L, driver.stats().get("server_errors"));
            assertTrue(driver.lastFailure().startsWith("SERVER_ERROR object too large"), driver.lastFailure());
            assertEquals(Status.NOT_FOUND, run(driver, "READ", 1), "the connection is still in step");
        }
    }

    @Test
    void aKeyTheServerRefusesIsAClientError() throws Exception {
        // memcached keys are at most 250 bytes: zero padding to 300 digits makes a longer key.
        DriverContext.RecordShape shape = new DriverContext.RecordShape(1, 10, 10, "constant", "field", 300);
        try (AsyncDriver driver = open(Map.of("memcached.uri", server.uri()), shape)) {
            assertEquals(Status.ERROR, run(driver, "READ", 1));
            assertEquals(1L, driver.stats().get("client_errors"), driver.stats().toString());
            assertTrue(driver.lastFailure().startsWith("CLIENT_ERROR"), driver.lastFailure());
        }
    }

    @Test
    void concurrentSubmitsFromTwoThreadsEachCompleteOnce() throws Exception {
        int perThread = 500;
        Once[][] completions = new Once[2][perThread];
        Thread[] issuers = new Thread[2];
        for (int t = 0; t < 2; t++) {
            int thread = t;
            issuers[t] = new Thread(() -> {
                Operation op = new Operation(thread);
                for (int i = 0; i < perThread; i++) {
                    op.prepare(OPS.indexOf("INSERT"), "INSERT", System.nanoTime(), (long) i * 2 + thread);
                    completions[thread][i] = new Once();
                    text.submit(op, completions[thread][i]);
                }
            });
            issuers[t].start();
        }
        for (Thread issuer : issuers) {
            issuer.join(WAIT.toMillis());
        }
        for (Once[] row : completions) {
            for (Once c : row) {
                assertEquals(Status.OK, c.await());
            }
        }
        // Keys 0..999, each inserted once, with its own values (the Operation was reused between submits).
        for (long k = 0; k < 1000; k++) {
            assertTrue(inspector.get("user" + k) != null, "user" + k);
        }
        assertEquals(expectedValue(RECORDS, 999, RecordValues.INSERTED), inspector.get("user999"));
        assertEquals(expectedValue(RECORDS, 0, RecordValues.INSERTED), inspector.get("user0"));
    }

    @Test
    void onePassOfManyOperationsIsOneWriteAndEachReplyReachesItsOwnOperation() throws Exception {
        // Keys 0, 2, ..., 62 exist. One task on the connection's loop submits 64 READs, 16 UPDATEs and 16
        // READ-MODIFY-WRITEs interleaved, all in one pass, so they leave as one write. memcached answers in order;
        // each reply must complete its own operation: a READ of an even key OK, of an odd key NOT_FOUND.
        for (long k = 0; k < 64; k += 2) {
            assertEquals(Status.OK, run(text, "INSERT", k));
        }
        List<Once> reads = new ArrayList<>();
        Map<Long, Once> updates = new HashMap<>();
        Map<Long, Once> rmws = new HashMap<>();
        text.issuerExecutor(0).submit(() -> {
            Operation op = new Operation(0);
            for (long k = 0; k < 64; k++) {
                op.prepare(OPS.indexOf("READ"), "READ", System.nanoTime(), k);
                Once read = new Once();
                reads.add(read);
                text.submit(op, read);
                if (k % 4 == 0) {
                    op.prepare(OPS.indexOf("UPDATE"), "UPDATE", System.nanoTime(), k);
                    updates.put(k, new Once());
                    text.submit(op, updates.get(k));
                } else if (k % 4 == 1 || k % 4 == 2) {
                    op.prepare(OPS.indexOf("READ-MODIFY-WRITE"), "READ-MODIFY-WRITE", System.nanoTime(), k);
                    rmws.put(k, new Once());
                    text.submit(op, rmws.get(k));
                }
            }
        }).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        for (int k = 0; k < 64; k++) {
            assertEquals(k % 2 == 0 ? Status.OK : Status.NOT_FOUND, reads.get(k).await(), "READ of key " + k);
        }
        for (Map.Entry<Long, Once> u : updates.entrySet()) {
            assertEquals(Status.OK, u.getValue().await(), "UPDATE of key " + u.getKey());
            assertEquals(expectedValue(RECORDS, u.getKey(), RecordValues.UPDATED), inspector.get("user" + u.getKey()));
        }
        for (Map.Entry<Long, Once> m : rmws.entrySet()) {
            long k = m.getKey();
            assertEquals(k % 2 == 0 ? Status.OK : Status.NOT_FOUND, m.getValue().await(), "RMW of key " + k);
            assertEquals(k % 2 == 0 ? expectedValue(RECORDS, k, RecordValues.UPDATED) : null, inspector.get("user" + k));
        }
        assertNull(inspector.get("user3"), "a READ-MODIFY-WRITE that missed wrote nothing");
    }

    @Test
    void anOperationTheServerDoesNotAnswerCompletesWithTimeout() throws Exception {
        try (AsyncDriver impatient = open(Map.of("memcached.uri", server.uri(), "memcached.timeout", "200ms"))) {
            assertEquals(Status.OK, run(impatient, "INSERT", 1));
            server.pause();
            try {
                for (String type : List.of("READ", "UPDATE", "READ-MODIFY-WRITE", "DELETE")) {
                    long startNs = System.nanoTime();
                    assertEquals(Status.TIMEOUT, run(impatient, type, 1), type);
                    long tookMs = (System.nanoTime() - startNs) / 1_000_000;
                    // Not before the 200 ms deadline; the upper bound only says it did not wait for the server.
                    assertTrue(tookMs >= 199 && tookMs < 3_000, type + " completed after " + tookMs + " ms");
                }
                assertEquals(4L, impatient.stats().get("timeouts"));
            } finally {
                server.resume();
            }
            // The late replies are read and dropped, in order, and the next operations get their own: the server,
            // once resumed, ran what it had been sent (the RMW's get, but not its set: it was never sent), the
            // DELETE last, so user1 is gone.
            assertEquals(Status.NOT_FOUND, run(impatient, "READ", 1), "the timed-out DELETE was applied on resuming");
            assertEquals(Status.OK, run(impatient, "INSERT", 2));
            assertEquals(Status.OK, run(impatient, "READ", 2), "answers again once the server does");
            assertEquals(expectedValue(RECORDS, 2, RecordValues.INSERTED), inspector.get("user2"));
        }
    }

    @Test
    void warmUpRunsOnScratchItemsAndLeavesTheDataAsItWas() throws Exception {
        assertEquals(Status.OK, run(text, "INSERT", 1));
        assertEquals(Status.OK, run(text, "INSERT", 2));
        long setsBefore = stat("cmd_set");
        text.warmUp(TimeUnit.SECONDS.toNanos(1));
        assertTrue(stat("cmd_set") > setsBefore + 32, "the warm-up wrote");
        for (int i = 0; i < 32; i++) { // the warm-up's 32 scratch items on its one connection, all deleted
            assertNull(inspector.get(RecordValues.SCRATCH_PREFIX + "user" + i));
        }
        assertEquals(expectedValue(RECORDS, 1, RecordValues.INSERTED), inspector.get("user1"));
        assertEquals(0L, text.stats().get("misses"), "the warm-up's own outcomes are not the run's");
        assertEquals(0L, text.stats().get("timeouts"));
    }

    @Test
    void aServerThatDiesFailsOperationsAtOnceAndTheConnectionComesBack() throws Exception {
        // A server of its own: the others' connections stay up.
        try (MemcachedServerProcess own = MemcachedServerProcess.start();
             AsyncDriver driver = open(Map.of("memcached.uri", own.uri(), "memcached.timeout", "5s"))) {
            assertEquals(Status.NOT_FOUND, run(driver, "READ", 1));
            own.kill();
            Thread.sleep(300); // the kernel closes the loopback socket when the process dies; the loop hears at once
            for (String type : new String[] {"READ", "UPDATE"}) {
                long startNs = System.nanoTime();
                assertEquals(Status.ERROR, run(driver, type, 1), type + " while the server is gone");
                assertTrue(System.nanoTime() - startNs < 1_000_000_000L, type + " was refused at once, not at its timeout");
            }
            assertEquals(0L, driver.stats().get("timeouts"), driver.stats().toString());
            assertEquals(2L, driver.stats().get("connection_errors"), driver.stats().toString());
            assertTrue(driver.lastFailure().contains("memcached at 127.0.0.1:" + own.port()), driver.lastFailure());

            own.restart();
            Status read = Status.ERROR;
            for (int attempt = 0; attempt < 50 && read == Status.ERROR; attempt++) { // reconnects within 0.5 s
                Thread.sleep(100);
                read = run(driver, "READ", 1);
            }
            assertEquals(Status.NOT_FOUND, read, "a READ reaches the restarted (empty) server");
            assertEquals(Status.OK, run(driver, "UPDATE", 1));
            try (MemcachedServerProcess.Inspector check = own.inspector()) {
                assertEquals(expectedValue(RECORDS, 1, RecordValues.UPDATED), check.get("user1"));
            }
            assertTrue(driver.stats().get("reconnects").longValue() >= 1, driver.stats().toString());
        }
    }
}
