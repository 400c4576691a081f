package io.loadgen.core.log;

import io.loadgen.core.record.IntervalLog;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code #[event: ...]} lines in an interval log: loadgen's reader places them on the epoch time line as
 * it places intervals, and HdrHistogram's own reader and HistogramLogProcessor pass over them, so a log
 * with events gives exactly the output of the same log without them.
 */
class EventLinesTest {
    private static final long START_MS = 1_795_000_000_000L;

    @TempDir
    Path dir;

    /** Three 1 s intervals of READ.intended; with {@code events}, a pause in the second and a GC in the third. */
    private Path log(String name, boolean events) throws IOException {
        Path p = dir.resolve(name);
        try (IntervalLog log = IntervalLog.open(p)) {
            log.writeHeader(START_MS, List.of("run: driver=test"));
            for (int i = 0; i < 3; i++) {
                if (events && i == 1) {
                    log.writeEvent("stop-the-world", "stw-mockdb", START_MS + 1_250, 166_600_000L);
                }
                if (events && i == 2) {
                    log.writeEvent("gc", "harness", START_MS + 2_500, 3_000_000L);
                }
                Histogram h = new Histogram(3_600_000_000_000L, 3);
                h.recordValueWithCount(1_000_000L * (i + 1), 100);
                h.recordValue(200_000_000L);
                h.setTag("READ.intended");
                h.setStartTimeStamp(START_MS + i * 1000L);
                h.setEndTimeStamp(START_MS + (i + 1) * 1000L);
                log.write(h);
            }
        }
        return p;
    }

    @Test
    void eventsArePlacedOnTheLogsTimeLine() throws IOException {
        Path p = log("events.hlog", true);
        try (LogSet set = LogSet.open(List.of(p), w -> { })) {
            while (set.next() != null) {
                // read to the end
            }
            List<LogEvent> events = set.events();
            assertEquals(2, events.size());
            LogEvent stw = events.get(0);
            assertEquals("stop-the-world", stw.kind());
            assertEquals("stw-mockdb", stw.source());
            assertEquals(START_MS / 1000.0 + 1.25, stw.absoluteStartSec(), 1e-6);
            assertEquals(0.1666, stw.lengthSec(), 1e-6);
            assertEquals("gc", events.get(1).kind());
            assertEquals(START_MS / 1000.0 + 2.5, events.get(1).absoluteStartSec(), 1e-6);
            assertTrue(set.comments().stream().noneMatch(c -> c.startsWith("[event:")), "events are not header comments");
        }
    }

    @Test
    void hdrHistogramsReaderSkipsEventLines() throws IOException {
        assertEquals(histograms(log("plain.hlog", false)), histograms(log("events.hlog", true)));
    }

    @Test
    void histogramLogProcessorGivesTheSameOutputWithOrWithoutEvents() throws Exception {
        Path plain = log("plain.hlog", false);
        Path events = log("events.hlog", true);
        for (Path p : List.of(plain, events)) {
            new HistogramLogProcessor(new String[]{"-i", p.toString(), "-o", p + ".out", "-tag", "READ.intended"}).run();
        }
        assertEquals(Files.readString(Path.of(plain + ".out.hgrm")), Files.readString(Path.of(events + ".out.hgrm")));
        assertEquals(Files.readString(Path.of(plain + ".out")), Files.readString(Path.of(events + ".out")));
    }

    private static List<String> histograms(Path p) throws IOException {
        List<String> all = new ArrayList<>();
        HistogramLogReader reader = new HistogramLogReader(p.toFile());
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            Histogram hist = (Histogram) h;
            all.add(hist.getTag() + " " + hist.getStartTimeStamp() + " " + hist.getTotalCount() + " " + hist.getMaxValue());
        }
        assertEquals(3, all.size());
        return all.stream().collect(Collectors.toList());
    }
}
