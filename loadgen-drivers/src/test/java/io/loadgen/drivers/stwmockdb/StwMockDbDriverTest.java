package io.loadgen.drivers.stwmockdb;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.drivers.support.OpTimes;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StwMockDbDriverTest {
    private static final long MS = 1_000_000L;

    private static final Map<String, String> ALWAYS_STOP_100MS = Map.of(
            "stw-mockdb.fast.probability", "0", "stw-mockdb.slow.probability", "0",
            "stw-mockdb.hiccup.probability", "0", "stw-mockdb.stw.probability", "1",
            "stw-mockdb.stw.min", "100ms", "stw-mockdb.stw.max", "100ms");

    private static StwMockDbDriver open(Map<String, String> given, int threads) {
        StwMockDbDriverProvider provider = new StwMockDbDriverProvider();
        return (StwMockDbDriver) provider.open(
                DriverProperties.of("stw-mockdb", provider.properties(), given), new DriverContext(threads, 42L));
    }

    /** Runs {@code task} on a new thread and returns once the driver's world is stopped. */
    private static CompletableFuture<Long> startStopping(StwMockDbDriver driver, Action task) throws Exception {
        CompletableFuture<Long> endNs = CompletableFuture.supplyAsync(() -> {
            try {
                task.call();
                return System.nanoTime();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, r -> new Thread(r, "stopper").start());
        long giveUpNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!driver.isWorldStopped()) {
            assertTrue(System.nanoTime() < giveUpNs, "the stop-the-world never took the lock");
            Thread.onSpinWait();
        }
        return endNs;
    }

    private interface Action {
        void call() throws Exception;
    }

    @Test
    void stopTheWorldHoldsOperationsOnOtherThreads() throws Exception {
        StwMockDbDriver driver = open(Map.of(), 2);
        long stopperStartNs = System.nanoTime();
        CompletableFuture<Long> stopperEndNs = startStopping(driver, () -> driver.stopTheWorld(100 * MS));
        // A zero-length fast op would return at once, but the world is stopped: it cannot start
        // until the write lock, taken after stopperStartNs and held 100 ms, is released.
        driver.run(Mode.FAST, 0);
        long fastEndNs = System.nanoTime();
        assertTrue(fastEndNs - (stopperStartNs + 100 * MS) >= 0,
                "fast op finished " + (stopperStartNs + 100 * MS - fastEndNs) / MS + " ms before the stop ended");
        stopperEndNs.get(5, TimeUnit.SECONDS);
        assertEquals(1L, driver.stats().get("stop_the_world_pauses"));
    }

    @Test
    void stopsFromTwoThreadsFollowEachOther() throws Exception {
        StwMockDbDriver driver = open(ALWAYS_STOP_100MS, 2);
        long firstStartNs = System.nanoTime();
        CompletableFuture<Long> firstEndNs = startStopping(driver, () -> driver.execute(new Operation(0)));
        driver.execute(new Operation(1));
        long secondEndNs = System.nanoTime();
        firstEndNs.get(5, TimeUnit.SECONDS);
        // The second stop waits for the first (>= 100 ms after firstStartNs), then holds 100 ms itself.
        assertTrue(secondEndNs - (firstStartNs + 200 * MS) >= 0,
                "second stop ended " + (secondEndNs - firstStartNs) / MS + " ms after the first began");
        Map<String, Number> stats = driver.stats();
        assertEquals(2L, stats.get("stop_the_world_pauses"));
        assertTrue(stats.get("stop_the_world_total_ms").doubleValue() >= 200.0, stats.toString());
    }

    @Test
    void hiccupsAreCountedAndNeverStopTheWorld() throws Exception {
        StwMockDbDriver driver = open(Map.of(
                "stw-mockdb.fast.probability", "0", "stw-mockdb.slow.probability", "0",
                "stw-mockdb.hiccup.probability", "1", "stw-mockdb.stw.probability", "0",
                "stw-mockdb.hiccup.min", "1ms", "stw-mockdb.hiccup.max", "1ms"), 1);
        Operation op = new Operation(0);
        for (int i = 0; i < 5; i++) {
            assertEquals(Status.OK, driver.execute(op));
        }
        assertEquals(Map.of("stop_the_world_pauses", 0L, "hiccups", 5L), driver.liveStats(), "the status line's counts");
        assertEquals(Map.of("stop_the_world_pauses", 0L, "stop_the_world_total_ms", 0.0, "hiccups", 5L),
                driver.stats());
    }

    @Test
    void operationTakesItsModesDuration() throws Exception {
        Driver driver = open(Map.of("stw-mockdb.fast.probability", "1", "stw-mockdb.slow.probability", "0",
                "stw-mockdb.hiccup.probability", "0", "stw-mockdb.stw.probability", "0",
                "stw-mockdb.fast.min", "3ms", "stw-mockdb.fast.max", "3ms"), 1);
        OpTimes times = OpTimes.of(driver, 20);
        // Fast mode set to exactly 3 ms: every op takes at least that, where the default fast range
        // would end by 1 ms. Median within 2 ms of wake-up lateness (see OpTimes on why the median).
        assertTrue(times.minNs() >= 3 * MS && times.medianNs() < 5 * MS, times.toString());
    }

    @Test
    void statsKeepTheirOrder() {
        assertEquals(List.of("stop_the_world_pauses", "stop_the_world_total_ms", "hiccups"),
                List.copyOf(open(Map.of(), 1).stats().keySet()));
    }

    @Test
    void pauseIsDescribedWithUtcMillisecondsAndLength() {
        assertEquals("stop-the-world #3 at 2026-11-22T03:41:07.123Z for 137.2 ms",
                StwMockDbDriver.describePause(3, 1_795_318_867_123L, 137_200_000L));
        // Whole seconds keep their ".000", which Instant.toString would drop.
        assertEquals("stop-the-world #1 at 1970-01-01T00:00:00.000Z for 50.0 ms",
                StwMockDbDriver.describePause(1, 0L, 50_000_000L));
    }
}
