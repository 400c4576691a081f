package io.loadgen.drivers.redis;

import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.RunResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code -c} ({@code redis.connections}) means what redis-benchmark's {@code -c} means: that many clients, each with one
 * request in flight. Without {@code --max-in-flight} a thread keeps one operation in flight on each of its
 * connections, and sends on a free one, so every connection carries traffic; {@code --max-in-flight} still wins.
 * Against a real redis-server.
 */
class RedisConnectionsTest {
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

    private static RunOptions.Builder options(int connections, int threads) {
        RunOptions.Builder b = RunOptions.builder("redis").property("redis.uri", server.uri())
                .operation("UPDATE").target(2000.0).threads(threads).seed(9);
        return connections == 0 ? b : b.property("redis.connections", Integer.toString(connections));
    }

    private static RunResult run(RunOptions.Builder b) throws Exception {
        return new LoadRun(b.duration(Duration.ofMillis(500)).build(), new RedisDriverProvider(), null).run();
    }

    private static long perThread(RunResult r) {
        return r.harness().get("max_in_flight_per_thread").longValue();
    }

    /** Connections whose last command was an HSET (an UPDATE), from CLIENT LIST. */
    private static long updating() {
        try (RedisServerProcess.Inspector inspector = server.inspector()) {
            return Arrays.stream(inspector.sync().clientList().split("\r?\n")).filter(l -> l.contains(" cmd=hset "))
                    .count();
        }
    }

    @Test
    void sixteenConnectionsOnOneThreadAreSixteenInFlightOnePerConnection() throws Exception {
        // 2000 ops/s for 1.5 s on one thread with -c 16. While it runs, every connection's last command comes to be
        // an UPDATE's HSET: the thread sends on all 16, not on one (the warm-up's last command on each was a DEL).
        AtomicLong most = new AtomicLong();
        AtomicBoolean done = new AtomicBoolean();
        Thread watcher = new Thread(() -> {
            while (!done.get()) {
                most.accumulateAndGet(updating(), Math::max);
                LockSupport.parkNanos(50_000_000L);
            }
        }, "client-list");
        watcher.start();
        RunResult r;
        try {
            r = new LoadRun(options(16, 1).duration(Duration.ofMillis(1500)).build(), new RedisDriverProvider(), null)
                    .run();
        } finally {
            done.set(true);
            watcher.join(10_000);
        }
        assertEquals(16, perThread(r), "one in flight per connection");
        assertEquals(16, r.driverStats().get("connections").intValue());
        assertEquals(0, r.operations().get(0).errors());
        assertEquals(16, most.get(), "every connection carried UPDATEs");
    }

    @Test
    void theDefaultFollowsTheConnectionsPerThreadAndMaxInFlightWins() throws Exception {
        assertEquals(1, perThread(run(options(0, 2))), "no -c: a connection per thread, one in flight each");
        assertEquals(4, perThread(run(options(16, 4))), "16 connections over 4 threads: 4 each");
        assertEquals(2, perThread(run(options(10, 4))), "10 over 4 threads: 2 each (and a warning)");
        assertEquals(1, perThread(run(options(2, 4))), "fewer than threads: shared, one each (and a warning)");
        assertEquals(2, perThread(run(options(16, 1).maxInFlight(2))), "--max-in-flight wins");
        RunResult pipelined = run(options(1, 1).maxInFlight(8));
        assertEquals(8, perThread(pipelined), "and pipelines on one connection when asked");
        assertEquals(0, pipelined.operations().get(0).errors());
    }
}
