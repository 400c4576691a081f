package io.loadgen.core.findmax;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadgen.core.driver.Status;
import io.loadgen.core.gate.RuleParser;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.run.IntervalHistograms;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.summary.JsonSummary;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sharded step judged whole from the reports two shards wrote into a real sync directory: their intervals add up,
 * and so does each shard's watch on itself (scheduler lag, machine hiccups), so the merged step's summary shows a
 * stall on any shard: a step that failed below capacity is told from a machine that stalled.
 */
class ShardedStepTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /** Shard {@code shard}'s report: four 0.5 s intervals of {@code perInterval} READs at {@code latencyNs}. */
    private static ShardSync.Report report(int shard, long perInterval, long latencyNs, ShardSync.Watch watch) {
        StepRecorder recorder = new StepRecorder(new StabilityDetector(1000, 5, 30), reason -> { });
        for (int i = 0; i < 4; i++) {
            Histogram h = Histograms.newHistogram();
            h.recordValueWithCount(latencyNs, perInterval);
            Histogram status = StatusTags.newHistogram();
            status.recordValueWithCount(Status.OK.ordinal(), perInterval);
            Map<String, Histogram> byTag = new LinkedHashMap<>();
            byTag.put("READ.intended", h);
            byTag.put("READ.service", h);
            byTag.put("READ.status", status);
            recorder.onInterval(new IntervalHistograms(0, i * 500L, (i + 1) * 500L, true, byTag));
        }
        Map<String, List<Histogram>> byTag = new LinkedHashMap<>();
        for (String tag : recorder.tags()) {
            if (!tag.equals(StepRecorder.ALL)) {
                byTag.put(tag, recorder.intervals(tag));
            }
        }
        return new ShardSync.Report(shard, 500, 2, 4 * perInterval, 0, 0, 2_000 * MS, null, null, recorder.lengths(),
                byTag, watch);
    }

    private static Histogram of(long... valuesNs) {
        Histogram h = Histograms.newHistogram();
        for (long v : valuesNs) {
            h.recordValue(v);
        }
        return h;
    }

    @Test
    void theMergedStepCarriesEveryShardsLagAndHiccups() throws Exception {
        // Shard 0 ran on a calm machine (lag and hiccups at most 0.2 ms); shard 1's machine stalled 30 ms once, and
        // its scheduler fell 40 ms behind during it. The merged step's lag max is 40 ms and its hiccup max 30 ms:
        // the stall shows, whichever shard it hit. Counts: 250 + 250 READs per 0.5 s interval, 500 per shard-step.
        ShardSync sync0 = new ShardSync(dir, 0, 2, 5_000);
        ShardSync sync1 = new ShardSync(dir, 1, 2, 5_000);
        sync0.publish(3, report(0, 250, MS, new ShardSync.Watch(of(100_000, 200_000), of(50_000, 200_000))));
        sync1.publish(3, report(1, 250, 2 * MS, new ShardSync.Watch(of(100_000, 40 * MS), of(30 * MS))));
        List<ShardSync.Report> reports = sync0.awaitAll(3);
        assertNotNull(reports);
        assertEquals(2, reports.size());

        FindMaxStep step = ShardedStep.judge(3, 1000, Arrival.UNIFORM, reports,
                List.of(RuleParser.parseObjective("p99 < 5ms")), 42, "mockdb");
        assertEquals(2_000, step.result().totalOperations());
        Histogram lag = step.result().lag();
        assertEquals(4, lag.getTotalCount());
        assertEquals(40.0, lag.getMaxValue() / (double) MS, 0.05);
        Histogram hiccups = step.result().health().hiccups();
        assertEquals(3, hiccups.getTotalCount());
        assertEquals(30.0, hiccups.getMaxValue() / (double) MS, 0.05);
        // What the findmax JSON's step summary shows: both, in microseconds.
        JsonNode harness = JsonSummary.toJson(step.result()).get("harness");
        assertEquals(40_000, harness.get("lag").get("max_us").asDouble(), 40);
        assertEquals(30_000, harness.get("hiccup").get("max_us").asDouble(), 30);
        assertTrue(step.passed(), "p99 over both shards is 2 ms, under 5 ms");
    }

    @Test
    void aShardThatMeasuredNoWatchLeavesTheFiguresItHasNot() throws Exception {
        // An unthrottled shard has no lag; one whose meter did not run has no hiccups. Nothing is made up: the step's
        // lag is empty and its hiccups come from the shard that measured them.
        ShardSync sync = new ShardSync(dir, 0, 2, 5_000);
        sync.publish(1, report(0, 100, MS, ShardSync.Watch.NONE));
        new ShardSync(dir, 1, 2, 5_000).publish(1, report(1, 100, MS, new ShardSync.Watch(null, of(7 * MS))));
        FindMaxStep step = ShardedStep.judge(1, 1000, Arrival.UNIFORM, sync.awaitAll(1), List.of(), 1, "mockdb");
        assertEquals(0, step.result().lag().getTotalCount());
        assertEquals(7.0, step.result().health().hiccups().getMaxValue() / (double) MS, 0.01);
    }

    @Test
    void aDamagedWatchIsNamedWithItsFile() throws Exception {
        ShardSync sync = new ShardSync(dir, 0, 1, 1_000);
        sync.publish(2, report(0, 10, MS, new ShardSync.Watch(of(MS), of(MS))));
        Path file = sync.file(2, 0);
        Files.writeString(file, Files.readString(file).replaceFirst("\"hiccups\":\"[^\"]*\"", "\"hiccups\":\"!!\""));
        java.io.IOException e = assertThrows(java.io.IOException.class, () -> sync.awaitAll(2));
        assertTrue(e.getMessage().startsWith(file + ": a damaged histogram"), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
}
