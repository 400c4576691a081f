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
