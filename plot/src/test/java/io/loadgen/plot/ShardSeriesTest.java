package io.loadgen.plot;

import io.loadgen.core.record.IntervalLog;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The logs of a sharded run drawn as one run: intervals of different shards over the same stretch of
 * absolute time are added into one point, whatever each log's own StartTime, and a shard missing is said.
 */
class ShardSeriesTest {
    private static final long T = 1_795_000_000_000L;
    private static final String TAG = "READ.intended";

    @TempDir
    Path dir;

    /**
     * A shard's log from {@code startMs}, one interval of 1 s per entry of {@code counts}, each recording
     * that many values of {@code valueUs} microseconds; each interval ends {@code skewMs} late, as a real
     * aggregator's sampling does.
     */
    private Path shard(String name, String shardLine, long startMs, long skewMs, long valueUs, long... counts)
            throws IOException {
        Path file = dir.resolve(name);
        try (IntervalLog log = IntervalLog.open(file)) {
            log.writeHeader(startMs, shardLine == null ? List.of() : List.of("shard: " + shardLine));
            long at = startMs;
            for (long count : counts) {
                Histogram h = new Histogram(3_600_000_000_000L, 3);
                h.recordValueWithCount(valueUs * 1000, count);
                h.setTag(TAG);
                h.setStartTimeStamp(at);
                at += 1000 + skewMs;
                h.setEndTimeStamp(at);
                log.write(h);
            }
        }
        return file;
    }

    @Test
    void intervalsOfShardsAreSummedByAbsoluteTimeWhateverEachLogsStartTime() throws Exception {
        // Shard 0 starts at T; shard 1 starts 1.003 s later, so its first interval is shard 0's second.
        Path s0 = shard("s0.hlog", "index=0 count=2 start_at=-", T, 0, 100, 10, 20);
        Path s1 = shard("s1.hlog", "index=1 count=2 start_at=-", T + 1003, 2, 300, 5, 7);
        List<String> warnings = new ArrayList<>();
        LogSeries merged = LogSeries.read(List.of(s1, s0), LogSeries.Selection.all(), warnings::add);
        List<IntervalPoint> points = merged.series(TAG).intervals();
        assertEquals(List.of(10L, 25L, 7L), points.stream().map(p -> p.histogram().getTotalCount()).toList());
        double[] starts = {0.0, 1.0, 2.005};
        for (int i = 0; i < starts.length; i++) {
            assertEquals(starts[i], points.get(i).startSec(), 1e-6, "point " + i + "'s start");
        }
        assertEquals(2.005, points.get(1).endSec(), 1e-6, "the summed point spans both shards' intervals");
        Histogram second = points.get(1).histogram();
        assertEquals(20, second.getCountAtValue(100_000));
        assertEquals(5, second.getCountAtValue(300_000));
        assertEquals(42, merged.series(TAG).total().getTotalCount(), "every value of both shards, once");
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void oneLogsIntervalsAreNeverSummed() throws Exception {
        Path one = shard("one.hlog", null, T, 0, 100, 1, 2, 3);
        LogSeries read = LogSeries.read(List.of(one), LogSeries.Selection.all(), w -> { });
        assertEquals(List.of(1L, 2L, 3L), read.series(TAG).intervals().stream()
                .map(p -> p.histogram().getTotalCount()).toList());
    }

    @Test
    void aShardedRunsLogsAreOneRunAndOtherLogsEachTheirOwn() throws Exception {
        Path s0 = shard("s0.hlog", "index=0 count=2 start_at=" + T, T, 0, 100, 1);
        Path other = shard("other.hlog", null, T, 0, 100, 1);
        Path s1 = shard("s1.hlog", "index=1 count=2 start_at=" + T, T, 0, 100, 1);
        assertEquals(List.of(List.of(s0, s1), List.of(other)), LogSeries.runs(List.of(s0, other, s1)));
    }

    @Test
    void aMissingShardIsSaid() throws Exception {
        Path s0 = shard("s0.hlog", "index=0 count=3 start_at=-", T, 0, 100, 1);
        List<String> warnings = new ArrayList<>();
        LogSeries.read(List.of(s0), LogSeries.Selection.all(), warnings::add);
        assertEquals(List.of(s0 + ": shards 1-2 of 3 missing; the charts show the shards given, not the whole run"),
                warnings);
    }
}
