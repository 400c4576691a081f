package io.loadgen.core.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.driver.Status;
import io.loadgen.core.gate.Gate;
import io.loadgen.core.gate.RuleParser;
import io.loadgen.core.gate.TimeRange;
import io.loadgen.core.gate.Verdict;
import io.loadgen.core.log.LogReport;
import io.loadgen.core.log.LogReportOptions;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.log.LogSummary;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import io.loadgen.core.summary.ComparisonTable;
import io.loadgen.core.summary.HgrmFiles;
import io.loadgen.core.summary.JsonSummary;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.summary.YcsbTextSummary;
import io.loadgen.core.time.ManualNanoClock;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Operations that do not return OK are recorded in their type's failed series ({@code READ.failed.intended},
 * {@code READ.failed.service}; YCSB's {@code READ-FAILED}), never in the success views: exact counts and
 * latencies in the result, the text and JSON summaries, the table, the .hgrm files, the interval log (read
 * back by loadgen's reader and by HdrHistogram's HistogramLogProcessor), the gates and the status line.
 */
class FailedSeriesTest {
    private static final long OK_NS = TimeUnit.MILLISECONDS.toNanos(3);
    private static final long ERROR_NS = TimeUnit.MICROSECONDS.toNanos(20);
    private static final long NOT_FOUND_NS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final int OPERATIONS = 1000;
    // Keys 0..999: ERROR when k % 4 == 3 (3, 7, ..., 999: 250); NOT_FOUND when k % 10 == 0 (100; none of them
    // is 3 mod 4, since 10m mod 4 is 0 or 2); OK otherwise: 1000 - 250 - 100 = 650.
    private static final long ERRORS = OPERATIONS / 4;
    private static final long NOT_FOUND = OPERATIONS / 10;
    private static final long FAILURES = ERRORS + NOT_FOUND;
    private static final long SUCCESSES = OPERATIONS - FAILURES;

    @TempDir
    Path dir;

    /**
     * One thread, unthrottled, on a manual clock that only the driver moves: each operation's latency is
     * exactly what the driver advanced the clock by (3 ms for OK, 20 us for ERROR, 50 us for NOT_FOUND).
     */
    private RunResult runKnownFailures(Path log, PrintStream status) throws Exception {
        ManualNanoClock clock = new ManualNanoClock(0);
        FunctionDriver driver = new FunctionDriver(op -> {
            Status s = op.keyNumber() % 4 == 3 ? Status.ERROR : op.keyNumber() % 10 == 0 ? Status.NOT_FOUND : Status.OK;
            clock.advance(s == Status.OK ? OK_NS : s == Status.ERROR ? ERROR_NS : NOT_FOUND_NS);
            return s;
        });
        RunOptions options = RunOptions.builder("function").threads(1).operations((long) OPERATIONS).hlog(log)
                .status(StatusFormat.YCSB).build();
        return new LoadRun(options, driver, null, status, clock).run();
    }

    @Test
    void failuresAreRecordedApartWithTheirOwnLatency() throws Exception {
        OpResult read = runKnownFailures(dir.resolve("f.hlog"), null).operations().get(0);

        assertEquals(OPERATIONS, read.count(), "count is every completed operation");
        assertEquals(FAILURES, read.errors());
        assertEquals(SUCCESSES, read.successes());
        assertEquals(FAILURES, read.failures());
        for (View view : new View[]{View.INTENDED, View.SERVICE}) {
            Histogram ok = read.histogram(view);
            assertEquals(SUCCESSES, ok.getTotalCount(), view.key());
            assertEquals(SUCCESSES, ok.getCountAtValue(OK_NS), view.key() + ": every success took 3 ms");
            Histogram failed = read.failedHistogram(view);
            assertEquals(FAILURES, failed.getTotalCount(), view.key());
            assertEquals(ERRORS, failed.getCountAtValue(ERROR_NS), view.key());
            assertEquals(NOT_FOUND, failed.getCountAtValue(NOT_FOUND_NS), view.key());
        }
        // Unthrottled: corrected is a copy of the successes' service view, failures stay out of it.
        assertEquals(SUCCESSES, read.histogram(View.CORRECTED).getTotalCount());
    }

    @Test
    void summariesShowTheFailedSeriesAndCountSuccessesInTheViews() throws Exception {
        RunResult result = runKnownFailures(dir.resolve("f.hlog"), null);
        long okUs = Histograms.newHistogram().highestEquivalentValue(OK_NS) / 1000;
        long notFoundUs = Histograms.newHistogram().highestEquivalentValue(NOT_FOUND_NS) / 1000;

        String text = print(out -> YcsbTextSummary.write(result, out));
        assertTrue(text.contains("[READ], Operations, " + SUCCESSES + "\n"), text);
        long okMinUs = Histograms.newHistogram().lowestEquivalentValue(OK_NS) / 1000;
        assertTrue(text.contains("[READ], MinLatency(us), " + okMinUs + "\n"), text);
        assertTrue(text.contains("[READ], Return=OK, " + SUCCESSES + "\n"), text);
        assertTrue(text.contains("[READ], Return=ERROR, " + ERRORS + "\n"), text);
        assertTrue(text.contains("[READ], Return=NOT_FOUND, " + NOT_FOUND + "\n"), text);
        assertTrue(text.contains("[Intended-READ], Operations, " + SUCCESSES + "\n"), text);
        assertTrue(text.contains("[READ-FAILED], Operations, " + FAILURES + "\n"), text);
        assertTrue(text.contains("[READ-FAILED], MaxLatency(us), " + notFoundUs + "\n"), text);
        // 250 of 350 failures took 20 us, so the median failure is an ERROR.
        assertTrue(text.contains("[READ-FAILED], 50thPercentileLatency(us), " + ERROR_NS / 1000 + "\n"), text);
        assertTrue(text.contains("[Intended-READ-FAILED], Operations, " + FAILURES + "\n"), text);
        assertTrue(text.indexOf("[Intended-READ]") < text.indexOf("[READ-FAILED]"), text);

        String table = print(out -> ComparisonTable.write(result, out));
        assertTrue(table.matches("(?s).*\\nREAD\\s+intended\\s+" + SUCCESSES + "\\s.*"), table);
        assertTrue(table.matches("(?s).*\\nREAD\\s+failed\\.intended\\s+" + FAILURES + "\\s.*"), table);
        assertTrue(table.matches("(?s).*\\nREAD\\s+failed\\.service\\s+" + FAILURES + "\\s+0\\.020\\s.*"), table);

        JsonNode json = JsonSummary.toJson(result).at("/operations/READ");
        assertEquals(OPERATIONS, json.get("count").asLong());
        assertEquals(FAILURES, json.get("errors").asLong());
        assertEquals(SUCCESSES, json.at("/intended/count").asLong());
        assertEquals(SUCCESSES, json.at("/service/count").asLong());
        assertEquals(okUs, json.at("/service/p50_us").asLong());
        assertEquals(FAILURES, json.at("/failed/count").asLong());
        assertEquals(FAILURES, json.at("/failed/intended/count").asLong());
        assertEquals(notFoundUs, json.at("/failed/service/max_us").asLong());
        assertEquals(List.of("min_us", "mean_us", "p50_us", "p90_us", "p95_us", "p99_us", "p99_9_us", "p99_99_us",
                "max_us", "count"), fieldNames(json.at("/failed/service")));
    }

    @Test
    void theLogHoldsTheFailedSeriesForOurReaderAndForHistogramLogProcessor() throws Exception {
        Path log = dir.resolve("f.hlog");
        RunResult result = runKnownFailures(log, null);
        Path hgrm = dir.resolve("hgrm");
        List<Path> files = HgrmFiles.write(result, hgrm);
        assertTrue(files.contains(hgrm.resolve("READ.failed.intended.hgrm")), files.toString());
        assertTrue(files.contains(hgrm.resolve("READ.failed.service.hgrm")), files.toString());

        // loadgen report --json reads back the run's numbers, failed series included.
        ObjectNode fromLog = reportJson(log);
        ObjectNode fromRun = JsonSummary.toJson(result);
        for (String key : List.of("count", "errors", "returns", "intended", "service", "failed")) {
            assertEquals(fromRun.at("/operations/READ/" + key), fromLog.at("/operations/READ/" + key), key);
        }
        assertEquals(FAILURES, fromLog.at("/operations/READ/failed/count").asLong());

        // HistogramLogProcessor reproduces each series' distribution, byte for byte.
        for (String tag : List.of("READ.failed.intended", "READ.failed.service", "READ.service")) {
            Path base = dir.resolve("hlp-" + tag);
            new HistogramLogProcessor(new String[]{"-i", log.toString(), "-o", base.toString(), "-tag", tag}).run();
            List<String> theirs = Files.readAllLines(Path.of(base + ".hgrm"));
            List<String> ours = Files.readAllLines(hgrm.resolve(tag + ".hgrm"));
            assertEquals(ours.subList(1, ours.size()), theirs.subList(2, theirs.size()), tag);
        }
        assertEquals(FAILURES, LoadRunTest.readLog(log).get("READ.failed.service").getTotalCount());
        assertEquals(SUCCESSES, LoadRunTest.readLog(log).get("READ.service").getTotalCount());
    }

    @Test
    void gatesJudgeSuccessesAndFailuresApart() throws Exception {
        Path log = dir.resolve("f.hlog");
        Path json = dir.resolve("f.json");
        JsonSummary.write(runKnownFailures(log, null), json);
        List<String> rules = List.of(
                "READ.service.min > 2.9ms",               // successes only: every one took 3 ms
                "READ.failed.service.max < 100us",        // failures: 20 and 50 us
                "READ.failed.intended.count >= " + FAILURES,
                "READ.failed.intended.count < " + (FAILURES + 1),
                "READ.service.count < " + (SUCCESSES + 1),
                "READ.errors < 36%",                      // 350 of 1000 operations
                "READ.failed.service.p50 > 1ms");         // fails: the median failure took 20 us
        for (Path source : List.of(log, json)) {
            List<Verdict> verdicts = Gate.evaluate(List.of(source), TimeRange.ALL,
                    rules.stream().map(RuleParser::parse).toList(), null, null, w -> { });
            for (int i = 0; i < rules.size() - 1; i++) {
                assertTrue(verdicts.get(i).passed(), source + ": " + verdicts.get(i));
            }
            assertFalse(verdicts.get(rules.size() - 1).passed(), source + ": " + verdicts);
            assertTrue(verdicts.get(5).observed().contains("(" + FAILURES + " of " + OPERATIONS + ")"),
                    verdicts.get(5).observed());
        }
        List<Verdict> windowed = Gate.evaluate(List.of(log), TimeRange.ALL,
                List.of(RuleParser.parse("READ.failed.service.max < 100us over 1s windows")), null, null, w -> { });
        assertTrue(windowed.get(0).passed(), windowed.toString());
    }

    @Test
    void aGateOnTheFailedSeriesOfARunWithoutFailuresPasses() throws Exception {
        Path log = dir.resolve("ok.hlog");
        Path json = dir.resolve("ok.json");
        RunOptions options = RunOptions.builder("function").threads(1).operations(200L).hlog(log).build();
        RunResult result = new LoadRun(options, FunctionDriver.ok(), null).run();
        JsonSummary.write(result, json);
        assertEquals(0, result.operations().get(0).failures());
        assertFalse(print(out -> YcsbTextSummary.write(result, out)).contains("FAILED"));
        assertFalse(print(out -> ComparisonTable.write(result, out)).contains("failed"));
        assertEquals(0, JsonSummary.toJson(result).at("/operations/READ/failed/count").asLong());

        for (Path source : List.of(log, json)) {
            List<Verdict> v = Gate.evaluate(List.of(source), TimeRange.ALL,
                    List.of(RuleParser.parse("READ.failed.intended.p99 < 1ms")), null, null, w -> { });
            assertTrue(v.get(0).passed(), v.toString());
            assertEquals("no failures", v.get(0).observed());
        }
        List<Verdict> windowed = Gate.evaluate(List.of(log), TimeRange.ALL,
                List.of(RuleParser.parse("READ.failed.intended.p99 < 1ms over 1s windows")), null, null, w -> { });
        assertTrue(windowed.get(0).passed(), windowed.toString());
        assertEquals("no failures in any window", windowed.get(0).observed());
    }

    @Test
    void theStatusLineCountsEachStatusOfTheFailures() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream status = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            runKnownFailures(dir.resolve("f.hlog"), status);
        }
        long[] sums = new long[3];
        Matcher m = Pattern.compile("\\[READ returns: (\\d+) OK, (\\d+) ERROR, (\\d+) NOT_FOUND]")
                .matcher(bytes.toString(StandardCharsets.UTF_8));
        while (m.find()) {
            for (int i = 0; i < sums.length; i++) {
                sums[i] += Long.parseLong(m.group(i + 1));
            }
        }
        assertEquals(List.of(SUCCESSES, ERRORS, NOT_FOUND), List.of(sums[0], sums[1], sums[2]),
                bytes.toString(StandardCharsets.UTF_8));
    }

    /**
     * An outage: 60% of operations (key numbers ending in 0-5) fail at once, the rest take at least 2 ms.
     * Mixed together the median would be an instant failure; kept apart, every success percentile stays at
     * or above 2 ms and the failures show in their own series.
     */
    @Test
    void instantFailuresInAnOutageDoNotLowerTheSuccessPercentiles() throws Exception {
        long storeNs = TimeUnit.MILLISECONDS.toNanos(2);
        FunctionDriver driver = new FunctionDriver(op -> {
            if (op.keyNumber() % 10 < 6) {
                return Status.ERROR; // connection refused: fails in microseconds
            }
            long until = System.nanoTime() + storeNs;
            for (long now = System.nanoTime(); now - until < 0; now = System.nanoTime()) {
                LockSupport.parkNanos(until - now);
            }
            return Status.OK;
        });
        RunOptions options = RunOptions.builder("function").target(1000.0).threads(2).operations(600L)
                .duration(Duration.ofSeconds(30)).build();
        OpResult read = new LoadRun(options, driver, null).run().operations().get(0);

        assertEquals(240, read.successes());
        assertEquals(360, read.failures());
        for (View view : new View[]{View.INTENDED, View.SERVICE}) {
            Histogram ok = read.histogram(view);
            assertTrue(ok.getValueAtPercentile(50) >= storeNs * 0.999, view.key() + " p50 " + ok.getValueAtPercentile(50));
            assertTrue(ok.getMinValue() >= storeNs * 0.999, view.key() + " min " + ok.getMinValue());
        }
        assertTrue(read.failedHistogram(View.SERVICE).getValueAtPercentile(50) < storeNs,
                "the failures were instant: " + read.failedHistogram(View.SERVICE).getValueAtPercentile(50));
        Histogram mixed = read.histogram(View.SERVICE).copy();
        mixed.add(read.failedHistogram(View.SERVICE));
        assertTrue(mixed.getValueAtPercentile(50) < storeNs, "mixed in, failures would have hidden the store's 2 ms");
    }

    private static String print(java.util.function.Consumer<PrintStream> writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        writer.accept(out);
        return bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    private static ObjectNode reportJson(Path log) throws Exception {
        try (LogSet set = LogSet.open(List.of(log), w -> { });
             PrintStream nowhere = new PrintStream(OutputStream.nullOutputStream())) {
            List<LogReport.TagTotal> totals = new LogReport(new LogReportOptions(), nowhere, null).run(set);
            return LogSummary.byOperation(totals, set.comments(), List.of(log.toString()));
        }
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new java.util.ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
