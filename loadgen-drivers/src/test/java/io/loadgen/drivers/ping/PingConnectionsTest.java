package io.loadgen.drivers.ping;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * {@code -c} ({@code ping.connections}) is the concurrency, as wrk's {@code -c}: without {@code --max-in-flight} each
 * thread keeps its share of the connections busy, one request each. Against a real {@link PingServer} on loopback
 * that holds every reply 10 ms: one request in flight serves at most 1 / 10 ms = 100 ops/s, 32 serve 3,200 ops/s.
 */
class PingConnectionsTest {
    private static final Duration DELAY = Duration.ofMillis(10);

    private static PingServer server() {
        return PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", 0), DELAY);
    }

    private static RunResult run(PingServer server, int connections, int threads, Integer maxInFlight) throws Exception {
        RunOptions options = RunOptions.builder("ping")
                .property("ping.port", Integer.toString(server.port()))
                .property("ping.connections", Integer.toString(connections))
                .target(1000.0).threads(threads).maxInFlight(maxInFlight).duration(Duration.ofSeconds(1)).seed(5)
                .build();
        return new LoadRun(options, DriverRegistry.find("ping"), null).run();
    }

    private static long perThread(RunResult r) {
        return r.harness().get("max_in_flight_per_thread").longValue();
    }

    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void connectionsRaiseTheDefaultInFlightSoTheServerKeepsUp() throws Exception {
        try (PingServer server = server()) {
            // -c 32 on one thread: 32 in flight, so 1000 ops/s (10 in flight on average) is served in about the
            // server's 10 ms. With one in flight it could not pass 100 ops/s and 1 s would end ~900 behind.
            RunResult r = run(server, 32, 1, null);
            assertEquals(32, perThread(r), "one request per connection");
            OpResult ping = r.operations().get(0);
            assertEquals(0, ping.errors());
            assertTrue(ping.count() > 900, "the server keeps up: " + ping.count() + " of ~1000");
            double p50Ms = ping.histogram(View.INTENDED).getValueAtPercentile(50) / 1e6;
            assertTrue(p50Ms >= 10 && p50Ms < 100, "intended p50 is the delay, not a backlog: " + p50Ms + " ms");

            assertEquals(8, perThread(run(server, 32, 4, null)), "4 threads share 32 connections: 8 each");
            assertEquals(2, perThread(run(server, 10, 4, null)), "10 over 4 threads: 2 each (and a warning)");
            assertEquals(1, perThread(run(server, 1, 1, null)), "the default connection: one in flight, as before");
            assertEquals(4, perThread(run(server, 32, 1, 4)), "--max-in-flight wins");
        }
    }

    @Test
    @Timeout(value = 30, threadMode = SEPARATE_THREAD)
    void fewerConnectionsThanThreadsWithoutPipeliningIsRefused() throws Exception {
        try (PingServer server = server()) {
            // Each thread has one request in flight; with 2 connections for 4 threads two of them would be
            // rejected at every turn.
            BadInputException e = assertThrows(BadInputException.class, () -> run(server, 2, 4, null));
            assertEquals("ping.connections 2 is fewer than --threads 4: without pipelining a connection carries one"
                    + " request at a time, so each thread needs one; give -c 4 or more, fewer threads, or -p"
                    + " ping.pipelining=true", e.getMessage());
            RunOptions pipelined = RunOptions.builder("ping").property("ping.port", Integer.toString(server.port()))
                    .property("ping.pipelining", "true").threads(4).target(200.0).duration(Duration.ofMillis(300))
                    .build();
            RunResult r = new LoadRun(pipelined, DriverRegistry.find("ping"), null).run();
            assertEquals(0, r.operations().get(0).errors(), "pipelined, threads share the one connection");
        }
    }
}
