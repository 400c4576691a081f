package io.loadgen.core.gate;

import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.IntervalLog;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes interval logs with known contents through the run's own {@link IntervalLog}, for gate tests:
 * one line per tag per interval, each histogram holding {@code count} copies of one value. Test thread.
 */
final class TestLogs {
    static final long START_MS = 1_763_000_000_000L;
    static final long MS = 1_000_000L;
    static final long US = 1_000L;

    /** One interval: [startMs, endMs) relative to the log's start, and per tag a count of one value (ns). */
    record Line(long startMs, long endMs, String tag, long count, long valueNs) {
    }

    private final List<Line> lines = new ArrayList<>();
    private List<String> header = List.of("test log");
    private String endReason;

    /** The header's comment lines instead of the default one, e.g. {@code run: ... duration=20s warmup=2s}. */
    TestLogs header(String... comments) {
        header = List.of(comments);
        return this;
    }

    /** Ends the log with the run's closing line, as a run that ended (for {@code reason}) writes it. */
    TestLogs ended(String reason) {
        endReason = reason;
        return this;
    }

    /** Adds one interval of {@code tag}: {@code count} operations of {@code valueNs} each. */
    TestLogs add(long startMs, long endMs, String tag, long count, long valueNs) {
        lines.add(new Line(startMs, endMs, tag, count, valueNs));
        return this;
    }

    /** 1 s intervals from {@code fromSec} to {@code toSec}, each {@code count} operations of {@code valueNs}. */
    TestLogs seconds(int fromSec, int toSec, String tag, long count, long valueNs) {
        for (int s = fromSec; s < toSec; s++) {
            add(s * 1000L, (s + 1) * 1000L, tag, count, valueNs);
        }
        return this;
    }

    /** Writes the lines in order of start (a tag's lines of one interval together, as the sampler writes them). */
    Path write(Path file) throws IOException {
        return write(file, START_MS);
    }

    Path write(Path file, long startMs) throws IOException {
        List<Line> sorted = new ArrayList<>(lines);
        sorted.sort((a, b) -> Long.compare(a.startMs(), b.startMs()));
        Histogram h = Histograms.newHistogram();
        try (IntervalLog log = IntervalLog.open(file)) {
            log.writeHeader(startMs, header);
            for (Line l : sorted) {
                h.reset();
                if (l.count() > 0) {
                    h.recordValueWithCount(l.valueNs(), l.count());
                }
                h.setTag(l.tag());
                h.setStartTimeStamp(startMs + l.startMs());
                h.setEndTimeStamp(startMs + l.endMs());
                log.write(h);
            }
            if (endReason != null) {
                log.writeRunEnd(endReason, sorted.isEmpty() ? 0 : sorted.get(sorted.size() - 1).endMs());
            }
        }
        return file;
    }
}
