package io.loadgen.drivers.ping;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The driver against a real {@link PingServer} in this JVM, over loopback sockets on ephemeral ports. */
class PingDriverTest {
    private static final long MS = 1_000_000L;

    static PingServer server(PingProtocol protocol, Duration delay) {
        return PingServer.start(protocol, new InetSocketAddress("127.0.0.1", 0), delay);
    }

    static AsyncDriver open(PingServer server, String... keyValues) {
        Map<String, String> given = new HashMap<>();
        given.put("ping.port", Integer.toString(server.port()));
        given.put("ping.protocol", server.protocol().label());
        for (int i = 0; i < keyValues.length; i += 2) {
            given.put(keyValues[i], keyValues[i + 1]);
        }
        PingDriverProvider provider = new PingDriverProvider();
        return assertInstanceOf(AsyncDriver.class,
                provider.open(DriverProperties.of("ping", provider.properties(), given), new DriverContext(1, 1L)));
    }

    private static void submit(AsyncDriver driver, Outcomes outcomes, int n) {
        Operation op = new Operation(0);
        for (int i = 0; i < n; i++) {
            op.prepare(0, "PING", System.nanoTime(), i);
            driver.submit(op, outcomes.next());
        }
    }

    @ParameterizedTest
    @EnumSource(PingProtocol.class)
    void everyPingComesBackWithItsSize(PingProtocol protocol) throws Exception {
        // 500 pings of 100 bytes, pipelined over 2 connections in waves of 50 (a burst of hundreds of
        // datagrams overflows a UDP socket buffer, and UDP may drop): every one OK, and both ends saw
        // 100 bytes each.
        int n = 500;
        int wave = 50;
        int size = 100;
        try (PingServer server = server(protocol, Duration.ZERO);
             AsyncDriver driver = open(server, "ping.size", "100", "ping.connections", "2", "ping.pipelining", "true")) {
            for (int sent = 0; sent < n; sent += wave) {
                Outcomes thisWave = new Outcomes(wave);
                submit(driver, thisWave, wave);
                assertTrue(thisWave.await(10), thisWave.toString());
                assertEquals(wave, thisWave.count(Status.OK), thisWave.toString());
                assertEquals(0, thisWave.doubleCompletions());
            }
            Map<String, Number> stats = driver.stats();
            assertEquals((long) n, stats.get("requests_sent"));
            assertEquals((long) n * size, stats.get("bytes_sent"));
            assertEquals((long) n * size, stats.get("bytes_received"));
            assertEquals(0L, stats.get("timeouts"));
            assertEquals((long) n * size, server.receivedBytes());
        }
    }

    @Test
    void withoutPipeliningEachConnectionHoldsOneRequestAndMaxInFlightSaysSo() throws Exception {
        // 3 connections, replies held 300 ms: 3 pings go out; a 4th finds no free connection. The harness
        // never does this (maxInFlight = 3 stops it), so the driver refuses at once rather than queue it.
        try (PingServer server = server(PingProtocol.TCP, Duration.ofMillis(300));
             AsyncDriver driver = open(server, "ping.connections", "3")) {
            assertEquals(3, driver.maxInFlight());
            Outcomes first = new Outcomes(3);
            submit(driver, first, 3);
            Outcomes extra = new Outcomes(1);
            submit(driver, extra, 1);
            assertTrue(extra.await(1), "the 4th completes at once");
            assertEquals(1, extra.count(Status.ERROR));
            assertTrue(first.await(5), first.toString());
            assertEquals(3, first.count(Status.OK), first.toString());
            assertEquals(1L, driver.stats().get("rejected"));
            assertEquals(1L, driver.liveStats().get("rejected"));
            // All three connections are free again.
            Outcomes again = new Outcomes(3);
            submit(driver, again, 3);
            assertTrue(again.await(5), again.toString());
            assertEquals(3, again.count(Status.OK), again.toString());
        }
    }

    @Test
    void pipeliningLiftsTheBoundToTheRingDepthPerConnection() {
        try (PingServer server = server(PingProtocol.TCP, Duration.ZERO);
             AsyncDriver driver = open(server, "ping.connections", "2", "ping.pipelining", "true")) {
            assertEquals(2 * PingSettings.PIPELINE_DEPTH, driver.maxInFlight());
        }
    }

    @ParameterizedTest
    @EnumSource(PingProtocol.class)
    void replyLaterThanTheTimeoutCountsAsATimeoutAndIsIgnoredWhenItArrives(PingProtocol protocol) throws Exception {
        // Replies held 300 ms, timeout 50 ms: each ping fails after 50 ms plus at most one 5 ms check tick,
        // long before its reply; the replies then arrive and are counted as late, not as results.
        int n = 5;
        try (PingServer server = server(protocol, Duration.ofMillis(300));
             AsyncDriver driver = open(server, "ping.timeout", "50ms", "ping.connections", "5")) {
            Outcomes outcomes = new Outcomes(n);
            long startNs = System.nanoTime();
            submit(driver, outcomes, n);
            assertTrue(outcomes.await(5), outcomes.toString());
            long tookNs = System.nanoTime() - startNs;
            assertEquals(n, outcomes.count(Status.TIMEOUT), outcomes.toString());
            assertTrue(tookNs >= 50 * MS && tookNs < 250 * MS, "timed out after " + tookNs / 1e6 + " ms");
            assertEquals((long) n, driver.stats().get("timeouts"));
            assertEquals((long) n, driver.liveStats().get("timeouts"), "the status line's count, read off the loop");
            long deadlineNs = System.nanoTime() + 3_000 * MS;
            while (driver.stats().get("late_replies").longValue() < n && System.nanoTime() < deadlineNs) {
                Thread.sleep(20);
            }
            assertEquals((long) n, driver.stats().get("late_replies"));
            assertEquals((long) n, driver.liveStats().get("late_replies"));
            assertEquals(0, outcomes.doubleCompletions(), "a late reply must not complete again");
        }
    }

    @Test
    void udpToAPortNobodyAnswersCountsEveryPingAsLost() throws Exception {
        int port;
        try (PingServer gone = server(PingProtocol.UDP, Duration.ZERO)) {
            port = gone.port();
        }
        PingDriverProvider provider = new PingDriverProvider();
        try (AsyncDriver driver = (AsyncDriver) provider.open(DriverProperties.of("ping", provider.properties(),
                Map.of("ping.protocol", "udp", "ping.port", Integer.toString(port), "ping.timeout", "100ms")),
                new DriverContext(1, 1L))) {
            Outcomes outcomes = new Outcomes(1);
            submit(driver, outcomes, 1);
            assertTrue(outcomes.await(5), outcomes.toString());
            assertEquals(1, outcomes.count(Status.TIMEOUT), "a lost datagram is a timeout");
            assertEquals(1L, driver.stats().get("timeouts"));
        }
    }

    @Test
    void connectionRefusedIsBadInputNamingTheAddressAndTheServerCommand() {
        int port;
        try (PingServer gone = server(PingProtocol.TCP, Duration.ZERO)) {
            port = gone.port();
        }
        PingDriverProvider provider = new PingDriverProvider();
        BadInputException e = assertThrows(BadInputException.class, () -> provider.open(DriverProperties.of("ping",
                provider.properties(), Map.of("ping.port", Integer.toString(port))), new DriverContext(1, 1L)));
        assertTrue(e.getMessage().contains("127.0.0.1:" + port), e.getMessage());
        assertTrue(e.getMessage().contains("loadgen ping-server --port " + port), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), "one line: " + e.getMessage());
    }

    @Test
    void serverGoingAwayFailsTheRequestsInFlightAndLaterOnes() throws Exception {
        PingServer server = server(PingProtocol.TCP, Duration.ofSeconds(5));
        try (AsyncDriver driver = open(server, "ping.pipelining", "true", "ping.timeout", "10s")) {
            Outcomes inFlight = new Outcomes(3);
            submit(driver, inFlight, 3);
            server.close();
            assertTrue(inFlight.await(5), "failed when the connection closed, not after the 10 s timeout: " + inFlight);
            assertEquals(3, inFlight.count(Status.ERROR));
            Outcomes after = new Outcomes(1);
            submit(driver, after, 1);
            assertTrue(after.await(5), after.toString());
            assertEquals(1, after.count(Status.ERROR));
            assertEquals(4L, driver.stats().get("disconnect_errors"));
            assertEquals(4L, driver.liveStats().get("disconnect_errors"));
        } finally {
            server.close();
        }
    }

    @Test
    void blockingExecuteWaitsForTheReply() throws Exception {
        // The SPI's default blocking shape works too: one ping through a 20 ms server takes at least 20 ms.
        try (PingServer server = server(PingProtocol.TCP, Duration.ofMillis(20));
             AsyncDriver driver = open(server)) {
            Operation op = new Operation(0);
            op.prepare(0, "PING", System.nanoTime(), 0);
            long startNs = System.nanoTime();
            assertEquals(Status.OK, driver.execute(op));
            assertTrue(System.nanoTime() - startNs >= 20 * MS);
        }
    }
}
