package io.loadgen.drivers.calibrate;

import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.drivers.calibrate.Calibration.Check;
import org.junit.jupiter.api.Test;

import java.util.EnumSet;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What calibrate says of a figure and of a diagnosis, without running anything. */
class CalibrationTest {
    private static Check check(double analytic, double measured, double tolerance, String verdict, double shift) {
        return new Check("pause", "intended p99.9", analytic, measured, tolerance, List.of("target_stalled"), verdict,
                shift > 0 ? 20 : 1, shift);
    }

    @Test
    void aFigureOutsideItsToleranceSaysByHowMuch() {
        Check c = check(298, 412, 0.10, null, 0);
        assertFalse(c.pass());
        assertEquals((412 - 298) / 298.0, c.error(), 1e-12);
        assertEquals("intended p99.9 412 ms, analytic 298 ms, error +38% > 10%", c.failure());
        Check inside = check(475, 476, 0.0057, null, 0);
        assertTrue(inside.pass());
        assertNull(inside.failure());
        assertEquals("intended p99.9 473 ms, analytic 475 ms, error -0.42% > 0.20%",
                check(475, 473, 0.002, null, 0).failure());
    }

    @Test
    void aMachineStallExplainsAFigureOnlyWhenItCouldMoveItThatFar() {
        // Allowance 10% of 100 ms = 10 ms; error 30 ms: a stall shift of 20 ms explains it (10 + 20 >= 30), 19 does not.
        assertTrue(check(100, 130, 0.10, null, 20).machineStalled());
        assertTrue(check(100, 130, 0.10, null, 20).failure().endsWith("the machine itself stalled meanwhile, for up"
                + " to 20 ms at a time (hiccup meter), enough to explain it"));
        assertFalse(check(100, 130, 0.10, null, 19).machineStalled());
        assertFalse(check(100, 130, 0.10, null, 0).machineStalled());
        assertFalse(check(100, 105, 0.10, null, 20).machineStalled(), "a figure that passed needs no excuse");
        // Beyond what the meter's stalls explain, but the workers were measured late (the diagnosis blames the
        // harness): the machine starved them; with no stall seen at all, nothing excuses it.
        Check starved = new Check("md1", "intended mean", 3, 11.5, 0.17, List.of("harness_stalled"), "blamed", 70, 6.9);
        assertTrue(starved.machineStalled());
        assertTrue(starved.failure().endsWith("for up to 70 ms at a time (hiccup meter), and the workers were late"
                + " for their starts"), starved.failure());
        assertFalse(new Check("md1", "intended mean", 3, 11.5, 0.17, List.of("harness_stalled"), "blamed", 3, 0)
                .machineStalled());
    }

    @Test
    void aDiagnosisBlamingTheHarnessFailsTheScenarioWhateverItsPrimary() {
        Cause slow = new Cause(CauseCode.TARGET_SLOW, "the store is slow", Map.of());
        Cause stalled = new Cause(CauseCode.HARNESS_STALLED, "the load generator itself stalled", Map.of());
        Cause noise = new Cause(CauseCode.MACHINE_NOISE, "noise", Map.of());
        EnumSet<CauseCode> backlog = EnumSet.of(CauseCode.TARGET_SLOW, CauseCode.CONCURRENCY_LIMITED);
        assertNull(Calibration.judge(new Diagnosis(List.of(slow, noise), "h"), backlog));
        assertEquals("the diagnosis blames the harness: harness_stalled (the load generator itself stalled)",
                Calibration.judge(new Diagnosis(List.of(slow, stalled), "h"), backlog));
        assertEquals("diagnosed ok, expected target_stalled", Calibration.judge(new Diagnosis(List.of(
                new Cause(CauseCode.OK, "ok", Map.of())), "h"), EnumSet.of(CauseCode.TARGET_STALLED)));
        Check judged = new Check("md1", "intended mean", 3, 3.1, 0.17, List.of("harness_stalled"),
                "the diagnosis blames the harness: harness_stalled (x)", 1, 0);
        assertFalse(judged.pass(), "inside its tolerance, but the harness is blamed");
        assertEquals("the diagnosis blames the harness: harness_stalled (x)", judged.failure());
    }
}
