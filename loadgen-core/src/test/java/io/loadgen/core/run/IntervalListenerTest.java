package io.loadgen.core.run;

import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sampler hands every closed interval to the run's listener, on its own thread. */
class IntervalListenerTest {

    private static RunOptions.Builder throttled() {
        return RunOptions.builder("function").target(2000.0).threads(2).interval(Duration.ofMillis(100)).seed(3);
    }

    @Test
    void theListenerSeesEveryIntervalByTagAndWhichOnesAreMeasured() throws Exception {
        List<Boolean> measured = new ArrayList<>();
        List<List<String>> tags = new ArrayList<>();
        List<String> threads = new ArrayList<>();
        long[] measuredReads = new long[1];
        long[] allReads = new long[1];
        RunOptions options = throttled().duration(Duration.ofMillis(800)).warmup(Duration.ofMillis(300)).build();
        LoadRun run = new LoadRun(options, FunctionDriver.ok(), null).onInterval(interval -> {
            measured.add(interval.measured());
            tags.add(List.copyOf(interval.byTag().keySet()));
            threads.add(Thread.currentThread().getName());
            long reads = interval.byTag().get("READ.intended").getTotalCount();
            assertEquals(reads, interval.byTag().get("READ.service").getTotalCount(), "views count the same operations");
            allReads[0] += reads;
            if (interval.measured()) {
                measuredReads[0] += reads;
            }
            assertTrue(interval.endMs() >= interval.startMs() && interval.startMs() >= interval.runStartMs());
        });
        RunResult result = run.run();

        assertTrue(measured.size() >= 5, "intervals: " + measured.size());
        assertFalse(measured.get(0), "the first interval is in the warm-up");
        assertTrue(measured.get(measured.size() - 1), "the last one is measured");
        assertEquals(List.of("READ.intended", "READ.service", "READ.failed.intended", "READ.failed.service",
                "harness.lag", "harness.hiccup", "READ.status"), tags.get(0));
        assertTrue(threads.stream().allMatch("loadgen-sampler"::equals), threads.toString());
        // What the listener saw after the warm-up is exactly what the summary counts.
        assertEquals(result.operations().get(0).count(), measuredReads[0]);
        assertTrue(allReads[0] > measuredReads[0], "warm-up operations were handed over too");
    }

    @Test
    void aListenerCanStopTheRun() throws Exception {
        RunOptions options = throttled().duration(Duration.ofMinutes(5)).build();
        LoadRun run = new LoadRun(options, FunctionDriver.ok(), null);
        int[] seen = new int[1];
        run.onInterval(interval -> {
            if (++seen[0] == 3) {
                run.stop("listener says stop");
            }
        });
        RunResult result = run.run();
        assertEquals("listener says stop", result.stopReason());
        assertTrue(result.operations().get(0).count() > 0);
    }

    @Test
    void aListenerThatThrowsIsDroppedAndTheRunCarriesOn() throws Exception {
        int[] calls = new int[1];
        RunOptions options = throttled().operations(600L).build();
        RunResult result = new LoadRun(options, FunctionDriver.ok(), null).onInterval(interval -> {
            calls[0]++;
            Map<String, Histogram> byTag = interval.byTag();
            byTag.clear(); // unmodifiable: throws
        }).run();
        assertEquals(600, result.operations().get(0).count());
        assertEquals(1, calls[0], "not called again after throwing");
    }
}
