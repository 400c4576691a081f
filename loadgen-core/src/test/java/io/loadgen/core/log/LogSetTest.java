package io.loadgen.core.log;

import io.loadgen.core.BadInputException;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log reader under {@code report} and {@code gate}: it must place every interval on the epoch time
 * line exactly as HdrHistogram's own {@link HistogramLogReader} does (StartTime, BaseTime, and the
 * "more than a year before StartTime means relative" rule), merge logs on that time line, and keep
 * going past damage while saying where it is.
 */
class LogSetTest {
    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    /** A log like loadgen's: StartTime, no BaseTime, timestamps relative to the start. */
    private Path log(String name, long startMs, String tag, long... valuesPerInterval) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, false, StandardCharsets.UTF_8);
        HistogramLogWriter w = new HistogramLogWriter(out);
        w.outputLogFormatVersion();
        w.outputStartTime(startMs);
        w.setBaseTime(startMs);
        w.outputLegend();
        for (int i = 0; i < valuesPerInterval.length; i++) {
            Histogram h = new Histogram(3_600_000_000_000L, 3);
            h.recordValue(valuesPerInterval[i]);
            h.setStartTimeStamp(startMs + i * 1000L);
            h.setEndTimeStamp(startMs + (i + 1) * 1000L);
            h.setTag(tag);
            w.outputIntervalHistogram(h);
        }
        out.flush();
        Path p = dir.resolve(name);
        Files.write(p, bytes.toByteArray());
        return p;
    }

    private List<LogInterval> readAll(Path... files) throws IOException {
        List<LogInterval> all = new ArrayList<>();
        try (LogSet set = LogSet.open(List.of(files), warnings::add)) {
            LogInterval i;
            while ((i = set.next()) != null) {
                all.add(i);
            }
        }
        return all;
    }

    @Test
    void timesMatchHdrHistogramsOwnReader() throws Exception {
        Path p = log("a.hlog", 1_795_000_000_123L, "READ.intended", 10, 20, 30);
        List<LogInterval> ours = readAll(p);
        HistogramLogReader theirs = new HistogramLogReader(p.toFile());
        for (LogInterval i : ours) {
            EncodableHistogram expected = theirs.nextIntervalHistogram();
            EncodableHistogram actual = i.histogram();
            assertEquals(expected.getStartTimeStamp(), actual.getStartTimeStamp());
            assertEquals(expected.getEndTimeStamp(), actual.getEndTimeStamp());
            assertEquals(expected.getTag(), actual.getTag());
            assertEquals(expected, actual);
            assertEquals(theirs.getStartTimeSec(), i.fileStartTimeSec());
        }
        assertNull(theirs.nextIntervalHistogram());
        assertEquals(3, ours.size());
    }

    @Test
    void absoluteTimestampsAndExplicitBaseTimeArePlacedLikeHistogramLogReader() throws Exception {
        // No BaseTime and timestamps within a year of StartTime: they are absolute (BaseTime 0).
        Path absolute = dir.resolve("abs.hlog");
        Files.writeString(absolute, "#[StartTime: 1795000000.000 (seconds since epoch)]\n"
                + line("1795000005.000", 7) + line("1795000006.000", 8));
        // An explicit BaseTime: timestamps are relative to it, whatever the StartTime says.
        Path based = dir.resolve("based.hlog");
        Files.writeString(based, "#[StartTime: 1795000000.000 (seconds since epoch)]\n"
                + "#[BaseTime: 1795000100.000 (seconds since epoch)]\n" + line("2.500", 9));
        // No StartTime at all: the first timestamp is the start.
        Path bare = dir.resolve("bare.hlog");
        Files.writeString(bare, line("3.000", 1) + line("4.000", 2));
        for (Path p : List.of(absolute, based, bare)) {
            HistogramLogReader theirs = new HistogramLogReader(p.toFile());
            for (LogInterval i : readAll(p)) {
                EncodableHistogram expected = theirs.nextIntervalHistogram();
                assertEquals(expected.getStartTimeStamp(), i.startTimeStampMs(), p.toString());
                assertEquals(expected.getEndTimeStamp(), i.endTimeStampMs(), p.toString());
                assertEquals(theirs.getStartTimeSec(), i.fileStartTimeSec(), p.toString());
            }
        }
        assertEquals(1_795_000_102_500L, readAll(based).get(0).startTimeStampMs());
        assertEquals(1_795_000_005_000L, readAll(absolute).get(0).startTimeStampMs());
        assertEquals(3_000L, readAll(bare).get(0).startTimeStampMs());
    }

    private static String line(String timestamp, long value) {
        Histogram h = new Histogram(3);
        h.recordValue(value);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(b);
        String payload = java.util.Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(b.array(), n));
        return timestamp + ",1.000," + value + ".000," + payload + "\n";
    }

    @Test
    void logsAreMergedOnAbsoluteTimeEachWithItsOwnStartTime() throws Exception {
        // b starts 1.5 s after a: its relative 0.000 is absolute a+1.5 s and sorts between a's 1 s and 2 s lines.
        Path a = log("a.hlog", 1_795_000_000_000L, "READ.intended", 1, 2, 3);
        Path b = log("b.hlog", 1_795_000_001_500L, "READ.intended", 100, 200);
        List<Long> starts = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        for (LogInterval i : readAll(b, a)) {
            starts.add(i.startTimeStampMs() - 1_795_000_000_000L);
            values.add(((Histogram) i.histogram()).getMaxValue());
        }
        assertEquals(List.of(0L, 1000L, 1500L, 2000L, 2500L), starts);
        assertEquals(List.of(1L, 2L, 100L, 3L, 200L), values);
        try (LogSet set = LogSet.open(List.of(b, a), warnings::add)) {
            assertEquals(1_795_000_000.0, set.startTimeSec(), 1e-9, "the earliest StartTime");
        }
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void timesRelativeToTheStartAreMeasuredFromTheLogsOwnStartOrTheEarliestOfSeveral() throws Exception {
        Path a = log("a.hlog", 1_795_000_000_000L, "READ.intended", 1, 2);
        Path b = log("b.hlog", 1_795_000_001_500L, "READ.intended", 100);
        try (LogSet one = LogSet.open(List.of(b), warnings::add)) {
            LogInterval first = one.next();
            assertEquals(0.0, first.absoluteStartSec() - one.relativeToSec(first), 1e-9, "b alone: its own start");
        }
        List<Double> relative = new ArrayList<>();
        try (LogSet both = LogSet.open(List.of(b, a), warnings::add)) {
            LogInterval i;
            while ((i = both.next()) != null) {
                relative.add(Math.round((i.absoluteStartSec() - both.relativeToSec(i)) * 1000) / 1000.0);
            }
        }
        assertEquals(List.of(0.0, 1.0, 1.5), relative, "merged: from a's earlier start");
    }

    @Test
    void headersListEachLogsNamedCommentsInOrder() throws Exception {
        Path p = dir.resolve("h.hlog");
        Files.writeString(p, "#[loadgen interval log: latencies in nanoseconds]\n"
                + "#[run: driver=mockdb target=1000ops/s threads=2 cold-start seed=7]\n"
                + "#[properties: mockdb.delay=4ms]\n#[Histogram log format version 1.3]\n"
                + "#[StartTime: 1795000000.000 (seconds since epoch), Sun Nov 22 05:38:53 UTC 2026]\n"
                + "# a remark\n" + line("1795000000.000", 7));
        try (LogSet set = LogSet.open(List.of(p), warnings::add)) {
            LogHeader h = set.headers().get(0);
            assertEquals(p.toString(), h.source());
            assertEquals(List.of("loadgen interval log", "run", "properties", "StartTime"),
                    h.entries().stream().map(LogHeader.Entry::name).toList());
            assertEquals("mockdb.delay=4ms", h.value("properties").orElseThrow());
            assertTrue(h.value("nope").isEmpty());
            java.util.Map<String, String> run = LogHeader.keyValues(h.value("run").orElseThrow());
            assertEquals(List.of("driver", "target", "threads", "cold-start", "seed"), List.copyOf(run.keySet()));
            assertEquals("1000ops/s", run.get("target"));
            assertEquals("", run.get("cold-start"));
        }
    }

    @Test
    void gzipLogsAreRecognisedByContent() throws Exception {
        Path plain = log("p.hlog", 1_795_000_000_000L, "T", 5, 6);
        Path gz = dir.resolve("p.hlog.whatever");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(plain));
        }
        List<LogInterval> fromGz = readAll(gz);
        List<LogInterval> fromPlain = readAll(plain);
        assertEquals(fromPlain.size(), fromGz.size());
        for (int i = 0; i < fromGz.size(); i++) {
            assertEquals(fromPlain.get(i).histogram(), fromGz.get(i).histogram());
        }
    }

    @Test
    void aTruncatedLastLineIsReadUpToWithAWarning() throws Exception {
        Path p = log("killed.hlog", 1_795_000_000_000L, "T", 5, 6, 7);
        String text = Files.readString(p);
        Files.writeString(p, text.substring(0, text.length() - 40)); // killed mid-write: no newline, payload cut
        List<LogInterval> read = readAll(p);
        assertEquals(3, read.size());
        assertNotNull(read.get(1).histogram());
        assertNull(read.get(2).histogram(), "the cut line cannot be decoded");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith(p + ":6: the last line is truncated"), warnings.get(0));
    }

    @Test
    void aCorruptLineIsNamedByFileAndLineAndSkipped() throws Exception {
        Path p = log("corrupt.hlog", 1_795_000_000_000L, "T", 5, 6, 7);
        List<String> lines = new ArrayList<>(Files.readAllLines(p));
        lines.set(4, "Tag=T,1.000,1.000,garbage"); // line 5: the second interval
        lines.add(5, "Tag=T,1.000,1.000,0.0,!!!notbase64!!!"); // new line 6
        Files.write(p, lines);
        List<Long> maxes = new ArrayList<>();
        for (LogInterval i : readAll(p)) {
            EncodableHistogram h = i.histogram();
            if (h != null) {
                maxes.add(((Histogram) h).getMaxValue());
            }
        }
        assertEquals(List.of(5L, 7L), maxes);
        assertEquals(2, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).startsWith(p + ":5: corrupt line"), warnings.get(0));
        assertTrue(warnings.get(1).startsWith(p + ":6: corrupt histogram"), warnings.get(1));
    }

    @Test
    void filesThatAreNotLogsAreBadInput() throws Exception {
        Path json = dir.resolve("summary.json");
        Files.writeString(json, "{\n  \"driver\" : \"mockdb\"\n}\n");
        BadInputException e = assertThrows(BadInputException.class, () -> readAll(json));
        assertTrue(e.getMessage().startsWith(json + " is not an HdrHistogram interval log (line 1"), e.getMessage());
        BadInputException missing = assertThrows(BadInputException.class, () -> readAll(dir.resolve("nope.hlog")));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
    }
}
