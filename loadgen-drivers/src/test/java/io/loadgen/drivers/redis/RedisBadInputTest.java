package io.loadgen.drivers.redis;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.drivers.ping.PingProtocol;
import io.loadgen.drivers.ping.PingServer;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a user who gets the redis properties wrong, or has no server, is told: one line with the fix. */
class RedisBadInputTest {
    private final RedisDriverProvider provider = new RedisDriverProvider();

    private BadInputException openFails(Map<String, String> given) {
        return assertThrows(BadInputException.class,
                () -> provider.open(DriverProperties.of("redis", provider.properties(), given), new DriverContext(1, 1L)));
    }

    private static void assertOneLine(BadInputException e) {
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    /** The exact line docs/drivers/redis.md shows under "A server that cannot be reached at start". */
    @Test
    void refusedConnectionNamesTheUriAndHowToFixIt() throws Exception {
        String uri = "redis://127.0.0.1:" + RedisServerProcess.freePort();
        long startNs = System.nanoTime();
        BadInputException e = openFails(Map.of("redis.uri", uri));
        assertEquals("cannot connect to Redis at " + uri + " (Connection refused); start redis-server there or point"
                + " -p redis.uri=redis://HOST:PORT at one", e.getMessage());
        assertOneLine(e);
        assertTrue(System.nanoTime() - startNs < 5_000_000_000L, "a refused connection fails fast");
    }

    /**
     * A server that accepts the connection and never answers (a paused redis-server, a port held by something
     * that reads and says nothing): Lettuce's blocking connect would wait its URI timeout, 60 s. The open ends at
     * redis.connect.timeout, here 300 ms, with one line naming it (bound: 300 ms, plus 2 s for the JVM's first
     * Netty and Lettuce classes on a loaded machine).
     */
    @Test
    void aServerThatAcceptsAndNeverAnswersEndsTheOpenAtItsDeadline() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                java.util.List<java.net.Socket> held = new java.util.ArrayList<>();
                try {
                    while (true) {
                        held.add(silent.accept()); // held open, never read or answered
                    }
                } catch (java.io.IOException closed) {
                    // the test is over
                }
            }, "silent-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            String uri = "redis://127.0.0.1:" + silent.getLocalPort();
            long startNs = System.nanoTime();
            BadInputException e = openFails(Map.of("redis.uri", uri, "redis.connect.timeout", "300ms"));
            long tookMs = (System.nanoTime() - startNs) / 1_000_000;
            assertEquals("Redis at " + uri + " did not complete the connection within redis.connect.timeout=300ms (it"
                    + " accepts connections but does not answer: paused, overloaded, or not Redis); resume or start"
                    + " redis-server there, or raise -p redis.connect.timeout", e.getMessage());
            assertOneLine(e);
            assertTrue(tookMs >= 300 && tookMs < 2_300, "the open took " + tookMs + " ms");
        }
    }

    /**
     * An echo server sends every command back, which Lettuce would parse as replies: a run against it
     * reported every operation OK. PING must be answered PONG before a run starts.
     */
    @Test
    void aServerThatIsNotRedisIsRefusedBeforeTheRun() {
        try (PingServer echo = PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", 0), Duration.ZERO)) {
            String uri = "redis://127.0.0.1:" + echo.port();
            BadInputException e = openFails(Map.of("redis.uri", uri));
            assertEquals("the server at " + uri + " answered PING with 'PING', not PONG: it is not a Redis server;"
                    + " point -p redis.uri at one", e.getMessage());
        }
    }

    @Test
    void unknownPropertyIsRejectedListingTheKnownOnes() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> DriverProperties.of("redis", provider.properties(), Map.of("redis.url", "redis://x")));
        assertEquals("driver redis has no property 'redis.url'; it knows redis.cluster, redis.connect.timeout,"
                + " redis.connections, redis.dataintegrity, redis.fieldcount, redis.fieldlength, redis.iothreads,"
                + " redis.requests, redis.scanlength, redis.timeout, redis.uri",
                e.getMessage());
    }

    @Test
    void uriThatIsNotRedisIsRejectedWithAnExample() {
        BadInputException e = openFails(Map.of("redis.uri", "http://127.0.0.1:6379"));
        assertTrue(e.getMessage().startsWith("property redis.uri: 'http://127.0.0.1:6379' is not a Redis URI"),
                e.getMessage());
        assertTrue(e.getMessage().contains("redis://127.0.0.1:6379"), e.getMessage());
        assertOneLine(e);
    }

    @Test
    void zeroTimeoutIsRejected() {
        assertTrue(openFails(Map.of("redis.timeout", "0s")).getMessage().contains("redis.timeout must be positive"));
    }

    @Test
    void timeoutWithoutUnitIsRejectedNamingTheProperty() {
        assertTrue(openFails(Map.of("redis.timeout", "1000")).getMessage().contains("redis.timeout"));
    }

    @Test
    void nonPositiveSizesAreRejectedNamingTheProperty() {
        assertTrue(openFails(Map.of("redis.fieldcount", "0")).getMessage().contains("redis.fieldcount must be a positive whole number"));
        assertTrue(openFails(Map.of("redis.fieldlength", "-5")).getMessage().contains("redis.fieldlength must be a positive whole number"));
        assertTrue(openFails(Map.of("redis.scanlength", "ten")).getMessage().contains("redis.scanlength"));
    }

    @Test
    void recordOfMoreThan64MiBIsRejected() {
        BadInputException e = openFails(Map.of("redis.fieldcount", "1000", "redis.fieldlength", "1000000"));
        assertTrue(e.getMessage().contains("1000000000 bytes per record"), e.getMessage());
    }
    /**
     * Lettuce drops a query parameter it cannot read without a word ({@code ?timeout=banana} ran with its default),
     * and loadgen does not use a URI's timeout at all: each is refused in one line naming the parameter (issue 24).
     * Refused before any connection, so no server is needed.
     */
    @Test
    void uriQueryParametersThatWouldBeDroppedAreRefused() {
        String port = "redis://127.0.0.1:" + 1;
        BadInputException timeout = openFails(Map.of("redis.uri", port + "?timeout=banana"));
        assertEquals("property redis.uri: 'timeout=banana' in '" + port + "?timeout=banana' is not used by loadgen,"
                + " which times each operation itself; give -p redis.timeout=DURATION (per operation) or -p"
                + " redis.connect.timeout=DURATION (opening) instead", timeout.getMessage());
        assertOneLine(timeout);
        assertTrue(openFails(Map.of("redis.uri", port + "?timeout=5s")).getMessage().contains("is not used by loadgen"));
        assertTrue(openFails(Map.of("redis.uri", port + "?db=x")).getMessage()
                .contains("'db=x' in '" + port + "?db=x' must be a database number"));
        assertTrue(openFails(Map.of("redis.uri", port + "?verifyPeer=maybe")).getMessage().contains("must be FULL, CA or NONE"));
        assertTrue(openFails(Map.of("redis.uri", port + "?tiemout=1s")).getMessage()
                .contains("'tiemout=1s' in '" + port + "?tiemout=1s' is not a parameter a Redis URI has"));
    }

    /**
     * A database the server does not have ({@code ERR DB index is out of range} at Lettuce's SELECT) is bad input
     * about the database, not "start redis-server there": the server is up. A real server on a free port.
     */
    @Test
    void aDatabaseTheServerDoesNotHaveIsNamed() throws Exception {
        try (RedisServerProcess server = RedisServerProcess.start()) {
            BadInputException e = openFails(Map.of("redis.uri", server.uri() + "/99"));
            assertEquals("Redis at " + server.uri() + "/99 has no database 99 (ERR DB index is out of range): its"
                    + " databases are numbered from 0 to its 'databases' setting less 1 (16 by default, so 0 to 15);"
                    + " give one of them in the URI, redis://HOST:PORT/DB, or raise 'databases' in redis.conf",
                    e.getMessage());
            assertOneLine(e);
            BadInputException viaQuery = openFails(Map.of("redis.uri", server.uri() + "?db=16"));
            assertTrue(viaQuery.getMessage().contains("has no database 16"), viaQuery.getMessage());
        }
    }
}
