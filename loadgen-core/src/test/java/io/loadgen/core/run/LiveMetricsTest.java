package io.loadgen.core.run;

import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.driver.Status;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run publishes each closed interval to its {@link LiveMetrics}: the log's percentiles, counts, rates and causes. */
class LiveMetricsTest {
    private static RunOptions.Builder throttled() {
        return RunOptions.builder("function").target(2000.0).threads(2).interval(Duration.ofMillis(100)).seed(3);
    }

    @Test
    void eachReadingHoldsItsIntervalsOwnPercentilesAndTheCountsSoFar() throws Exception {
        LiveMetrics live = new LiveMetrics();
        List<String> mismatches = new ArrayList<>();
        long[] seen = new long[1];
        int[] intervals = new int[1];
        RunOptions options = throttled().operations(1500L).build();
        // The live sink runs before the interval listener, on the same thread: the listener sees this interval's reading.
        RunResult result = new LoadRun(options, FunctionDriver.ok(), null).publishTo(live).onInterval(interval -> {
            LiveMetrics.OpReading read = live.latest().ops().get(0);
            Histogram intended = interval.byTag().get("READ.intended");
            Histogram service = interval.byTag().get("READ.service");
            seen[0] += intended.getTotalCount();
            intervals[0]++;
            if (intended.getTotalCount() == 0) {
                if (read.intendedNs() != null) {
                    mismatches.add("an empty interval has percentiles");
                }
            } else if (!java.util.Arrays.equals(expected(intended), read.intendedNs())
                    || !java.util.Arrays.equals(expected(service), read.serviceNs())) {
                mismatches.add(java.util.Arrays.toString(read.intendedNs()) + " vs " + java.util.Arrays.toString(
                        expected(intended)));
            }
            if (read.total(Status.OK) != seen[0]) {
                mismatches.add("OK total " + read.total(Status.OK) + " after " + seen[0] + " operations");
            }
        }).run();

        assertTrue(intervals[0] >= 5, "intervals: " + intervals[0]);
        assertEquals(List.of(), mismatches);
        LiveMetrics.Reading last = live.latest();
        assertEquals(result.operations().get(0).count(), last.ops().get(0).total(Status.OK), "no warm-up: the summary's count");
        assertEquals(new LiveMetrics.RunLabels("function", 0, result.info().runId()), last.run());
        assertEquals(2000.0, last.offeredOpsPerSec());
        assertTrue(last.lagMaxNs() >= last.lagP99Ns() && last.lagP99Ns() >= 0, "a throttled run has a lag");
    }

    /** The interval log's numbers: getValueAtPercentile at 50, 90, 99, 99.9, and getMaxValue. */
    private static long[] expected(Histogram h) {
        return new long[]{h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
                h.getValueAtPercentile(99.9), h.getMaxValue()};
    }

    @Test
    void aTargetFailingInAnIntervalIsNamedInItsCausesAndCountedByStatus() throws Exception {
        LiveMetrics live = new LiveMetrics();
        // Every other operation fails: a failed share of 50 %, above the default --max-error-rate of 10 %.
        FunctionDriver halfFail = new FunctionDriver(op -> (op.keyNumber() & 1) == 0 ? Status.OK : Status.ERROR);
        new LoadRun(throttled().operations(600L).build(), halfFail, null).publishTo(live).run();
        LiveMetrics.Reading last = live.latest();
        assertEquals(600, last.ops().get(0).total(Status.OK) + last.ops().get(0).total(Status.ERROR));
        assertTrue(last.ops().get(0).total(Status.ERROR) > 200, "about half failed");
        assertTrue(last.causes().contains(CauseCode.TARGET_FAILING), last.causes().toString());
    }

    @Test
    void anUnthrottledRunOffersNoRateAndHasNoLag() throws Exception {
        LiveMetrics live = new LiveMetrics();
        assertNull(live.latest(), "nothing before the first interval");
        new LoadRun(RunOptions.builder("function").threads(1).operations(5000L).interval(Duration.ofMillis(100))
                .build(), FunctionDriver.ok(), null).publishTo(live).run();
        LiveMetrics.Reading last = live.latest();
        assertTrue(Double.isNaN(last.offeredOpsPerSec()));
        assertEquals(-1, last.lagP99Ns());
    }
}
