package io.loadgen.core.summary;

import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The corrected view's rule, expected interval = threads x M / target, on exact, timing-free inputs. */
class CorrectedBasisTest {
    private static final long MS = 1_000_000L;

    @Test
    void intervalIsThreadsTimesInFlightOverTarget() {
        assertEquals(4 * MS, CorrectedBasis.of(1000, 4, 1, 10_000 * MS).expectedIntervalNs());
        // The redis run: 1 issuer, --max-in-flight 1024, 5000 ops/s: 204.8 ms, not 0.2 ms.
        CorrectedBasis redis = CorrectedBasis.of(5000, 1, 1024, 2_000 * MS);
        assertEquals(204_800_000L, redis.expectedIntervalNs());
        assertTrue(redis.applicable());
        assertEquals("corrected: service repaired afterwards for an expected interval of 204.800 ms = 1 thread x"
                + " 1024 in flight / 5000 ops/s", redis.describe());
    }

    @Test
    void anIntervalNotShorterThanTheRunIsNotApplicable() {
        CorrectedBasis b = CorrectedBasis.of(5000, 1, 1024, 204_800_000L);
        assertFalse(b.applicable());
        assertEquals("corrected: not applicable: the expected interval 204.800 ms = 1 thread x 1024 in flight"
                + " / 5000 ops/s is not shorter than the measured run (204.800 ms): the correction could add"
                + " nothing within the run", b.describe());
        assertEquals(204_800_000L, b.expectedIntervalNs(), "still reported, with the M it came from");
        assertEquals(1024, b.inFlightPerThread());
    }

    @Test
    void noTargetMeansNoCorrectedView() {
        assertEquals(CorrectedBasis.notApplicable(CorrectedBasis.NO_SCHEDULE), CorrectedBasis.of(0, 1, 1, MS));
        Histogram service = Histograms.newHistogram();
        service.recordValue(500 * MS);
        assertEquals(service, CorrectedBasis.notApplicable(CorrectedBasis.NO_SCHEDULE).correct(service));
    }

    /**
     * The stall an async issuer sees, written out: rate R = 1000/s (1 ms apart), M = 8 slots, a stall of
     * P = 200 ms. Intended: the 200 operations due in the stall wait for its end, P - k ms for k = 0..199.
     * Service: the first M are sent on time, P - k ms for k = 0..7; the other 192 are held back and sent
     * after the stall, 0.1 ms each. Corrected at I = M/R = 8 ms: the M samples' synthetic values
     * v - 8 ms, v - 16 ms, ... interleave into every P - j ms down to 8 ms: 193 values, intended's 193 at or
     * above 8 ms. At the serial caller's 1 ms each sample fills in every later one: sum over k of
     * (200 - k - 7) = 1516 values at or above 8 ms, 7.9 (about M) times too many. Counts are exact up to
     * the histogram's 3 digits, which can move a synthetic value across 8 ms: at most one per sample.
     */
    @Test
    void anIssuersStallIsRepairedAtInFlightOverRateAndOvercountedMTimesAtOneOverRate() {
        Histogram intended = Histograms.newHistogram();
        Histogram service = Histograms.newHistogram();
        for (int k = 0; k < 200; k++) {
            intended.recordValue((200 - k) * MS);
            service.recordValue(k < 8 ? (200 - k) * MS : 100_000L);
        }
        Histogram corrected = CorrectedBasis.of(1000, 1, 8, 10_000 * MS).correct(service);
        Histogram old = CorrectedBasis.of(1000, 1, 1, 10_000 * MS).correct(service);
        assertEquals(193, intended.getCountBetweenValues(8 * MS, 200 * MS));
        assertEquals(193, corrected.getCountBetweenValues(8 * MS, 201 * MS), 8);
        assertEquals(1516, old.getCountBetweenValues(8 * MS, 201 * MS), 8);
        // The held-back 192 are in service too (loadgen sends them late, never drops them), so the corrected
        // total is 192 + 193 = 385 against intended's 200: compare it above I, as above.
        assertEquals(385, corrected.getTotalCount(), 8);
    }
}
