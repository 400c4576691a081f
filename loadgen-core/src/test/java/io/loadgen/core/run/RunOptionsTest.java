package io.loadgen.core.run;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunOptionsTest {

    private static String rejected(RunOptions.Builder b) {
        return assertThrows(BadInputException.class, b::build).getMessage();
    }

    @Test
    void badValuesNameTheOptionToFix() {
        assertTrue(rejected(RunOptions.builder("noop").threads(0)).startsWith("--threads must be at least 1"));
        assertTrue(rejected(RunOptions.builder("noop").target(0.0)).startsWith("--target must be a positive rate"));
        assertTrue(rejected(RunOptions.builder("noop").target(-5.0)).startsWith("--target must be a positive rate"));
        assertTrue(rejected(RunOptions.builder("noop").duration(Duration.ZERO)).startsWith("--duration must be positive"));
        assertTrue(rejected(RunOptions.builder("noop").operations(0L)).startsWith("--operations must be at least 1"));
        assertTrue(rejected(RunOptions.builder("noop").interval(Duration.ZERO)).startsWith("--interval must be positive"));
        assertTrue(rejected(RunOptions.builder("noop").duration(Duration.ofSeconds(5)).warmup(Duration.ofSeconds(5)))
                .startsWith("--warmup (5s) must be shorter than --duration (5s)"));
    }

    @Test
    void valuesThatCannotBeMeantAreRefusedNamingTheLimit() {
        assertTrue(rejected(RunOptions.builder("noop").target(1e12)).contains("above the limit of 1e9 ops/s"));
        assertTrue(rejected(RunOptions.builder("noop").duration(Duration.ofHours(2_562_047)))
                .contains("above the limit of 366 days"));
        assertTrue(rejected(RunOptions.builder("noop").operations((1L << 53) + 1)).contains("above the limit of 9007199254740992"));
        assertTrue(rejected(RunOptions.builder("noop").interval(Duration.ofNanos(1))).contains("below the minimum of 10ms"));
        assertTrue(rejected(RunOptions.builder("noop").maxInFlight(Integer.MAX_VALUE)).contains("above the limit of 1048576"));
        // The limits themselves are accepted.
        RunOptions.builder("noop").target(1e9).duration(Duration.ofDays(366)).operations(1L << 53)
                .interval(Duration.ofMillis(10)).maxInFlight(1 << 20).build();
    }

    @Test
    void defaultsToTenSecondsUnlessAnOperationCountBoundsTheRun() {
        assertEquals(Duration.ofSeconds(10), RunOptions.builder("noop").build().duration());
        assertEquals(Duration.ZERO, RunOptions.builder("noop").operations(5L).build().duration());
    }

    @Test
    void splitsTheRateAndTheOperationCountEvenlyOverWorkers() {
        RunOptions o = RunOptions.builder("noop").target(1000.0).threads(4).operations(10L).build();
        assertEquals(4e6, o.workerIntervalNs(), 1e-6, "4 workers at 250 ops/s each: 4 ms apart");
        assertEquals(3, o.operationsFor(0));
        assertEquals(3, o.operationsFor(1));
        assertEquals(2, o.operationsFor(2));
        assertEquals(2, o.operationsFor(3));
    }
}
