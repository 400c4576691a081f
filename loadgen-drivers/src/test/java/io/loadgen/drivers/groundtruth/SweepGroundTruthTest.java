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
import static org.junit.jupiter.api.Assertions.assertFalse;
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

        // Keeping up (KeepUpRule): a 1 s step on one thread may fall short by 2 / rate + 20 ms / 1 s, i.e.
        // 6% at 50, 4% at 100, 3.3% at 150, 2.8% at 250. Up to 150 ops/s the store has 25% spare capacity and keeps
        // up; from 250 on it can complete at most 200 of the 243+ needed and leaves the rest unissued. (200 sits
        // on the capacity itself, so either verdict is true to the store.)
        for (SweepStep s : steps) {
            if (s.offeredOpsPerSec() <= 150) {
                assertTrue(s.keptUp(), s.offeredOpsPerSec() + " ops/s: " + s.shortfall());
            } else if (s.offeredOpsPerSec() >= 250) {
                assertFalse(s.keptUp(), s.offeredOpsPerSec() + " ops/s kept up at " + s.achievedOpsPerSec());
                assertTrue(s.unissued() > 0, s.offeredOpsPerSec() + " ops/s left nothing unissued");
            }
        }
        // The SLA is met only where the step kept up, whatever the percentiles said.
        double upTo = verdict.intendedUpTo().orElse(0);
        assertTrue(steps.stream().filter(s -> s.offeredOpsPerSec() == upTo).allMatch(SweepStep::keptUp),
                verdict.lines().toString());
    }
}
