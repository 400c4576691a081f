package io.loadgen.core.run;

import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import io.loadgen.core.summary.CorrectedBasis;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which expected interval a run's corrected view uses, by driver shape (the rule: {@link CorrectedBasis}),
 * and when it has none. Drivers answer at once, so no figure here depends on timing.
 */
class CorrectedViewRunTest {
    private static final long MS = 1_000_000L;

    @Test
    void blockingWorkersCorrectAtThreadsOverTarget() throws Exception {
        RunResult r = run(blocking(), RunOptions.builder("instant").target(1000.0).threads(2));
        assertEquals(new CorrectedBasis(2 * MS, 2, 1, 1000.0, null), r.corrected());
    }

    @Test
    void asyncIssuersCorrectAtThreadsTimesTheInFlightBoundTheRunApplies() throws Exception {
        // The driver allows 8 in flight over 2 issuers: M = min(--max-in-flight 1024, 8 / 2) = 4.
        RunResult r = run(async(8), RunOptions.builder("instant").target(1000.0).threads(2).maxInFlight(1024));
        assertEquals(new CorrectedBasis(8 * MS, 2, 4, 1000.0, null), r.corrected()); // 2 x 4 / 1000 ops/s
        // --max-in-flight below the driver's share wins: M = 2.
        r = run(async(8), RunOptions.builder("instant").target(1000.0).threads(2).maxInFlight(2));
        assertEquals(4 * MS, r.corrected().expectedIntervalNs());
    }

    @Test
    void anIntervalAsLongAsTheRunIsNotApplicableAndSaysWhy() throws Exception {
        // 1 issuer x 1024 in flight / 1000 ops/s = 1.024 s, longer than the 0.3 s run: nothing to correct.
        RunResult r = run(async(Integer.MAX_VALUE), RunOptions.builder("instant").target(1000.0).threads(1)
                .maxInFlight(1024));
        assertFalse(r.corrected().applicable());
        assertEquals(1024, r.corrected().inFlightPerThread());
        assertTrue(r.corrected().notApplicable().startsWith("the expected interval 1024.000 ms = 1 thread x 1024"
                + " in flight / 1000 ops/s is not shorter than the measured run ("), r.corrected().notApplicable());
        OpResult read = r.operations().get(0);
        assertEquals(read.histogram(View.SERVICE), read.histogram(View.CORRECTED));
    }

    @Test
    void byDefaultAnAsyncIssuerHasOneInFlightAndCorrectsAsABlockingWorker() throws Exception {
        // The default --max-in-flight is 1: M = 1, so the interval is threads / target = 2 / 1000 ops/s.
        RunResult r = run(async(8), RunOptions.builder("instant").target(1000.0).threads(2));
        assertEquals(new CorrectedBasis(2 * MS, 2, 1, 1000.0, null), r.corrected());
    }

    @Test
    void anUnthrottledRunHasNoCorrectedView() throws Exception {
        RunResult r = run(async(16), RunOptions.builder("instant").threads(1).operations(100L));
        assertEquals(CorrectedBasis.notApplicable(CorrectedBasis.NO_SCHEDULE), r.corrected());
    }

    private static RunResult run(DriverProvider provider, RunOptions.Builder options) throws Exception {
        return new LoadRun(options.duration(Duration.ofMillis(300)).build(), provider, null).run();
    }

    private static DriverProvider blocking() {
        return provider(() -> op -> Status.OK);
    }

    private static DriverProvider async(int maxInFlight) {
        return provider(() -> new AsyncDriver() {
            public void submit(Operation op, Completion completion) {
                completion.complete(Status.OK);
            }

            public int maxInFlight() {
                return maxInFlight;
            }
        });
    }

    private interface Opener {
        Driver open();
    }

    private static DriverProvider provider(Opener opener) {
        return new DriverProvider() {
            public String name() {
                return "instant";
            }

            public String description() {
                return "answers every operation at once";
            }

            public List<PropertySpec> properties() {
                return List.of();
            }

            public List<String> operations() {
                return List.of("READ");
            }

            public Driver open(DriverProperties p, DriverContext c) {
                return opener.open();
            }
        };
    }
}
