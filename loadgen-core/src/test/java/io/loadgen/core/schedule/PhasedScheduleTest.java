package io.loadgen.core.schedule;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PhasedScheduleTest {
    private static final long S = 1_000_000_000L;

    private static RateProfile profile(RateProfile.Segment... segments) {
        return new RateProfile(List.of(segments));
    }

    @Test
    void aConstantPhaseIsTheFixedRateSchedule() {
        // 1000 ops/s for 1 s: op k at k ms, 1000 ops, then nothing more is due.
        PhasedSchedule s = new PhasedSchedule(0, profile(new RateProfile.Segment(S, 1000, 1000)), 1.0, 0);
        for (int k = 0; k < 1000; k++) {
            assertEquals(k * 1_000_000L, s.nextIntendedStartNs(), 1);
        }
        assertNeverDue(s);
    }

    @Test
    void aRampSpacesStartsByTheIntegralOfItsRate() {
        // 0 -> 2000 ops/s over 1 s: the count after t is 1000 t^2 (t in s), 1000 ops in all; op k at sqrt(k / 1000) s.
        PhasedSchedule s = new PhasedSchedule(0, profile(new RateProfile.Segment(S, 0, 2000)), 1.0, 0);
        long[] starts = new long[1000];
        for (int k = 0; k < 1000; k++) {
            starts[k] = s.nextIntendedStartNs();
        }
        for (int k : new int[]{1, 10, 250, 999}) {
            assertEquals(Math.sqrt(k / 1000.0) * S, starts[k], 1_000, "op " + k);
        }
        assertNeverDue(s);
    }

    @Test
    void aStepChangesTheRateAtThePhaseBoundary() {
        // 1000 ops/s for 1 s, then 3000 ops/s for 1 s: op 1000 at 1 s, op 2500 at 1.5 s, 4000 ops in all.
        PhasedSchedule s = new PhasedSchedule(0, profile(new RateProfile.Segment(S, 1000, 1000),
                new RateProfile.Segment(S, 3000, 3000)), 1.0, 0);
        long[] starts = new long[4000];
        for (int k = 0; k < 4000; k++) {
            starts[k] = s.nextIntendedStartNs();
        }
        assertEquals(S, starts[1000], 1);
        assertEquals(S + S / 2, starts[2500], 1);
        assertNeverDue(s);
    }

    @Test
    void aWorkersShareAndOffsetScaleItsStarts() {
        // 4 workers share 1000 ops/s: each does 250 ops/s, 4 ms apart, shifted by its offset (half a gap: 2 ms).
        PhasedSchedule s = new PhasedSchedule(5, profile(new RateProfile.Segment(S, 1000, 1000)), 0.25, 0.5);
        assertEquals(5 + 2_000_000L, s.nextIntendedStartNs(), 1);
        assertEquals(5 + 6_000_000L, s.nextIntendedStartNs(), 1);
        assertEquals(4_000_000.0, s.meanIntervalNs(), 1e-6);
    }

    /** After the last phase nothing is due: a time 2^62 ns past the end, which still compares wrap-safely. */
    private static void assertNeverDue(PhasedSchedule s) {
        long never = s.nextIntendedStartNs();
        assertTrue(never - 10 * S >= 1L << 61, "far past the profile's end: " + never);
    }

    @Test
    void countUntilIsTheIntegralOfTheRateUpToThatTime() {
        // A ramp 0 -> 2000 ops/s over 1 s: by time t (s) it intends 1000 t^2 operations, so by 0.5 s 250
        // (ops 0..249, the one at count 0 at time 0). After taking op 0, 250 are due before 0.5 s, counting it.
        PhasedSchedule s = new PhasedSchedule(0, profile(new RateProfile.Segment(S, 0, 2000)), 1.0, 0);
        long pending = s.nextIntendedStartNs();
        assertEquals(250, s.countUntil(pending, S / 2));
        // Then a hold at 1000 ops/s for 1 s: by 1.5 s, 1000 + 500 in all.
        PhasedSchedule t = new PhasedSchedule(0, profile(new RateProfile.Segment(S, 0, 2000),
                new RateProfile.Segment(S, 1000, 1000)), 1.0, 0);
        for (int k = 0; k < 10; k++) {
            pending = t.nextIntendedStartNs();
        }
        assertEquals(1500 - 9, t.countUntil(pending, 3 * S / 2), "ops 9 .. 1499");
        assertEquals(0, t.countUntil(5 * S, S), "nothing when the pending op is not before the end");
    }

    @Test
    void countUntilPastTheEndCountsEveryOperationLeft() {
        PhasedSchedule s = new PhasedSchedule(0, profile(new RateProfile.Segment(S, 1000, 1000)), 1.0, 0.5);
        long pending = s.nextIntendedStartNs(); // op 0, at 0.5 ms
        assertEquals(1000, s.countUntil(pending, 1L << 40), "all 1000 of the phase, counting the pending one");
    }
}
