package io.loadgen.drivers.redis;

import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Status;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Hooks;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Closing the driver says nothing. Each connection's close leaves its loop an inactive event that Lettuce publishes on
 * its event bus; when the driver shut the bus's scheduler down before the loops ran those events, Reactor printed
 * "Operator called default onErrorDropped" and a 60-line stack trace on stderr at the end of about one
 * {@code loadgen load} in three (seen in bench/redis-vs-benchmark.sh: 6 of 20 loads with 4 connections; 0 of 20 since).
 * Reactor routes every such dropped error through {@link Hooks#onErrorDropped}, so the test counts them there. Against
 * a real redis-server.
 */
class RedisDriverCloseTest {
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

    @Test
    void closingManyConnectionsDropsNoEventOnAStoppedScheduler() throws Exception {
        // 12 opens and closes of 16 connections on 2 loops, each connection used once: before the fix, at about one
        // close in three (a close of 4 connections), the chance that none of 12 closes of 16 drops an event is
        // under 0.7^12 = 1.4 %.
        List<Throwable> dropped = new CopyOnWriteArrayList<>();
        Hooks.onErrorDropped(dropped::add);
        try {
            for (int round = 0; round < 12; round++) {
                AsyncDriver driver = RedisDriverTest.open(Map.of("redis.uri", server.uri(), "redis.connections", "16",
                        "redis.iothreads", "2"));
                try {
                    for (int key = 0; key < 16; key++) {
                        assertEquals(Status.OK, RedisDriverTest.run(driver, "INSERT", key));
                    }
                } finally {
                    driver.close();
                }
            }
        } finally {
            Hooks.resetOnErrorDropped();
        }
        assertTrue(dropped.isEmpty(), dropped.size() + " events dropped on close, the first: "
                + (dropped.isEmpty() ? "" : dropped.get(0)));
    }
}
