package io.loadgen.drivers.mockdb;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.Operation;
import io.loadgen.drivers.support.OpTimes;
import io.loadgen.drivers.support.WorkerRandoms;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MockDbDriverTest {
    private static final long MS = 1_000_000L;
    /** An arbitrary open time; pure window arithmetic must not depend on it being 0. */
    private static final long OPEN_NS = 7_000_000_123L;

    private static MockDbSettings settings(Map<String, String> given) {
        return MockDbSettings.from(DriverProperties.of("mockdb", MockDbSettings.SPECS, given));
    }

    private static Driver open(Map<String, String> given) {
        MockDbDriverProvider provider = new MockDbDriverProvider();
        return provider.open(DriverProperties.of("mockdb", provider.properties(), given), new DriverContext(1, 42L));
    }

    /** Windows [open + j*200ms, open + j*200ms + 50ms) for j >= 1. */
    private static MockDbDriver pausingEvery200msFor50ms(long openNs) {
        return new MockDbDriver(settings(Map.of("mockdb.pause.every", "200ms", "mockdb.pause.length", "50ms")),
                WorkerRandoms.split(new DriverContext(1, 42L)), openNs);
    }

    @Test
    void fixedDelayMakesEveryOperationTakeThatLong() throws Exception {
        OpTimes times = OpTimes.of(open(Map.of("mockdb.delay", "4ms")), 50);
        // A sleep never returns early, so even the quickest op takes 4 ms. A park typically wakes
        // 0.1 ms late, plus at most one EEVDF slice (6.x kernels: 0.75 ms x (1 + log2 2 cores) = 1.5 ms) behind
        // a thread already runnable on its core: 1.6 ms < 2 ms for the median (a stall on a busy machine hits a
        // few ops, not the median), and it still fails a driver that waited twice (>= 8 ms).
        assertTrue(times.minNs() >= 4 * MS, times.toString());
        assertTrue(times.medianNs() < 4 * MS + 2 * MS, times.toString());
    }

    @Test
    void randomizedDelayIsUniformUpToTheDelay() throws Exception {
        OpTimes times = OpTimes.of(open(Map.of("mockdb.delay", "2ms", "mockdb.randomize", "true")), 200);
        // Uniform on [0, 2 ms]: median 1 ms; the median of 200 draws has sd about 2/(2 sqrt 200) =
        // 0.07 ms, so 0.7 ms is 4 sd below and late wake-ups only push it up. 1.6 ms allows 0.6 ms of
        // lateness and still fails a driver that ignores randomize (median >= 2 ms).
        assertTrue(times.medianNs() > 0.7 * MS && times.medianNs() < 1.6 * MS, times.toString());
    }

    @Test
    void noPauseBeforeTheFirstPeriodEnds() {
        MockDbDriver driver = pausingEvery200msFor50ms(OPEN_NS);
        assertEquals(OPEN_NS, driver.pauseEndNs(OPEN_NS));
        assertEquals(OPEN_NS + 10 * MS, driver.pauseEndNs(OPEN_NS + 10 * MS));
        assertEquals(OPEN_NS + 199 * MS, driver.pauseEndNs(OPEN_NS + 199 * MS));
    }

    @Test
    void timeInsideAWindowMapsToTheWindowEnd() {
        MockDbDriver driver = pausingEvery200msFor50ms(OPEN_NS);
        assertEquals(OPEN_NS + 250 * MS, driver.pauseEndNs(OPEN_NS + 200 * MS));
        assertEquals(OPEN_NS + 250 * MS, driver.pauseEndNs(OPEN_NS + 230 * MS));
        assertEquals(OPEN_NS + 250 * MS, driver.pauseEndNs(OPEN_NS + 250 * MS - 1));
        assertEquals(OPEN_NS + 10 * 200 * MS + 50 * MS, driver.pauseEndNs(OPEN_NS + 10 * 200 * MS + 7 * MS));
    }

    @Test
    void timeOutsideAWindowIsUnchanged() {
        MockDbDriver driver = pausingEvery200msFor50ms(OPEN_NS);
        assertEquals(OPEN_NS + 250 * MS, driver.pauseEndNs(OPEN_NS + 250 * MS));
        assertEquals(OPEN_NS + 399 * MS, driver.pauseEndNs(OPEN_NS + 399 * MS));
        assertEquals(OPEN_NS - 5 * MS, driver.pauseEndNs(OPEN_NS - 5 * MS));
    }

    @Test
    void workStartsAfterTheWindowItArrivesIn() {
        MockDbDriver driver = pausingEvery200msFor50ms(OPEN_NS);
        // Arrives at 210 ms, waits to 250 ms, then works 5 ms.
        assertEquals(OPEN_NS + 255 * MS, driver.completionNs(OPEN_NS + 210 * MS, 5 * MS));
    }

    @Test
    void workEndingInsideAWindowReturnsAtItsEnd() {
        MockDbDriver driver = pausingEvery200msFor50ms(OPEN_NS);
        // Arrives at 190 ms, its 20 ms of work ends at 210 ms, inside [200, 250).
        assertEquals(OPEN_NS + 250 * MS, driver.completionNs(OPEN_NS + 190 * MS, 20 * MS));
        // Ends at 199 ms, before the window: untouched.
        assertEquals(OPEN_NS + 199 * MS, driver.completionNs(OPEN_NS + 190 * MS, 9 * MS));
    }

    @Test
    void operationArrivingInAWindowBlocksUntilItsEnd() throws Exception {
        // Opened 210 ms ago: now is 10 ms into the window [200, 250) ms, which ends 40 ms from now.
        long openNs = System.nanoTime() - 210 * MS;
        MockDbDriver driver = pausingEvery200msFor50ms(openNs);
        driver.execute(new Operation(0));
        assertTrue(System.nanoTime() - (openNs + 250 * MS) >= 0, "returned before the window ended");
        assertEquals(1L, driver.stats().get("paused_operations"));
        assertEquals(Map.of("paused_operations", 1L), driver.liveStats(), "the status line sees it too");
    }

    @Test
    void operationArrivingBetweenWindowsReturnsAtOnce() throws Exception {
        // Opened 100 ms ago: the next window starts 100 ms from now. An op that wrongly waited for a
        // window would take >= 100 ms; a zero-delay op takes a clock read, plus, on a busy 2-core machine, a
        // wait behind up to 10 runnable threads for one 1.5 ms EEVDF slice each: 15 ms < 50 ms.
        long openNs = System.nanoTime() - 100 * MS;
        MockDbDriver driver = pausingEvery200msFor50ms(openNs);
        long startNs = System.nanoTime();
        driver.execute(new Operation(0));
        assertTrue(System.nanoTime() - startNs < 50 * MS);
        assertEquals(0L, driver.stats().get("paused_operations"));
    }

    @Test
    void statsCountWindowsBegunSinceOpen() {
        // Opened 1010 ms ago: windows began at 200, 400, 600, 800 and 1000 ms. The count stays 5 until
        // 1200 ms, so this holds unless the test stalls for 190 ms between these lines.
        MockDbDriver driver = pausingEvery200msFor50ms(System.nanoTime() - 1010 * MS);
        assertEquals(5L, driver.stats().get("pauses"));
    }

    /** A store serving {@code capacity} ops/s, opened at {@link #OPEN_NS}, with the given extra properties. */
    private static MockDbDriver withCapacity(String capacity, String... more) {
        Map<String, String> given = new java.util.HashMap<>(Map.of("mockdb.capacity", capacity));
        for (int i = 0; i < more.length; i += 2) {
            given.put(more[i], more[i + 1]);
        }
        return new MockDbDriver(settings(given), WorkerRandoms.split(new DriverContext(1, 42L)), OPEN_NS);
    }

    @Test
    void capacityServesOneTurnAtATimeInArrivalOrder() {
        // 500 ops/s: each turn occupies the store for 2 ms. Three arrivals at 10 ms start their turns at 10, 12
        // and 14 ms (each behind the ones before it); the store is then free at 16 ms, so an arrival at 15 ms
        // starts at 16, and one at 100 ms finds it idle and starts at once.
        MockDbDriver store = withCapacity("500");
        assertEquals(OPEN_NS + 10 * MS, store.takeTurn(OPEN_NS + 10 * MS));
        assertEquals(OPEN_NS + 12 * MS, store.takeTurn(OPEN_NS + 10 * MS));
        assertEquals(OPEN_NS + 14 * MS, store.takeTurn(OPEN_NS + 10 * MS));
        assertEquals(OPEN_NS + 16 * MS, store.takeTurn(OPEN_NS + 15 * MS));
        assertEquals(OPEN_NS + 100 * MS, store.takeTurn(OPEN_NS + 100 * MS));
        assertEquals(OPEN_NS + 102 * MS, store.takeTurn(OPEN_NS + 101 * MS));
    }

    @Test
    void aPauseHoldsTheTurnItRunsInto() {
        // 100 ops/s (10 ms turns) in a store pausing [200, 250) ms: a turn from 195 ms would end at 205, inside
        // the pause, so it ends at 250 and the next arrival (196 ms) starts then; one arriving inside the pause
        // (230 ms, behind that one) starts at 260.
        MockDbDriver store = withCapacity("100", "mockdb.pause.every", "200ms", "mockdb.pause.length", "50ms");
        assertEquals(OPEN_NS + 195 * MS, store.takeTurn(OPEN_NS + 195 * MS));
        assertEquals(OPEN_NS + 250 * MS, store.takeTurn(OPEN_NS + 196 * MS));
        assertEquals(OPEN_NS + 260 * MS, store.takeTurn(OPEN_NS + 230 * MS));
    }

    @Test
    void capacityOccupancyIsOneOverTheRate() {
        assertEquals(0, settings(Map.of()).occupancyNs(), "default: unlimited");
        assertEquals(2 * MS, settings(Map.of("mockdb.capacity", "500")).occupancyNs());
        assertEquals(333_333_333L, settings(Map.of("mockdb.capacity", "3")).occupancyNs());
        assertEquals(400 * MS, settings(Map.of("mockdb.capacity", "2.5")).occupancyNs());
        assertEquals(1, settings(Map.of("mockdb.capacity", "1e9")).occupancyNs(), "one per ns at most");
    }

    /** Runs {@code perThread} operations on each of {@code threads} threads started together; the wall time. */
    private static long elapsedNs(Driver driver, int threads, int perThread) throws Exception {
        CountDownLatch ready = new CountDownLatch(threads);
        CountDownLatch go = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads; t++) {
            int worker = t;
            workers[t] = new Thread(() -> {
                Operation op = new Operation(worker);
                try {
                    ready.countDown();
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        op.prepare(0, "READ", System.nanoTime(), i);
                        driver.execute(op);
                    }
                } catch (Throwable e) {
                    failure[0] = e;
                }
            });
            workers[t].start();
        }
        ready.await();
        long startNs = System.nanoTime();
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
        return System.nanoTime() - startNs;
    }

    private static Driver open(int threads, Map<String, String> given) {
        MockDbDriverProvider provider = new MockDbDriverProvider();
        return provider.open(DriverProperties.of("mockdb", provider.properties(), given), new DriverContext(threads, 42L));
    }

    @Test
    void threadsShareTheCapacity() throws Exception {
        // 4 threads x 10 operations against 500 ops/s: 40 turns of 2 ms that cannot overlap, so the last ends at
        // least 80 ms after the first arrival (a sleep never returns early): the hard lower bound, which a store
        // serving each thread apart (20 ms) or not at all (~0) fails. Upper bound: the store idles only while no
        // thread has a turn queued; a thread re-arrives one wake-up after its turn, and three turns (6 ms) are
        // queued ahead of it then, so it idles only for a wake-up later than 6 ms. Even if all 40 wake-ups were
        // 3 ms late and idled it (a busy 2-core VM: two 1.5 ms EEVDF slices), 80 + 120 = 200 ms.
        long ns = elapsedNs(open(4, Map.of("mockdb.capacity", "500")), 4, 10);
        assertTrue(ns >= 80 * MS && ns < 200 * MS, "40 turns of 2 ms took " + ns / 1e6 + " ms");
    }

    @Test
    void theDelayFollowsTheTurnWithoutHoldingTheStore() throws Exception {
        // 500 ops/s and a 20 ms delay, 4 threads x 5 operations: each operation holds the store for its 2 ms turn
        // only, then waits out its delay while the store serves others. So each thread's 5 operations take
        // 5 x (20 ms + 2 ms turn + at most 3 others' turns, 6 ms) = 110 to 140 ms, plus wake-ups (5 x up to
        // 10 ms on a busy VM): the wall time is at least 110 ms and under 190 ms < 250 ms. A store that held
        // the delay too would serve 20 operations x 22 ms back to back: 440 ms.
        long ns = elapsedNs(open(4, Map.of("mockdb.capacity", "500", "mockdb.delay", "20ms")), 4, 5);
        assertTrue(ns >= 110 * MS && ns < 250 * MS, "took " + ns / 1e6 + " ms");
    }

    @Test
    void capacityOutOfRangeIsRejectedNamingTheProperty() {
        for (String bad : new String[]{"-1", "2e9", "NaN", "Infinity"}) {
            BadInputException e = assertThrows(BadInputException.class, () -> settings(Map.of("mockdb.capacity", bad)));
            assertTrue(e.getMessage().contains("mockdb.capacity") && !e.getMessage().contains("\n"), e.getMessage());
        }
        BadInputException e = assertThrows(BadInputException.class, () -> settings(Map.of("mockdb.capacity", "fast")));
        assertTrue(e.getMessage().contains("mockdb.capacity"), e.getMessage());
    }

    @Test
    void pauseAsLongAsItsPeriodIsRejectedNamingBoth() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> settings(Map.of("mockdb.pause.every", "50ms", "mockdb.pause.length", "50ms")));
        assertTrue(e.getMessage().contains("mockdb.pause.length") && e.getMessage().contains("mockdb.pause.every"),
                e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one line");
    }

    @Test
    void pauseLengthWithoutPeriodIsRejected() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> settings(Map.of("mockdb.pause.length", "50ms")));
        assertTrue(e.getMessage().contains("mockdb.pause.every"), e.getMessage());
    }

    @Test
    void unparsableDelayIsRejectedNamingTheProperty() {
        BadInputException e = assertThrows(BadInputException.class, () -> settings(Map.of("mockdb.delay", "4")));
        assertTrue(e.getMessage().contains("mockdb.delay"), e.getMessage());
    }
}
