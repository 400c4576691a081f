package io.loadgen.drivers.stwmockdb;

import io.loadgen.core.log.LogEvent;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A real run: every stop-the-world the store made reaches the interval log as an event line, in place and length. */
class StwMockDbEventsTest {
    @TempDir
    Path dir;

    @Test
    void everyStopTheWorldIsAnEventInTheLog() throws Exception {
        Path hlog = dir.resolve("stw.hlog");
        RunOptions options = RunOptions.builder("stw-mockdb")
                .property("stw-mockdb.stw.probability", "0.02")
                .property("stw-mockdb.stw.min", "10ms").property("stw-mockdb.stw.max", "20ms")
                .property("stw-mockdb.hiccup.probability", "0").property("stw-mockdb.fast.probability", "0.89")
                .target(400.0).threads(2).duration(Duration.ofMillis(1500)).hlog(hlog).seed(7).build();
        RunResult result = new LoadRun(options, new StwMockDbDriverProvider(), null).run();
        long pauses = result.driverStats().get("stop_the_world_pauses").longValue();
        double totalMs = result.driverStats().get("stop_the_world_total_ms").doubleValue();
        assertTrue(pauses > 0, "2% of 600 operations pause");

        try (LogSet set = LogSet.open(List.of(hlog), w -> { })) {
            while (set.next() != null) {
                // read every line, so every event is seen
            }
            List<LogEvent> stw = set.events().stream().filter(e -> e.kind().equals("stop-the-world")).toList();
            assertEquals(pauses, stw.size());
            assertEquals(totalMs, stw.stream().mapToDouble(LogEvent::lengthSec).sum() * 1000.0, 0.001 * pauses);
            for (LogEvent e : stw) {
                assertEquals("stw-mockdb", e.source());
                double offset = e.absoluteStartSec() - set.startTimeSec();
                assertTrue(offset > -0.1 && offset < 1.6, "pause at " + offset + " s is within the run");
            }
        }
    }
}
