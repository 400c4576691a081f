package io.loadgen.core.findmax;

import io.loadgen.core.findmax.FindMaxSearch.Outcome;
import io.loadgen.core.findmax.FindMaxSearch.StopReason;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.function.DoublePredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The search's rates against stores whose outcome at each rate is given. */
class FindMaxSearchTest {
    /** Runs the search against {@code passes}; returns the rates tried. */
    private static List<Double> drive(FindMaxSearch s, DoublePredicate passes) {
        List<Double> tried = new ArrayList<>();
        for (OptionalDouble r = s.next(); r.isPresent(); r = s.next()) {
            tried.add(r.getAsDouble());
            s.record(r.getAsDouble(), passes.test(r.getAsDouble()) ? Outcome.PASS : Outcome.FAIL);
        }
        return tried;
    }

    @Test
    void doublesThenBisectsToTheResolutionThenConfirms() {
        // Capacity 2730, from 1000: 1000, 2000 pass, 4000 fails; bisection of [2000, 4000] at geometric midpoints
        // (4 significant digits): 2828 F, 2378 P, 2593 P, 2708 P, 2767 F (2767/2708 = 1.022 > 1.02), 2737 F
        // (2737/2708 = 1.011 <= 1.02): the low bound 2708 is run again and passes: resolution.
        FindMaxSearch s = new FindMaxSearch(1000, Double.POSITIVE_INFINITY, 0.02, 30);
        List<Double> tried = drive(s, r -> r <= 2730);
        assertEquals(List.of(1000.0, 2000.0, 4000.0, 2828.0, 2378.0, 2593.0, 2708.0, 2767.0, 2737.0, 2708.0),
                tried);
        assertEquals(StopReason.RESOLUTION, s.stopReason());
        assertEquals(2708.0, s.answer());
        assertTrue(s.confirmed());
        assertTrue(s.high() / s.answer() - 1 <= 0.02);
    }

    @Test
    void aFirstFailureHalvesDown() {
        FindMaxSearch s = new FindMaxSearch(1000, Double.POSITIVE_INFINITY, 0.05, 30);
        List<Double> tried = drive(s, r -> r <= 300);
        assertEquals(List.of(1000.0, 500.0, 250.0), tried.subList(0, 3));
        assertEquals(StopReason.RESOLUTION, s.stopReason());
        assertTrue(s.answer() <= 300 && s.answer() >= 300 / 1.05, "answer " + s.answer());
    }

    @Test
    void aPassOnlyByLuckIsRefutedOnRepeatAndTheSearchGoesOn() {
        // As above, but 2708 passes the first time only (the store's capacity is 2700): on repeat it fails, becomes
        // the high bound, the low bound falls back to 2593, the highest other pass; bisection goes on: 2650 P,
        // 2679 P (2708/2679 = 1.011), and 2679 passes on repeat.
        FindMaxSearch s = new FindMaxSearch(1000, Double.POSITIVE_INFINITY, 0.02, 30);
        int[] at2708 = {0};
        List<Double> tried = drive(s, r -> r == 2708 ? at2708[0]++ == 0 : r <= 2700);
        assertEquals(List.of(2708.0, 2767.0, 2737.0, 2708.0, 2650.0, 2679.0, 2679.0),
                tried.subList(tried.size() - 7, tried.size()));
        assertEquals(2679.0, s.answer());
        assertEquals(2708.0, s.high());
        assertTrue(s.confirmed());
    }

    @Test
    void theCapPassingTwiceIsTheAnswerAtLeast() {
        FindMaxSearch s = new FindMaxSearch(1000, 3000, 0.02, 30);
        List<Double> tried = drive(s, r -> true);
        assertEquals(List.of(1000.0, 2000.0, 3000.0, 3000.0), tried);
        assertEquals(StopReason.TO, s.stopReason());
        assertEquals(3000.0, s.answer());
    }

    @Test
    void nothingPassingEndsBelowOneOpPerSecond() {
        FindMaxSearch s = new FindMaxSearch(8, Double.POSITIVE_INFINITY, 0.02, 30);
        List<Double> tried = drive(s, r -> false);
        assertEquals(List.of(8.0, 4.0, 2.0, 1.0), tried);
        assertEquals(StopReason.NONE, s.stopReason());
        assertTrue(Double.isNaN(s.answer()));
    }

    @Test
    void aHarnessFaultStopsAtOnce() {
        FindMaxSearch s = new FindMaxSearch(1000, Double.POSITIVE_INFINITY, 0.02, 30);
        s.record(s.next().getAsDouble(), Outcome.PASS);
        s.record(s.next().getAsDouble(), Outcome.HARNESS);
        assertFalse(s.next().isPresent());
        assertEquals(StopReason.HARNESS, s.stopReason());
        assertEquals(1000.0, s.answer());
    }

    @Test
    void aRetriedRateIsGivenOnceMoreAndOnlyItsRepeatCounts() {
        FindMaxSearch s = new FindMaxSearch(1000, Double.POSITIVE_INFINITY, 0.02, 30);
        s.record(s.next().getAsDouble(), Outcome.PASS);
        double second = s.next().getAsDouble();
        s.retry(second); // the harness stalled: not recorded
        assertEquals(second, s.next().getAsDouble());
        s.record(second, Outcome.FAIL);
        assertEquals(2, s.steps());
        assertEquals(Math.sqrt(1000 * 2000.0), s.next().getAsDouble(), 1);
    }

    @Test
    void maxStepsBoundsTheSearch() {
        FindMaxSearch s = new FindMaxSearch(1000, Double.POSITIVE_INFINITY, 0.02, 4);
        List<Double> tried = drive(s, r -> r <= 2730);
        assertEquals(4, tried.size());
        assertEquals(StopReason.MAX_STEPS, s.stopReason());
        assertFalse(s.confirmed());
    }
}
