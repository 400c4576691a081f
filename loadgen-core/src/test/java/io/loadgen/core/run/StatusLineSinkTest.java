package io.loadgen.core.run;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.schedule.RateProfile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The status line shows trouble: each type's failures on every line, the driver's timeouts, the phase, and no rate for a tail. */
class StatusLineSinkTest {
    private static final long S = 1_000_000_000L;

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final StatusLineSink sink = new StatusLineSink(new PrintStream(bytes, true, StandardCharsets.UTF_8),
            "redis", 10 * S, 0);
    private final SealedHistogram empty = new SealedHistogram(Histograms.newHistogram()).seal();

    /** An interval of {@code lengthNs} ending at {@code endNs} in which {@code ok} reads succeeded and {@code errors} failed. */
    private IntervalSnapshot interval(long endNs, long lengthNs, boolean last, long ok, long errors,
                                      Map<String, Number> counters, IntervalSnapshot.Phase phase) {
        return interval(endNs, lengthNs, last, ok, errors, Status.ERROR, counters, phase);
    }

    /** As above, the failures all ending with {@code failure}. */
    private IntervalSnapshot interval(long endNs, long lengthNs, boolean last, long ok, long errors, Status failure,
                                      Map<String, Number> counters, IntervalSnapshot.Phase phase) {
        SealedHistogram service = new SealedHistogram(Histograms.newHistogram());
        service.recordValueWithCount(2_000_000, ok);
        SealedHistogram failed = new SealedHistogram(Histograms.newHistogram());
        failed.recordValueWithCount(100_000_000, errors);
        long[] statuses = new long[Status.count()];
        statuses[Status.OK.ordinal()] = ok;
        statuses[failure.ordinal()] = errors;
        IntervalSnapshot.Builder b = new IntervalSnapshot.Builder();
        b.runStartNs = 0;
        b.runStartMs = 1_000_000;
        b.startNs = endNs - lengthNs;
        b.endNs = endNs;
        b.startMs = b.runStartMs + b.startNs / 1_000_000;
        b.endMs = b.runStartMs + endNs / 1_000_000;
        b.intervalNs = S;
        b.measured = true;
        b.last = last;
        b.phase = phase;
        b.operations = List.of(new IntervalSnapshot.Op("SCAN", service.seal(), service, failed.seal(), failed, statuses));
        b.byTag = Map.of();
        b.events = List.of();
        b.driverCounters = counters;
        return new IntervalSnapshot(b);
    }

    private List<String> lines() {
        return List.of(bytes.toString(StandardCharsets.UTF_8).split("\\R"));
    }

    @Test
    void everyLineCountsEachTypesFailuresAndTheDriversNewTimeouts() {
        // A Redis run whose SCANs time out: the driver counts timeouts (268 in all, as in the issue's run), and
        // each timed-out SCAN completes with TIMEOUT, so the line counts timeouts per type (other failures are
        // ERROR, as in the second interval). Each line shows the interval's increase, not the total.
        Map<String, Number> counters = new LinkedHashMap<>();
        counters.put("connections", 4);
        counters.put("timeouts", 0L);
        sink.onInterval(interval(S, S, false, 1000, 0, Map.copyOf(counters), null));
        counters.put("timeouts", 200L);
        sink.onInterval(interval(2 * S, S, false, 800, 200, Map.copyOf(counters), null));
        counters.put("timeouts", 268L);
        counters.put("io_threads", 2.5); // not a count: never shown
        sink.onInterval(interval(3 * S, S, false, 900, 68, Status.TIMEOUT, counters, null));

        List<String> lines = lines();
        assertTrue(lines.get(0).endsWith("[SCAN returns: 1000 OK] [redis: 4 connections]"), lines.get(0));
        assertTrue(lines.get(1).contains(" 2 sec: 2000 operations; 1000 current ops/sec;"), lines.get(1));
        assertTrue(lines.get(1).endsWith("[SCAN returns: 800 OK, 200 ERROR] [redis: 200 timeouts]"), lines.get(1));
        assertTrue(lines.get(2).endsWith("[SCAN returns: 900 OK, 68 TIMEOUT] [redis: 68 timeouts]"), lines.get(2));
    }

    @Test
    void aPhasedRunShowsItsPhaseAndTargetRate() {
        sink.onInterval(interval(12 * S, S, false, 3000, 0, Map.of(), new IntervalSnapshot.Phase("ramp", 3000)));
        assertTrue(lines().get(0).contains("3000 current ops/sec; est completion in 0 seconds [phase ramp: target 3000 ops/s]"
                + " [SCAN: Count=3000"),
                lines().get(0));
    }

    @Test
    void theFinalPartialIntervalIsNotARate() {
        // 0.2 s of tail holding 40 operations would read "200 current ops/sec" on a run doing 1000.
        sink.onInterval(interval(S, S, false, 1000, 0, Map.of(), null));
        sink.onInterval(interval(S + 200_000_000, 200_000_000, true, 40, 0, Map.of(), null));
        String tail = lines().get(1);
        assertTrue(tail.contains(" 1 sec: 1040 operations; 40 operations in the final 0.2 s (partial interval);"
                + " [SCAN: Count=40,"), tail);
        assertFalse(tail.contains("ops/sec"), tail);
    }

    @Test
    void aFullFinalIntervalStillHasItsRate() {
        sink.onInterval(interval(S, S, true, 1000, 0, Map.of(), null));
        assertTrue(lines().get(0).contains(" 1 sec: 1000 operations; 1000 current ops/sec; est completion in 0 seconds"),
                lines().get(0));
    }

    @Test
    void phasesAreFoundByTheirOffsetAndRampsByTheirRate() {
        // warmup 10 s at 1000, ramp 30 s 1000 -> 5000, spike 5 s at 20000 (workloads/ramp-step-spike.yaml, shortened).
        RateProfile p = new RateProfile(List.of(new RateProfile.Segment("warmup", 10 * S, 1000, 1000),
                new RateProfile.Segment("ramp", 30 * S, 1000, 5000), new RateProfile.Segment("spike", 5 * S, 20000, 20000)));
        assertEquals(0, p.segmentAt(0));
        assertEquals(1, p.segmentAt(10 * S), "a boundary belongs to the next phase");
        assertEquals(2000.0, p.rateAt(17_500_000_000L), 1e-9, "a quarter into the ramp: 1000 + 4000 / 4");
        assertEquals(2, p.segmentAt(60 * S), "from the end on, the last phase");
        assertEquals(20000.0, p.rateAt(60 * S), 0.0);
    }
}
