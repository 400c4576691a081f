package io.loadgen.drivers.groundtruth;

import io.loadgen.core.calibrate.GroundTruth;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Scenarios whose latency distribution is known analytically, run end to end through the real
 * scheduler, workers, recorders and the real {@code mockdb} driver. Each test derives its expected
 * values in a comment; bounds are generous where the machine's timer (parking overshoots by tens of
 * microseconds) enters, and tight where only arithmetic does.
 */
class GroundTruthTest {

    private static RunResult run(RunOptions options) throws Exception {
        return new LoadRun(options, DriverRegistry.find(options.driver()), null).run();
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1e6;
    }

    @Test
    void backloggedStoreReportsQueueingDelayThatServiceTimeHides() throws Exception {
        // The article's case: a store that takes 4 ms per operation, asked for 1000 ops/s by one thread.
        // It serves at most 1/s ops/s (s = its real service time, ~4 ms plus the timer's overshoot), so the
        // worker is behind from the second operation on and issues back to back: op k starts when op k-1
        // ends, at ~k*s, and completes at ~(k+1)*s, but was intended at k*1 ms. Its intended latency is
        //     L(k) = s + k*(s - 1 ms),  k = 0 .. n-1,
        // uniform in k, so the q-th percentile of intended is s + q*(n-1)*(s - 1 ms) (GroundTruth.backlogPercentile), while service
        // stays ~s. We take s and n from the run itself: s = run time / n (the store is never idle).
        RunOptions options = RunOptions.builder("mockdb").property("mockdb.delay", "4ms")
                .target(1000.0).threads(1).duration(Duration.ofSeconds(2)).seed(1).build();
        RunResult r = run(options);
        OpResult read = r.operations().get(0);
        long n = read.count();
        double sMs = r.runTimeNs() / 1e6 / n;
        // n ~ 2 s / 4.1 ms ~ 490: the store, not the schedule, sets the count.
        assertTrue(n > 400 && n <= 500, "a 4 ms store completes at most 500 ops in 2 s, got " + n);
        Histogram intended = read.histogram(View.INTENDED);
        Histogram service = read.histogram(View.SERVICE);
        // The middle percentiles assume every op took the mean s; a busy machine makes some stretches of the
        // run slower than others, which bends the line most in the middle. The top is pinned by arithmetic on
        // timestamps (the last op ends at the run's end), so it gets the tighter bound.
        for (double q : new double[]{50, 90}) {
            double expected = GroundTruth.backlogPercentile(q / 100, n, sMs, 1.0);
            assertEquals(expected, ms(intended, q), expected * 0.12, "intended p" + q + " (ms)");
        }
        double expectedP99 = GroundTruth.backlogPercentile(0.99, n, sMs, 1.0);
        assertEquals(expectedP99, ms(intended, 99), expectedP99 * 0.05, "intended p99 (ms)");
        double expectedMax = GroundTruth.backlogPercentile(1.0, n, sMs, 1.0);
        assertEquals(expectedMax, intended.getMaxValue() / 1e6, expectedMax * 0.05, "intended max (ms)");
        // Service time sees none of it: p50 is the 4 ms delay plus the timer's overshoot, and p99 stays within
        // a scheduling hiccup of it while intended p99 is ~1.5 s. The hiccup's bound: a parked thread that wakes
        // waits behind the threads already runnable on its core, each for at most one EEVDF slice (this kernel,
        // 6.x: 0.75 ms x (1 + log2 2 cores) = 1.5 ms); 10 runnable threads per core (a 2-core VM shared by
        // several test runs) is 15 ms, and 4 ms + 15 ms < 20 ms. The p50 bound: one slice, 4 + 1.5 < 5 ms.
        assertTrue(ms(service, 50) >= 4.0 && ms(service, 50) < 5.0, "service p50 " + ms(service, 50));
        assertTrue(ms(service, 99) < 20.0, "service p99 " + ms(service, 99));
        assertTrue(ms(intended, 99) > 50 * ms(service, 99), "intended p99 dwarfs service p99");
        // Everything the store could not reach before the end is counted, not dropped. The schedule intends
        // op k at t0 + k ms, so k = 0 .. 1999 fall inside the 2 s run: 2000 intended. The one blocking worker
        // issued ops 0 .. n-1, each recorded when it returned (none is in flight at the end: the driver call
        // is synchronous); when op n-1 returns, past the end, the loop counts the ops still due before the end
        // (countDue from op n's intended start to t0 + 2 s) and stops. So, exactly: 2000 - n unissued.
        assertEquals(2000 - n, r.unissuedOps(), "unissued = intended in the run - issued");
    }

    @Test
    void periodicStopTheWorldShowsInIntendedPercentilesOnly() throws Exception {
        // A store that stops for P = 50 ms every S = 500 ms and otherwise answers at once, at 2000 ops/s.
        // A fraction f of the run is paused (P/S = 10% over whole periods; here f = pauses * P / run time,
        // from the run itself, since the run holds 9 pauses in 4.75 s). An operation intended at phase x
        // into a pause completes at the pause's end: latency P - x, uniform on (0, P]. The rest take ~0.
        // So P(intended > t) = f * (1 - t/P), and the q-th percentile is t = P * (1 - (1 - q)/f) (GroundTruth.pausePercentile):
        //     f = 0.1:  p99 = 45 ms, p95 = 25 ms (the issue's figures); f = 0.095: p99 = 44.7, p95 = 23.7.
        // Service time: only the one operation per pause that ran into it waits; the backlog behind it
        // is served back to back at ~0. That is ~1 op in 1000, so service p99 stays near 0.
        // 4.75 s from open holds 9 whole pauses (at 0.5, 1.0, ... 4.5 s) and ends between two.
        RunOptions options = RunOptions.builder("mockdb")
                .property("mockdb.pause.every", "500ms").property("mockdb.pause.length", "50ms")
                .target(2000.0).threads(1).duration(Duration.ofMillis(4750)).seed(2).build();
        RunResult r = run(options);
        Histogram intended = r.operations().get(0).histogram(View.INTENDED);
        Histogram service = r.operations().get(0).histogram(View.SERVICE);
        long pauses = r.driverStats().get("pauses").longValue();
        assertEquals(9, pauses, "pause windows begun during the run");
        double f = pauses * 50e6 / r.runTimeNs();
        // The bounds: HdrHistogram's 3 digits hold 45 ms to 0.05 ms; each pause's end is the store's timer, late
        // by up to one scheduling slice (1.5 ms, see backloggedStore...); and the ~100 ops that piled up in a
        // pause drain back to back at a few µs each (< 1 ms). 3 ms covers the sum with room for a busy machine.
        assertEquals(GroundTruth.pausePercentile(0.99, 50, f), ms(intended, 99), 3.0, "intended p99 (ms)");
        assertEquals(GroundTruth.pausePercentile(0.95, 50, f), ms(intended, 95), 3.0, "intended p95 (ms)");
        // Operations that waited more than 10 ms can only have been paused: f * (1 - 10/50) = 0.8 f of them,
        // about 0.076. A pause's end late by a 1.5 ms slice moves 1.5/50 of its ops across 10 ms: 0.003;
        // 0.02 is six times that.
        double waited = (double) (intended.getTotalCount() - intended.getCountBetweenValues(0, 10_000_000))
                / intended.getTotalCount();
        assertEquals(0.8 * f, waited, 0.02, "share of operations delayed more than 10 ms");
        assertTrue(ms(service, 99) < 1.0, "service p99 hides the pauses: " + ms(service, 99));
        assertTrue(service.getMaxValue() / 1e6 > 10, "yet the one op per pause that hit it shows in service max");
    }

    @Test
    void poissonArrivalsIssueTheTargetRateOnAverage() throws Exception {
        // 2000 ops/s for 2 s with exponential gaps: a Poisson count with mean 4000 and sd sqrt(4000) = 63;
        // 5% (200) is three standard deviations.
        RunOptions options = RunOptions.builder("noop").target(2000.0).threads(2).arrival(Arrival.POISSON)
                .duration(Duration.ofSeconds(2)).seed(3).build();
        RunResult r = run(options);
        assertEquals(4000, r.operations().get(0).count(), 200);
    }
}
