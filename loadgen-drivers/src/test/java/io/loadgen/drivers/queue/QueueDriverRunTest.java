package io.loadgen.drivers.queue;

import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/** The driver under the real harness: scheduler, workers, recorders, found by name through ServiceLoader. */
class QueueDriverRunTest {

    @Test
    @Timeout(value = 30, threadMode = SEPARATE_THREAD)
    void scheduledRunCompletesEveryRoundTripWithoutErrors() throws Exception {
        // 2000 ops/s over 2 threads for 1 s: 1000 intended per worker. A parked round trip of 4 messages
        // takes well under a millisecond, far inside each worker's 1 ms gap, so nearly all 2000 are
        // issued; the few the run ended before reaching count as unissued.
        RunOptions options = RunOptions.builder("queue")
                .property("queue.wait", "park").property("queue.burst", "4")
                .target(2000.0).threads(2).duration(Duration.ofSeconds(1)).seed(3).build();
        RunResult r = new LoadRun(options, DriverRegistry.find("queue"), null).run();

        OpResult roundTrip = r.operations().get(0);
        assertEquals("ROUNDTRIP", roundTrip.name());
        long count = roundTrip.count();
        assertEquals(2000, count + r.unissuedOps(), 20, "issued + unissued");
        assertTrue(count >= 1900, "only " + count + " of ~2000 round trips completed");
        assertEquals(0, roundTrip.errors());
        assertEquals(count, roundTrip.histogram(View.SERVICE).getTotalCount());
        assertTrue(roundTrip.histogram(View.SERVICE).getMaxValue() > 0);
        assertEquals(4 * count, r.driverStats().get("messages").longValue());
    }
}
