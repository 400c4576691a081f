package io.loadgen.core.log;

import io.loadgen.core.log.LogReportOptions.TagSelection;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link LogReport} holds a bounded number of decoded histograms, whatever the log's length: each tag's
 * running sum and moving-window sum. A decoded loadgen histogram (1 ns to 1 h, 3 digits) is 270 KB, so a
 * window that kept decoded intervals grew by 270 KB per line (an hour-long window over six tags at 1-second
 * intervals: 5.8 GB); the window keeps compressed lines instead and decodes each again as it leaves.
 */
class LogReportMemoryTest {
    private static final long START_MS = 1_795_000_000_000L;
    private static final List<String> TAGS = List.of("READ.intended", "READ.service", "harness.lag");

    @TempDir
    Path dir;

    @Test
    void histogramsHeldDoNotGrowWithTheLog() throws IOException {
        // A window longer than the log keeps every line of every tag in it to the end.
        for (int intervals : new int[]{10, 300}) {
            LogReport report = reportWithWindow(log(intervals), intervals * 2_000L);
            assertEquals(intervals * TAGS.size(), report.windowLines(), "lines in the windows, " + intervals + " intervals");
            // One running sum and one window sum per tag; no window line still decoded.
            assertEquals(2 * TAGS.size(), report.histogramsHeld(), "decoded histograms held, " + intervals + " intervals");
        }
    }

    @Test
    void windowLinesDecodedAgainLeaveTheWindowSumExact() throws IOException {
        // Interval i (0-based) ends at (i + 1) s and holds i + 1 values. With a 2 s window, the row for
        // interval i subtracts every interval whose end is at most (i + 1) - 2 = i - 1 s, i.e. intervals
        // 0 .. i - 2: the window holds intervals i - 1 and i, so its count is i + (i + 1) = 2i + 1 (1 for i = 0).
        int intervals = 20;
        reportWithWindow(log(intervals), 2_000L);
        List<String> rows = new ArrayList<>();
        for (String line : Files.readAllLines(dir.resolve("out.READ.intended.mwp"))) {
            if (!line.startsWith("#") && !line.startsWith("Time:")) {
                rows.add(line);
            }
        }
        assertEquals(intervals, rows.size());
        for (int i = 0; i < intervals; i++) {
            String count = rows.get(i).replaceAll(".*I:(\\d+) .*", "$1");
            assertEquals(String.valueOf(2 * i + 1), count, "window count of row " + i + ": " + rows.get(i));
        }
    }

    private LogReport reportWithWindow(Path log, long windowMs) throws IOException {
        LogReportOptions o = new LogReportOptions();
        o.selection = TagSelection.ALL;
        o.outputBase = dir.resolve("out").toString();
        o.movingWindow = true;
        o.movingWindowLengthInMsec = windowMs;
        LogReport report = new LogReport(o, new PrintStream(OutputStream.nullOutputStream()), null);
        try (LogSet set = LogSet.open(List.of(log), w -> {
            throw new AssertionError("unexpected warning: " + w);
        })) {
            report.run(set);
        }
        return report;
    }

    /** A log like loadgen's: every tag each second, interval i holding i + 1 values of loadgen's histogram shape. */
    private Path log(int intervals) throws IOException {
        Path p = dir.resolve("log-" + intervals + ".hlog");
        try (PrintStream out = new PrintStream(Files.newOutputStream(p), false, StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            w.outputLogFormatVersion();
            w.outputStartTime(START_MS);
            w.setBaseTime(START_MS);
            w.outputLegend();
            for (int i = 0; i < intervals; i++) {
                for (String tag : TAGS) {
                    Histogram h = new Histogram(1, 3_600_000_000_000L, 3);
                    for (int v = 0; v <= i; v++) {
                        h.recordValue(1_000_000L + 1_000L * v);
                    }
                    h.setStartTimeStamp(START_MS + i * 1000L);
                    h.setEndTimeStamp(START_MS + (i + 1) * 1000L);
                    h.setTag(tag);
                    w.outputIntervalHistogram(h);
                }
            }
        }
        return p;
    }
}
