package io.loadgen.drivers.memcached;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.drivers.ping.PingProtocol;
import io.loadgen.drivers.ping.PingServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a user who gets the memcached properties wrong, or has no server, is told: one line with the fix. */
class MemcachedBadInputTest {
    private final MemcachedDriverProvider provider = new MemcachedDriverProvider();

    private BadInputException openFails(Map<String, String> given) {
        BadInputException e = assertThrows(BadInputException.class,
                () -> provider.open(DriverProperties.of("memcached", provider.properties(), given), new DriverContext(1, 1L)));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        return e;
    }

    /** The exact line docs/drivers/memcached.md shows under "A server that cannot be reached". */
    @Test
    void aRefusedConnectionNamesTheServerAndHowToStartOne() throws Exception {
        int port = MemcachedServerProcess.freePort();
        String uri = "memcached://127.0.0.1:" + port;
        BadInputException e = openFails(Map.of("memcached.uri", uri));
        assertEquals("cannot connect to memcached at " + uri + " (Connection refused); start memcached there"
                + " (memcached -l 127.0.0.1 -p " + port + ") or point -p memcached.uri=memcached://HOST:PORT at one",
                e.getMessage());
    }

    /**
     * A server that accepts the connection and never answers (a stopped memcached, a port held by something that
     * reads and says nothing): the open ends at memcached.connect.timeout, here 300 ms, with one line naming it.
     * The bound: 300 ms, plus 2 s for the JVM's first Netty classes on a loaded machine.
     */
    @Test
    void aServerThatAcceptsAndNeverAnswersEndsTheOpenAtItsDeadline() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                List<Socket> held = new ArrayList<>();
                try {
                    while (true) {
                        held.add(silent.accept()); // held open, never read or answered
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "silent-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
            String uri = "memcached://127.0.0.1:" + silent.getLocalPort();
            long startNs = System.nanoTime();
            BadInputException e = openFails(Map.of("memcached.uri", uri, "memcached.connect.timeout", "300ms"));
            long tookMs = (System.nanoTime() - startNs) / 1_000_000;
            assertEquals("memcached at " + uri + " did not answer 'version' within memcached.connect.timeout=300ms"
                    + " (it accepts connections but does not answer: paused, overloaded, or not memcached); resume or"
                    + " start memcached there, or raise -p memcached.connect.timeout", e.getMessage());
            assertTrue(tookMs >= 299 && tookMs < 2_300, "the open took " + tookMs + " ms");
        }
    }

    /** An echo server sends every request back; read as replies, they would be nonsense. Refused before the run. */
    @Test
    void aServerThatIsNotMemcachedIsRefusedBeforeTheRun() {
        try (PingServer echo = PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", 0), Duration.ZERO)) {
            String uri = "memcached://127.0.0.1:" + echo.port();
            BadInputException e = openFails(Map.of("memcached.uri", uri));
            assertEquals("the server at " + uri + " answered 'version' with 'version', not VERSION: it is not a"
                    + " memcached server; point -p memcached.uri at one", e.getMessage());
        }
    }

    @Test
    void anUnknownPropertyIsRefusedListingTheKnownOnes() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> DriverProperties.of("memcached", provider.properties(), Map.of("memcached.host", "x")));
        assertEquals("driver memcached has no property 'memcached.host'; it knows memcached.connect.timeout,"
                + " memcached.connections, memcached.iothreads, memcached.protocol, memcached.timeout, memcached.ttl,"
                + " memcached.uri, memcached.valuesize", e.getMessage());
    }

    @Test
    void aUriThatIsNotMemcachedsIsRefusedWithAnExample() {
        String fix = "; give memcached://HOST:PORT, e.g. memcached://127.0.0.1:11211";
        assertEquals("property memcached.uri: 'redis://127.0.0.1:6379' is not a memcached URI (it must start with"
                + " memcached://)" + fix, openFails(Map.of("memcached.uri", "redis://127.0.0.1:6379")).getMessage());
        assertEquals("property memcached.uri: '127.0.0.1:11211' is not a memcached URI (it must start with"
                + " memcached://)" + fix, openFails(Map.of("memcached.uri", "127.0.0.1:11211")).getMessage());
        assertEquals("property memcached.uri: 'memcached://127.0.0.1:1/0' has more than a host and a port (memcached"
                + " has no databases, users or options in its address)" + fix,
                openFails(Map.of("memcached.uri", "memcached://127.0.0.1:1/0")).getMessage());
        assertTrue(openFails(Map.of("memcached.uri", "memcached://127.0.0.1:1?timeout=5s")).getMessage()
                .contains("has more than a host and a port"));
        assertTrue(openFails(Map.of("memcached.uri", "memcached://a b")).getMessage().contains("is not a URI"));
    }

    @Test
    void theBinaryProtocolAndUnknownOnesAreRefused() {
        assertEquals("property memcached.protocol=binary: memcached's binary protocol is deprecated and not spoken"
                + " here; give text (the default) or meta",
                openFails(Map.of("memcached.protocol", "binary")).getMessage());
        assertEquals("property memcached.protocol: 'ascii' is not a protocol; give text (get, set, delete) or meta"
                + " (mg, ms, md)", openFails(Map.of("memcached.protocol", "ascii")).getMessage());
    }

    @Test
    void timeoutsMustBePositiveDurations() {
        assertTrue(openFails(Map.of("memcached.timeout", "0s")).getMessage().contains("memcached.timeout must be positive"));
        assertTrue(openFails(Map.of("memcached.timeout", "1000")).getMessage().contains("memcached.timeout"));
        assertTrue(openFails(Map.of("memcached.connect.timeout", "0ms")).getMessage()
                .contains("memcached.connect.timeout must be positive"));
    }

    @Test
    void aTtlIsWholeSecondsAndAtMostThirtyDays() {
        String days = openFails(Map.of("memcached.ttl", "31d")).getMessage();
        assertTrue(days.startsWith("property memcached.ttl: unknown unit 'd'"), days);
        assertEquals("property memcached.ttl=2592001 is above 30 days (2592000 s), which memcached would read as a"
                + " Unix time in 1970, expiring every item at once; give at most 30d as 720h, or 0 for never",
                openFails(Map.of("memcached.ttl", "2592001")).getMessage());
        assertTrue(openFails(Map.of("memcached.ttl", "721h")).getMessage().contains("is above 30 days"));
        assertEquals("property memcached.ttl=1500ms: memcached expires items in whole seconds; give e.g. 1s or 10m",
                openFails(Map.of("memcached.ttl", "1500ms")).getMessage());
    }

    @Test
    void aValueSizeIsAWholeNumberOfBytesUpToAGigabyte() {
        assertTrue(openFails(Map.of("memcached.valuesize", "-1")).getMessage()
                .startsWith("property memcached.valuesize must be a whole number of bytes from 0"));
        assertTrue(openFails(Map.of("memcached.valuesize", "2000000000")).getMessage().contains("-I 1024m"));
        assertTrue(openFails(Map.of("memcached.valuesize", "1k")).getMessage().contains("is not a whole number"));
        assertTrue(openFails(Map.of("memcached.connections", "-2")).getMessage()
                .contains("memcached.connections must be a whole number from 0"));
    }
}
