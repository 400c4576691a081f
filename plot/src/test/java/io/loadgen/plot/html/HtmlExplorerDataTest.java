package io.loadgen.plot.html;

import io.loadgen.core.log.LogInterval;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.record.Histograms;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data a page embeds: each interval's buckets and counts are the interval histogram's own
 * ({@code recordedValues()}), and a window merged from them reads, statistic for statistic, what
 * {@code loadgen report --start --end} reads from the same log (the page's script is {@link BucketCounts}
 * in JavaScript; {@code HtmlExplorerBrowserTest} holds the script to the same numbers).
 */
class HtmlExplorerDataTest {
    private static final double[] PERCENTILES = {0.0, 1.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0};

    @TempDir
    static Path dir;
    private static Path log;

    @BeforeAll
    static void recordARun() throws Exception {
        log = dir.resolve("run.hlog");
        RecordedRun.record(log, Duration.ofMillis(2400), Duration.ofMillis(200));
    }

    @Test
    void eachIntervalsBucketsAndCountsAreItsHistogramsRecordedValues() throws Exception {
        ExplorerData data = ExplorerData.read(List.of(log), ExplorerOptions.defaults());
        List<Histogram> lines = new ArrayList<>();
        List<String> tags = new ArrayList<>();
        try (LogSet set = LogSet.open(List.of(log), w -> { })) {
            LogInterval i;
            while ((i = set.next()) != null) {
                lines.add((Histogram) i.histogram());
                tags.add(i.tag());
            }
        }
        int compared = 0;
        for (TagSeries t : data.tags()) {
            List<TagSeries.Interval> embedded = t.intervals();
            List<Histogram> logged = new ArrayList<>();
            for (int k = 0; k < lines.size(); k++) {
                if (tags.get(k).equals(t.name())) {
                    logged.add(lines.get(k));
                }
            }
            assertEquals(logged.size(), embedded.size(), t.name());
            for (int k = 0; k < logged.size(); k++) {
                List<Long> values = new ArrayList<>();
                List<Long> counts = new ArrayList<>();
                for (HistogramIterationValue v : logged.get(k).recordedValues()) {
                    values.add(v.getValueIteratedTo());
                    counts.add(v.getCountAtValueIteratedTo());
                }
                assertArrayEquals(values.stream().mapToLong(Long::longValue).toArray(), embedded.get(k).highs(), t.name());
                assertArrayEquals(counts.stream().mapToLong(Long::longValue).toArray(), embedded.get(k).counts(), t.name());
                for (long high : embedded.get(k).highs()) {
                    assertEquals(logged.get(k).lowestEquivalentValue(high), t.lows()[t.indexOf(high)], t.name());
                }
                compared++;
            }
        }
        assertTrue(compared >= 6 * 12, "every tag's every interval: " + compared);
        // The operations' views, then the harness's own latencies (harness.*, in the order the log has them), then
        // the status counts.
        assertEquals(List.of("READ.intended", "READ.service", "READ.failed.intended", "READ.failed.service",
                "harness.lag", "harness.hiccup", "READ.status"), data.tags().stream().map(TagSeries::name).toList());
    }

    @Test
    void everyWindowReadsWhatReportReadsOverTheSameWindow() throws Exception {
        ExplorerData data = ExplorerData.read(List.of(log), ExplorerOptions.defaults());
        double[][] windows = {{0.0, Double.MAX_VALUE}, {0.4, 1.4}, {1.0, 1.0}, {0.95, 2.05}, {2.0, Double.MAX_VALUE},
                {0.1, 0.3}};
        for (double[] w : windows) {
            for (TagSeries t : data.tags()) {
                BucketCounts page = t.window(w[0], w[1]);
                ReportWindow report = ReportWindow.of(log, t.name(), w[0], w[1]);
                String what = t.name() + " over [" + w[0] + ", " + w[1] + "]";
                assertSame(report.histogram(), page, what);
                if (report.json() != null) {
                    assertEquals(report.json().get("p99_us").doubleValue(), page.valueAtPercentile(99.0) / 1000.0, what);
                    assertEquals(report.json().get("mean_us").doubleValue(), page.mean() / 1000.0, what);
                }
            }
        }
    }

    /** Every statistic the page shows, against HdrHistogram's own reading of report's sum. */
    static void assertSame(Histogram report, BucketCounts page, String what) {
        assertEquals(report.getTotalCount(), page.totalCount(), what + " count");
        assertEquals(report.getMinValue(), page.min(), what + " min");
        assertEquals(report.getMaxValue(), page.max(), what + " max");
        assertEquals(report.getMean(), page.mean(), what + " mean");
        for (double p : PERCENTILES) {
            assertEquals(report.getValueAtPercentile(p), page.valueAtPercentile(p), what + " p" + p);
        }
    }

    @Test
    void aWindowsPercentileIsTheBucketTheScenarioPutsItIn() throws Exception {
        // Interval [0,1): 99 operations of 1 ms and one of 100 ms; [1,2): 100 of 2 ms; [2,3): 100 of 50 ms.
        Path known = writeLog("known.hlog", new long[][]{{0, 99, 1_000_000, 1, 100_000_000}, {1, 100, 2_000_000},
                {2, 100, 50_000_000}});
        TagSeries t = ExplorerData.read(List.of(known), ExplorerOptions.defaults()).tag("READ.intended");
        Histogram buckets = Histograms.newHistogram();
        // [0, 1]: 200 operations, the 198th smallest (ceil(0.99 x 200)) is a 2 ms one; the max is the 100 ms one.
        assertEquals(buckets.highestEquivalentValue(2_000_000), t.window(0, 1).valueAtPercentile(99));
        assertEquals(buckets.highestEquivalentValue(100_000_000), t.window(0, 1).max());
        // [0.5, 2]: the intervals starting at 1 and 2: the 99th of 200 is 2 ms, the 100th of 200 too, the 101st 50 ms.
        assertEquals(buckets.highestEquivalentValue(2_000_000), t.window(0.5, 2).valueAtPercentile(50));
        assertEquals(buckets.highestEquivalentValue(50_000_000), t.window(0.5, 2).valueAtPercentile(50.5));
        assertEquals(buckets.lowestEquivalentValue(2_000_000), t.window(0.5, 2).min());
        assertEquals(0, t.window(2.5, 9).totalCount(), "no interval starts in [2.5, 9]");
    }

    @Test
    void linesOutOfOrderEndTheWindowWhereReportStopsReading() throws Exception {
        // Starts 0, 1, 3, 2, 4: report --end 2.5 stops at the line starting at 3, so the one at 2 is not read.
        Path shuffled = writeLog("shuffled.hlog", new long[][]{{0, 10, 1_000_000}, {1, 10, 2_000_000},
                {3, 10, 3_000_000}, {2, 10, 4_000_000}, {4, 10, 5_000_000}});
        TagSeries t = ExplorerData.read(List.of(shuffled), ExplorerOptions.defaults()).tag("READ.intended");
        assertEquals(20, t.window(0, 2.5).totalCount());
        assertEquals(40, t.window(0, 3).totalCount());
        for (double[] w : new double[][]{{0, 2.5}, {0, 3}, {1.5, 3.5}, {2, 4}, {0, Double.MAX_VALUE}}) {
            ReportWindow report = ReportWindow.of(shuffled, "READ.intended", w[0], w[1]);
            assertSame(report.histogram(), t.window(w[0], w[1]), "[" + w[0] + ", " + w[1] + "]");
        }
    }

    /** A log of READ.intended lines, one per row: {startSec, count, valueNs, count, valueNs, ...}, 1 s long. */
    static Path writeLog(String name, long[][] rows) throws IOException {
        Path p = dir.resolve(name);
        long startMs = 1_795_000_000_000L;
        try (PrintStream out = new PrintStream(Files.newOutputStream(p), false, StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputComment("[run: driver=known target=100ops/s threads=1]");
            w.outputLogFormatVersion();
            w.outputStartTime(startMs);
            w.setBaseTime(startMs);
            w.outputLegend();
            for (long[] row : rows) {
                Histogram h = Histograms.newHistogram();
                for (int i = 1; i < row.length; i += 2) {
                    h.recordValueWithCount(row[i + 1], row[i]);
                }
                h.setTag("READ.intended");
                h.setStartTimeStamp(startMs + row[0] * 1000);
                h.setEndTimeStamp(startMs + row[0] * 1000 + 1000);
                w.outputIntervalHistogram(h);
            }
        }
        return p;
    }
}
