package io.loadgen.core.schedule;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
        assertEquals(Long.MAX_VALUE, s.nextIntendedStartNs());
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
        assertEquals(Long.MAX_VALUE, s.nextIntendedStartNs());
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
        assertEquals(Long.MAX_VALUE, s.nextIntendedStartNs());
    }

    @Test
    void aWorkersShareAndOffsetScaleItsStarts() {
        // 4 workers share 1000 ops/s: each does 250 ops/s, 4 ms apart, shifted by its offset (half a gap: 2 ms).
        PhasedSchedule s = new PhasedSchedule(5, profile(new RateProfile.Segment(S, 1000, 1000)), 0.25, 0.5);
        assertEquals(5 + 2_000_000L, s.nextIntendedStartNs(), 1);
        assertEquals(5 + 6_000_000L, s.nextIntendedStartNs(), 1);
        assertEquals(4_000_000.0, s.meanIntervalNs(), 1e-6);
    }
}
