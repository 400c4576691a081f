package io.loadgen.core.run;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The early warning that the run's concurrency cannot carry its rate, and its second look after a rate change. */
class LittlesLawCheckTest {
    private static final long MS = 1_000_000L;

    /** A measured interval whose 100 operations took 10 ms each, at {@code targetOpsPerSec}, with these events. */
    private static IntervalSnapshot interval(double targetOpsPerSec, IntervalSnapshot.Event... events) {
        Histogram service = new Histogram(3_600_000_000_000L, 3);
        service.recordValueWithCount(10 * MS, 100);
        Histogram empty = new Histogram(3_600_000_000_000L, 3);
        IntervalSnapshot.Builder b = new IntervalSnapshot.Builder();
        b.measured = true;
        b.targetOpsPerSec = targetOpsPerSec;
        b.operations = List.of(new IntervalSnapshot.Op("READ", service, service, empty, empty, new long[io.loadgen.core.driver.Status.count()]));
        b.byTag = Map.of();
        b.events = List.of(events);
        b.driverCounters = Map.of();
        return new IntervalSnapshot(b);
    }

    @Test
    void aRaisedRateIsCheckedAgainInTheFirstIntervalAtIt() {
        // 4 threads of a blocking driver at 10 ms: Little's law carries 4 / 10 ms = 400 ops/s. At 300 ops/s (3 in
        // flight needed) nothing is said; raised to 1000 ops/s (10 needed) the check runs again and warns, once.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        LittlesLawCheck check = new LittlesLawCheck(out, "mockdb", 300, 4, 1, false);
        check.onInterval(interval(300));
        check.onInterval(interval(300));
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
        check.onInterval(interval(300, new IntervalSnapshot.Event(IntervalSnapshot.Event.RATE_CHANGE, "api", 0, 0, 1000)));
        assertEquals("", bytes.toString(StandardCharsets.UTF_8), "the switch's own interval ran at the old rate");
        check.onInterval(interval(1000));
        check.onInterval(interval(1000));
        String said = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("loadgen: warning: 4 operations in flight cannot carry 1,000 ops/s"), said);
        assertEquals(1, said.lines().count(), said);
    }
}
