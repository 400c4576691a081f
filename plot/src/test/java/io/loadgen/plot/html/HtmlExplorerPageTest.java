package io.loadgen.plot.html;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.IntervalLog;
import io.loadgen.core.record.StatusTags;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The page as a file: self-contained (uPlot and its licence inlined from the WebJar, nothing fetched),
 * carrying the logs' run parameters and the JSON summary, small enough to mail, and bad input refused
 * with one line that says what to do.
 */
class HtmlExplorerPageTest {
    private static final long START_MS = 1_795_000_000_000L;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void thePageNeedsNothingButItselfAndCarriesUplotsLicence() throws Exception {
        Path log = demoLikeLog(dir.resolve("demo.hlog"), 3, 1000);
        String page = HtmlExplorer.render(List.of(log), ExplorerOptions.builder().title("a <b>title</b> & more").build());
        assertFalse(Pattern.compile("(src|href)\\s*=", Pattern.CASE_INSENSITIVE).matcher(page).find(),
                "no script, stylesheet or image is loaded from anywhere");
        assertFalse(page.contains("<link"), "no linked stylesheet");
        assertTrue(page.contains("Copyright (c) 2022 Leon Sorokin"), "uPlot's licence");
        assertTrue(page.contains("Permission is hereby granted, free of charge"), "uPlot's licence, in full");
        assertTrue(page.contains("var uPlot=function(){"), "uPlot itself, inlined");
        assertTrue(page.contains("uPlot " + PageTemplate.uplotVersion()), "uPlot's version");
        assertTrue(page.contains("<title>a &lt;b&gt;title&lt;/b&gt; &amp; more</title>"), "the title, escaped");
        assertFalse(page.contains("@@"), "every slot of the template filled");
        JsonNode data = data(page);
        assertEquals("a <b>title</b> & more", data.get("title").asText(), "the data's own copy, \\u003c-escaped");
        assertEquals(6, data.get("tags").size());
    }

    @Test
    void runParametersFromTheLogsHeaderAndTheJsonSummaryAreEmbedded() throws Exception {
        Path log = demoLikeLog(dir.resolve("demo.hlog"), 2, 100);
        JsonNode summary = JSON.readTree("{\"driver\":\"stw-mockdb\",\"throughput_ops_per_sec\":9998.5,"
                + "\"harness\":{\"gc_count\":3,\"gc_time_ms\":12}}");
        JsonNode data = data(HtmlExplorer.render(List.of(log), ExplorerOptions.builder().summary(summary).build()));
        JsonNode entries = data.at("/headers/0/entries");
        assertEquals("run", entries.get(0).get("name").asText());
        assertEquals("10000ops/s", entries.get(0).at("/kv/target").asText());
        assertEquals("25", entries.get(0).at("/kv/threads").asText());
        assertEquals("stw-mockdb.stw.probability=0.0001", entries.get(1).get("text").asText());
        assertEquals(summary, data.get("summary"));
        assertEquals(List.of(Status.values()).stream().map(Enum::name).toList(),
                JSON.convertValue(data.get("statusNames"), List.class));
    }

    @Test
    void thirtySecondsOfTheDemoAtOneSecondIntervalsMakeAPageOfUnderAMegabyte() throws Exception {
        Path log = demoLikeLog(dir.resolve("demo.hlog"), 30, 10_000);
        Path page = dir.resolve("demo.html");
        HtmlExplorer.write(List.of(log), ExplorerOptions.defaults(), page);
        long bytes = Files.size(page);
        System.out.println("HtmlExplorerPageTest: a 30 s log of 10,000 ops/s at 1 s intervals (" + Files.size(log)
                + " bytes) makes a page of " + bytes + " bytes");
        assertTrue(bytes < 1_200_000, bytes + " bytes");
    }

    @Test
    void aTagOrRangeChosenLeavesTheRestOutButKeepsHarnessHealth() throws Exception {
        Path log = demoLikeLog(dir.resolve("demo.hlog"), 5, 100);
        ExplorerData data = ExplorerData.read(List.of(log), ExplorerOptions.builder().tags(List.of("READ.service"))
                .start(1).end(3).build());
        assertEquals(List.of("READ.service", "harness.lag", "READ.status"),
                data.tags().stream().map(TagSeries::name).toList());
        assertEquals(List.of(1.0, 2.0, 3.0), data.tag("READ.service").intervals().stream()
                .map(TagSeries.Interval::startSec).toList());
    }

    @Test
    void badInputIsOneLineThatSaysWhatToDo() throws Exception {
        Path log = demoLikeLog(dir.resolve("demo.hlog"), 2, 100);
        Path notALog = Files.writeString(dir.resolve("notes.txt"), "hello\nworld\n");
        Path out = dir.resolve("out.html");
        assertBad("interval log " + dir.resolve("nope.hlog") + " does not exist; give the file that 'loadgen run"
                + " --hlog FILE' wrote", () -> HtmlExplorer.write(List.of(dir.resolve("nope.hlog")),
                ExplorerOptions.defaults(), out));
        assertBad(notALog + " is not an HdrHistogram interval log (line 1: expected [Tag=T,]start,length,max,histogram);"
                + " give a log written by 'loadgen run --hlog FILE' or HistogramLogWriter",
                () -> HtmlExplorer.write(List.of(notALog), ExplorerOptions.defaults(), out));
        assertBad("no interval tagged 'READ.nope' in " + log + "; tags present: READ.failed.intended, READ.failed.service,"
                + " READ.intended, READ.service, READ.status, harness.lag (list them with 'loadgen report --list-tags')",
                () -> HtmlExplorer.write(List.of(log), ExplorerOptions.builder().tags(List.of("READ.nope")).build(), out));
        assertBad("no interval in " + log + " falls in the time range 50.0 to the end s; widen --start/--end (seconds"
                + " relative to the log's StartTime)",
                () -> HtmlExplorer.write(List.of(log), ExplorerOptions.builder().start(50).build(), out));
        assertBad("--start 5.0 is after --end 2.0; give a start at or before the end (seconds after the log's StartTime)",
                () -> ExplorerOptions.builder().start(5).end(2).build());
        Path nowhere = dir.resolve("no-such-dir").resolve("out.html");
        assertBad("cannot write the HTML page " + nowhere + " (" + nowhere + "); choose a writable path for --html",
                () -> HtmlExplorer.write(List.of(log), ExplorerOptions.defaults(), nowhere));
        assertFalse(Files.exists(out), "nothing written for bad input");
    }

    private static void assertBad(String message, org.junit.jupiter.api.function.Executable e) {
        BadInputException thrown = assertThrows(BadInputException.class, e);
        assertEquals(message, thrown.getMessage());
        assertFalse(thrown.getMessage().contains("\n"), "one line");
    }

    private static JsonNode data(String page) throws Exception {
        Matcher m = Pattern.compile("<script type=\"application/json\" id=\"loadgen-data\">(.*?)</script>",
                Pattern.DOTALL).matcher(page);
        assertTrue(m.find(), "the data element");
        assertFalse(m.group(1).contains("<"), "nothing in the data can end its script element");
        return JSON.readTree(m.group(1));
    }

    /**
     * A log shaped like {@code loadgen demo}'s (stw-mockdb's default mix at {@code opsPerSec}, 25 threads,
     * 1 s intervals): 90% of operations take 0.2-1 ms, 9% 1-10 ms, 0.99% 10-50 ms, 0.01% 50-200 ms; the
     * intended view adds up to 5 ms of queueing; 1 in 100 fail; the scheduler lags 1-100 µs.
     */
    static Path demoLikeLog(Path file, int seconds, int opsPerSec) throws Exception {
        SplittableRandom random = new SplittableRandom(42);
        try (IntervalLog log = IntervalLog.open(file)) {
            log.writeHeader(START_MS, List.of("run: driver=stw-mockdb target=10000ops/s threads=25 duration="
                    + seconds + "s interval=1s seed=1", "properties: stw-mockdb.stw.probability=0.0001"));
            for (int s = 0; s < seconds; s++) {
                Histogram intended = Histograms.newHistogram();
                Histogram service = Histograms.newHistogram();
                Histogram failedIntended = Histograms.newHistogram();
                Histogram failedService = Histograms.newHistogram();
                Histogram lag = Histograms.newHistogram();
                Histogram status = StatusTags.newHistogram();
                for (int i = 0; i < opsPerSec; i++) {
                    double u = random.nextDouble();
                    long serviceNs = u < 0.9 ? random.nextLong(200_000, 1_000_000) : u < 0.99
                            ? random.nextLong(1_000_000, 10_000_000) : u < 0.9999
                            ? random.nextLong(10_000_000, 50_000_000) : random.nextLong(50_000_000, 200_000_000);
                    long intendedNs = serviceNs + random.nextLong(0, 5_000_000);
                    boolean failed = random.nextInt(100) == 0;
                    (failed ? failedService : service).recordValue(serviceNs);
                    (failed ? failedIntended : intended).recordValue(intendedNs);
                    lag.recordValue(random.nextLong(1_000, 100_000));
                    status.recordValue(failed ? Status.ERROR.ordinal() : Status.OK.ordinal());
                }
                String[] tags = {"READ.intended", "READ.service", "READ.failed.intended", "READ.failed.service",
                        "harness.lag", "READ.status"};
                Histogram[] hs = {intended, service, failedIntended, failedService, lag, status};
                for (int t = 0; t < tags.length; t++) {
                    hs[t].setTag(tags[t]);
                    hs[t].setStartTimeStamp(START_MS + s * 1000L);
                    hs[t].setEndTimeStamp(START_MS + s * 1000L + 1000);
                    log.write(hs[t]);
                }
            }
        }
        return file;
    }
}
