package io.loadgen.core.summary;

import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.diagnosis.Evidences;
import io.loadgen.core.diagnosis.Latencies;
import io.loadgen.core.summary.HarnessVerdict.Measured;
import io.loadgen.core.summary.HarnessVerdict.Reason;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The verdict is derived from the diagnosis: {@code behind} exactly when a cause blames the harness, worded
 * with what the harness measured. Every branch, with exact inputs.
 */
class HarnessVerdictTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    /** A comfortable run: lag p99 12 us, hiccup max 0.3 ms, no GC, never behind. */
    private static Measured comfortable() {
        return new Measured(true, 12 * US, 300 * US, 0, 0, 0, 0.0, 0.0);
    }

    @Test
    void aHealthyDiagnosisIsAHealthyVerdictThatSaysWhatItMeasured() {
        HarnessVerdict v = HarnessVerdict.of(Evidences.healthy().diagnose(), comfortable());
        assertTrue(v.healthy());
        assertEquals("healthy", v.status());
        assertEquals(List.of(), v.reasons());
        assertEquals("harness healthy: lag p99 12 us, hiccup max 300 us, no GC pause", v.text());
    }

    @Test
    void aLongHiccupOrGcPauseThatDelayedNoWorkerIsNoLongerBehind() {
        // Before the diagnosis, a hiccup over 10 ms or a GC pause over 10 ms made every such run "behind". Now the
        // workers' own delay is what counts: here p99 80 us beside a 4.2 ms intended p99.
        Diagnosis noise = Evidences.healthy().hiccupMax(36_200 * US).gc(3, 41 * MS).diagnose();
        HarnessVerdict v = HarnessVerdict.of(noise, new Measured(true, 12 * US, 36_200 * US, 3, 96 * MS, 41 * MS, 0, 0));
        assertTrue(v.healthy(), v.text());
        assertEquals("harness healthy: lag p99 12 us, hiccup max 36.2 ms, 3 GC pauses, max 41 ms, total 96 ms", v.text());
    }

    @Test
    void aStalledHarnessIsBehindForItsLagAndForGcWhenItsGcExplainsTheStall() {
        // Operations the harness delayed by up to 41 ms (its GC): intended p99 42 ms against service 4.2 ms.
        Diagnosis stalled = Evidences.healthy().delay(new Latencies(10_000, 0, 20 * US, 1 * MS, 38 * MS, 41 * MS,
                41 * MS)).intended(new Latencies(10_000, 4 * MS, 4 * MS, 5 * MS, 42 * MS, 45 * MS, 45 * MS))
                .undelayed(Evidences.flat(4 * MS))
                .gc(3, 41 * MS).diagnose();
        HarnessVerdict v = HarnessVerdict.of(stalled, new Measured(true, 38 * MS, 300 * US, 3, 96 * MS, 41 * MS, 0.5,
                0.001));
        assertFalse(v.healthy());
        assertEquals("behind", v.status());
        assertEquals(List.of(Reason.LAG, Reason.GC), v.reasons());
        assertEquals("the load generator itself fell behind (harness_stalled, see the diagnosis): lag p99 38 ms,"
                + " hiccup max 300 us, 3 GC pauses, max 41 ms, total 96 ms; the workers spent 50% of their time behind"
                + " schedule (the harness's own share: 0.1%)", v.text());
    }

    @Test
    void aSaturatedHarnessIsBehindForCapacity() {
        Diagnosis saturated = Evidences.healthy().shares(1.0, 0.62).diagnose();
        HarnessVerdict v = HarnessVerdict.of(saturated, new Measured(true, 120, 400 * US, 0, 0, 0, 1.0, 0.62));
        assertEquals(List.of(Reason.CAPACITY), v.reasons());
        assertTrue(v.text().startsWith("the load generator itself fell behind (harness_saturated, see the diagnosis)"),
                v.text());
    }

    @Test
    void anUnthrottledRunHasNoLagToSpeakOf() {
        HarnessVerdict v = HarnessVerdict.of(Evidences.healthy().unthrottled().diagnose(),
                new Measured(false, 50 * MS, -1, 0, 0, 0, 0.9, 0.8));
        assertTrue(v.healthy());
        assertEquals("harness healthy: no schedule, so no lag, hiccups not measured, no GC pause", v.text());
    }

    @Test
    void durationsAndSharesReadAsAPersonWritesThem() {
        assertEquals("120 ns", HarnessVerdict.duration(120));
        assertEquals("12.3 us", HarnessVerdict.duration(12_345));
        assertEquals("41 ms", HarnessVerdict.duration(41 * MS));
        assertEquals("1.41 s", HarnessVerdict.duration(1_412 * MS));
        assertEquals("62%", HarnessVerdict.percent(0.62));
        assertEquals("0.025%", HarnessVerdict.percent(0.00025));
        assertEquals("0%", HarnessVerdict.percent(0));
    }
}
