package io.loadgen.drivers.groundtruth;

import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.sweep.RatePlan;
import io.loadgen.core.sweep.Sla;
import io.loadgen.core.sweep.SlaVerdict;
import io.loadgen.core.sweep.SweepRun;
import io.loadgen.core.sweep.SweepStep;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A sweep against a store of known capacity finds its knee from the intended start; service time cannot. */
class SweepGroundTruthTest {

    @Test
    void sweepFindsTheKneeOfAFixedDelayStoreWithinOneStep() throws Exception {
        // mockdb with a fixed 5 ms delay on one thread serves at most 1 / 5 ms = 200 ops/s (a little less: the
        // sleep overshoots by tens of µs to a few hundred). Below capacity it keeps up: intended ~ service ~ 5 ms.
        // Above it, at offered rate r, op k is intended at k/r but done at ~(k+1)/200, so the backlog grows
        // ~(1 - 200/r) s per second and intended p99 over a 1 s step is ~0.99 * (r - 200)/r * 1 s:
        // 198 ms at 250, 330 ms at 300, 495 ms at 400, all >> 50 ms. Service p99 stays ~5 ms at every rate.
        // So p99 < 50 ms holds up to ~150-200 ops/s from the intended start (within one 50 ops/s step of the
        // true knee, 200), while service time would claim the highest rate tested, 400.
        List<Double> rates = RatePlan.of(List.of(50.0, 100.0, 150.0, 200.0, 250.0, 300.0, 350.0, 400.0));
        SweepRun sweep = new SweepRun(rates, DriverRegistry.find("mockdb"),
                (step, rate) -> RunOptions.builder("mockdb").property("mockdb.delay", "5ms").threads(1)
                        .target(rate).duration(Duration.ofSeconds(1)).seed(3).build(), null);
        List<SweepStep> steps = sweep.run();
        assertEquals(8, steps.size());

        SlaVerdict verdict = SlaVerdict.of(Sla.parse("p99<50ms"), steps);
        double knee = 200;
        double step = 50;
        double found = verdict.intendedUpTo().orElse(0);
        assertTrue(Math.abs(found - knee) <= step, "intended meets p99<50ms up to " + found + " ops/s, knee " + knee
                + "; " + verdict.lines());
        assertEquals(400.0, verdict.serviceUpTo().orElse(0), "service time claims every rate: " + verdict.lines());
        // Past the knee the store, not the schedule, sets throughput: at 400 ops/s it completes at most ~200 per s.
        SweepStep last = steps.get(7);
        assertTrue(last.achievedOpsPerSec() < 210, "achieved at 400 offered: " + last.achievedOpsPerSec());
    }
}
