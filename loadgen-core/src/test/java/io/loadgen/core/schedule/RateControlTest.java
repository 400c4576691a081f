package io.loadgen.core.schedule;

import io.loadgen.core.BadInputException;
import io.loadgen.core.time.ManualNanoClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Changing the rate of a running schedule: what a request is refused for, when it switches, and where each
 * worker's intended starts go across the switch. On a manual clock; intervals of 1 s from t0 = 0.
 */
class RateControlTest {
    private static final long MS = 1_000_000L;
    private static final long S = 1_000 * MS;

    private final ManualNanoClock clock = new ManualNanoClock(0);

    /** One worker at 1000 ops/s (a 1 ms gap), started. */
    private RateControl started(int threads, int shards) {
        RateControl c = new RateControl(1000.0 / shards, threads, shards, S, clock);
        c.start(0);
        return c;
    }

    @Test
    void rateIsValidatedAsTargetIs() {
        RateControl c = started(1, 1);
        assertEquals("rate: 'fast' is not a rate; write " + Rates.FORM, c.requestRate("fast"));
        assertEquals("rate must be a positive rate in ops/s (got 0)", c.requestRate("0"));
        assertEquals("rate must be a positive rate in ops/s (got -5)", c.requestRate("-5"));
        assertTrue(c.requestRate("2e9").startsWith("rate 2000000000 is above the limit of 1e9 ops/s"), c.requestRate("2e9"));
        assertFalse(c.changed(), "nothing refused changes anything");
        assertNull(c.requestRate("5k/s"), "the forms --target takes");
        assertEquals(5000, c.targetOpsPerSec());
    }

    @Test
    void aRunWithoutAScheduleOrNotRunningRefusesWithTheReason() {
        RateControl refusing = RateControl.refusing("the run is unthrottled");
        assertEquals("the run is unthrottled", refusing.requestRate("100"));
        RateControl notYet = new RateControl(1000, 1, 1, S, clock);
        assertEquals("the run has not started yet; ask again once it runs", notYet.requestRate("100"));
        notYet.start(0);
        notYet.end();
        assertEquals("the run has ended; there is no rate to change", notYet.requestRate("100"));
        assertThrows(BadInputException.class, () -> refusing.request(100, "api"));
    }

    @Test
    void changeSwitchesAtTheNextIntervalBoundaryAndTheNewestRequestForItWins() {
        RateControl c = started(1, 1);
        clock.set(2 * S + 300 * MS);
        assertEquals(3 * S, c.request(2000, "http"));
        assertEquals(3 * S, c.request(4000, "rate-file"));
        assertEquals(1000, c.targetAt(3 * S - 1));
        assertEquals(4000, c.targetAt(3 * S));
        assertEquals(List.of(), c.drainSwitched(3 * S - 1), "not switched yet");
        List<RateControl.Change> switched = c.drainSwitched(3 * S);
        assertEquals(1, switched.size(), "one event for the boundary: the rate in force from it");
        assertEquals(4000, switched.get(0).opsPerSec());
        assertEquals("rate-file", switched.get(0).source());
        assertEquals(List.of(), c.drainSwitched(10 * S), "each change handed over once");
    }

    @Test
    void meanTargetWeighsEachRateByItsTimeInForce() {
        // 1000/s over [0, 1 s), 4000/s over [1 s, 3 s): (1000 + 8000) operations in 3 s = 3000/s.
        RateControl c = started(1, 1);
        clock.set(500 * MS);
        c.request(4000, "api");
        assertEquals(3000, c.meanOpsPerSec(0, 3 * S), 1e-9);
        assertEquals(1000, c.meanOpsPerSec(0, S), 1e-9);
    }

    @Test
    void aShardRunsItsPartOfTheRequestedTotal() {
        RateControl c = started(1, 4);
        clock.set(100 * MS);
        c.request(8000, "api");
        assertEquals(2000, c.targetOpsPerSec());
    }

    @Test
    void uniformStartsKeepTheirTimesBeforeTheSwitchAndFollowTheNewRateAfterItWithoutJump() {
        // 1000/s on one thread: a 1 ms gap, starts at 0.25 ms + k ms. At 0.3 s, 4000/s is asked for, switching at
        // 1 s: starts k = 0..999 (the last at 999.25 ms) keep their times. The next would have been 1000.25 ms,
        // 0.25 ms after the switch: that residual shrinks to 0.25 ms / 4 = 62.5 µs, so the first new start is at
        // 1000.0625 ms, then every 250 µs.
        RateControl c = started(1, 1);
        Schedule s = new ChangeableSchedule(new FixedRateSchedule(250_000, MS), c);
        clock.set(300 * MS);
        c.request(4000, "api");
        for (long k = 0; k < 1000; k++) {
            assertEquals(250_000 + k * MS, s.nextIntendedStartNs());
        }
        long first = s.nextIntendedStartNs();
        assertEquals(S + 62_500, first);
        for (long k = 1; k < 1000; k++) {
            assertEquals(first + k * 250_000, s.nextIntendedStartNs());
        }
        assertEquals(250_000, s.meanIntervalNs(), 1e-9);
    }

    @Test
    void aWorkerPastTheSwitchWhenTheChangeCameSwitchesFromItsNextStart() {
        // The worker computes each start as the previous operation begins: it returned 1000.25 ms (past the 1 s
        // switch) before the change was published at 999.9 ms. That start stays; the one after it, due 1 ms later at
        // the old rate, comes 1 ms / 4 = 250 µs later.
        RateControl c = started(1, 1);
        Schedule s = new ChangeableSchedule(new FixedRateSchedule(250_000, MS), c);
        long last = 0;
        for (int k = 0; k <= 1000; k++) {
            last = s.nextIntendedStartNs();
        }
        assertEquals(S + 250_000, last);
        clock.set(S - 100_000);
        c.request(4000, "api");
        assertEquals(S + 500_000, s.nextIntendedStartNs());
        assertEquals(S + 750_000, s.nextIntendedStartNs());
    }

    @Test
    void twoChangesInARowCompose() {
        // 1000/s, then 2000/s from 1 s, then 500/s from 2 s: gaps 1 ms, 0.5 ms, 2 ms. Starts at k ms: 1 s is a start
        // (residual 0, so it stays), then 1.0005 s, ...; at 2 s another residual 0: 2 s, 2.002 s, ...
        RateControl c = started(1, 1);
        Schedule s = new ChangeableSchedule(new FixedRateSchedule(0, MS), c);
        clock.set(10 * MS);
        c.request(2000, "api");
        long t = 0;
        while (t < S) {
            t = s.nextIntendedStartNs();
        }
        assertEquals(S, t);
        assertEquals(S + 500_000, s.nextIntendedStartNs());
        clock.set(S + 10 * MS);
        c.request(500, "api");
        while (t < 2 * S) {
            t = s.nextIntendedStartNs();
        }
        assertEquals(2 * S, t);
        assertEquals(2 * S + 2 * MS, s.nextIntendedStartNs());
    }

    @Test
    void poissonGapsTakeTheNewMeanAfterTheSwitch() {
        // Exponential gaps, mean 1 ms, then 0.25 ms from 1 s. The mean of n gaps has a standard deviation of
        // mean / sqrt(n): for the ~36,000 gaps in [1 s, 10 s) that is 0.5 %; 3 % is six of them.
        RateControl c = started(1, 1);
        Schedule s = new ChangeableSchedule(new PoissonSchedule(0, MS, new SplittableRandom(7)), c);
        clock.set(10 * MS);
        c.request(4000, "api");
        long t = 0;
        long firstAfter = -1;
        long n = 0;
        long lastT = 0;
        while (t < 10 * S) {
            t = s.nextIntendedStartNs();
            if (t >= S) {
                if (firstAfter < 0) {
                    firstAfter = t;
                } else {
                    n++;
                    lastT = t;
                }
            }
        }
        assertEquals(250_000, (double) (lastT - firstAfter) / n, 250_000 * 0.03);
    }

    @Test
    void countUntilAcrossAPendingChangeCountsBothRates() {
        // A worker stalled on its start at 500 ms (1 ms gap) when the run stops at 2 s; 4000/s from 1 s on. Due and
        // never issued: 500 ms .. 999 ms at the old rate (500 operations), then (2 s - 1 s) / 250 µs = 4000.
        RateControl c = started(1, 1);
        Schedule s = new ChangeableSchedule(new FixedRateSchedule(0, MS), c);
        long pending = 0;
        for (int k = 0; k <= 500; k++) {
            pending = s.nextIntendedStartNs();
        }
        assertEquals(500 * MS, pending);
        clock.set(600 * MS);
        c.request(4000, "api");
        assertEquals(4500, s.countUntil(pending, 2 * S));
    }
}
