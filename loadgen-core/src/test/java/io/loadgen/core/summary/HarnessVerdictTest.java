package io.loadgen.core.summary;

import io.loadgen.core.summary.HarnessVerdict.Measured;
import io.loadgen.core.summary.HarnessVerdict.Reason;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The verdict is a pure function of what the harness measured: every branch, with exact inputs. */
class HarnessVerdictTest {
    private static final long US = 1_000;
    private static final long MS = 1_000_000;

    /** A comfortable run: lag p99 12 us, hiccup max 0.3 ms, no GC, never behind. */
    private static Measured comfortable() {
        return new Measured(true, 12 * US, 300 * US, 0, 0, 0, 0.0, 0.0, 2 * MS);
    }

    @Test
    void aComfortableRunIsHealthyAndSaysWhatItMeasured() {
        HarnessVerdict v = HarnessVerdict.judge(comfortable());
        assertTrue(v.healthy());
        assertEquals("healthy", v.status());
        assertEquals(List.of(), v.reasons());
        assertEquals("harness healthy: lag p99 12 us, hiccup max 300 us, no GC pause", v.text());
    }

    @Test
    void lateWakeUpsAndLongPausesMakeItFallBehindNamingTheLongestAsWhatLatenciesMayHold() {
        // The issue's example: lag p99 38 ms, 3 GC pauses of at most 41 ms (96 ms in all).
        HarnessVerdict v = HarnessVerdict.judge(new Measured(true, 38 * MS, 300 * US, 3, 96 * MS, 41 * MS, 0.5, 0.001,
                200 * MS));
        assertFalse(v.healthy());
        assertEquals("behind", v.status());
        assertEquals(List.of(Reason.LAG, Reason.GC), v.reasons());
        assertEquals("the load generator itself fell behind (lag p99 38 ms; 3 GC pauses, max 41 ms, total 96 ms):"
                + " latencies up to about 41 ms may be the harness's, not the target's", v.text());
    }

    @Test
    void aHarnessThatCannotIssueThisFastFallsBehindWithATinyLag() {
        // noop at 20 M ops/s on 2 threads: always behind, the harness 62% of the workers' time, lag p99
        // 120 ns, and the run 1.41 s behind by its end (intended max).
        HarnessVerdict v = HarnessVerdict.judge(new Measured(true, 120, 400 * US, 0, 0, 0, 1.0, 0.62, 1_412 * MS));
        assertEquals(List.of(Reason.CAPACITY), v.reasons());
        assertEquals("the load generator itself fell behind (it cannot issue this fast: its own work between"
                + " operations took 62% of the workers' time, behind schedule): latencies up to about 1.41 s may be"
                + " the harness's, not the target's", v.text());
    }

    @Test
    void aSlowTargetKeepsTheWorkersBehindButTheHarnessHealthy() {
        // A 4 ms store at 1000 ops/s on one thread: behind all the time, the harness's 1 us per 4 ms op 0.025%.
        HarnessVerdict v = HarnessVerdict.judge(new Measured(true, 2 * US, 250 * US, 0, 0, 0, 1.0, 0.00025, 3_000 * MS));
        assertTrue(v.healthy());
        assertEquals("harness healthy: lag p99 2 us, hiccup max 250 us, no GC pause; the workers spent 100% of their"
                + " time behind schedule, waiting on the target (the harness's own share: 0.025%)", v.text());
    }

    @Test
    void eachLimitIsCrossedOnlyAboveIt() {
        Measured atLimits = new Measured(true, HarnessVerdict.LAG_P99_LIMIT_NS, HarnessVerdict.HICCUP_MAX_LIMIT_NS, 1,
                HarnessVerdict.GC_PAUSE_MAX_LIMIT_NS, HarnessVerdict.GC_PAUSE_MAX_LIMIT_NS, 0.3,
                HarnessVerdict.HARNESS_SHARE_LIMIT, MS);
        HarnessVerdict v = HarnessVerdict.judge(atLimits);
        assertTrue(v.healthy(), v.text());
        assertEquals("harness healthy: lag p99 1 ms, hiccup max 10 ms, 1 GC pause of 10 ms; the workers spent 30% of"
                + " their time behind schedule, waiting on the target (the harness's own share: 25%)", v.text());
        Measured justOver = new Measured(true, HarnessVerdict.LAG_P99_LIMIT_NS + 1,
                HarnessVerdict.HICCUP_MAX_LIMIT_NS + 1, 1, HarnessVerdict.GC_PAUSE_MAX_LIMIT_NS + 1,
                HarnessVerdict.GC_PAUSE_MAX_LIMIT_NS + 1, 0.3, HarnessVerdict.HARNESS_SHARE_LIMIT + 0.01, MS);
        assertEquals(List.of(Reason.CAPACITY, Reason.LAG, Reason.HICCUP, Reason.GC),
                HarnessVerdict.judge(justOver).reasons());
    }

    @Test
    void anUnthrottledRunIsJudgedOnItsPausesAloneAndAnUnmeasuredMeterIsSaid() {
        // Without a schedule nothing is behind and there is no lag, whatever the numbers say.
        HarnessVerdict v = HarnessVerdict.judge(new Measured(false, 50 * MS, -1, 2, 3 * MS, 2 * MS, 0.9, 0.8, 0));
        assertTrue(v.healthy());
        assertEquals("harness healthy: no schedule, so no lag, hiccups not measured, 2 GC pauses, max 2 ms,"
                + " total 3 ms", v.text());
        HarnessVerdict hiccup = HarnessVerdict.judge(new Measured(false, 0, 25 * MS, 0, 0, 0, 0, 0, 0));
        assertEquals("the load generator itself fell behind (hiccup max 25 ms): latencies up to about 25 ms may be"
                + " the harness's, not the target's", hiccup.text());
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
