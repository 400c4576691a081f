package io.loadgen.core.summary;

import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.loadgen.core.summary.KnownRuns.US;
import static io.loadgen.core.summary.KnownRuns.highestMicros;
import static io.loadgen.core.summary.KnownRuns.lowestMicros;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

class YcsbTextSummaryTest {
    private static final Pattern LINE = Pattern.compile("^\\[([^\\]]+)\\], ([^,]+), (\\S+)$");

    /** The percentile lines of 1..1000 µs: the value at rank round(p% × 1000), in µs. */
    private static final Map<String, Long> READ_SERVICE_PERCENTILES_US = new LinkedHashMap<>();

    static {
        READ_SERVICE_PERCENTILES_US.put("50thPercentileLatency(us)", 500L);
        READ_SERVICE_PERCENTILES_US.put("90thPercentileLatency(us)", 900L);
        READ_SERVICE_PERCENTILES_US.put("95thPercentileLatency(us)", 950L);
        READ_SERVICE_PERCENTILES_US.put("99thPercentileLatency(us)", 990L);
        READ_SERVICE_PERCENTILES_US.put("99.9PercentileLatency(us)", 999L);
        READ_SERVICE_PERCENTILES_US.put("99.99PercentileLatency(us)", 1000L);
    }

    record Line(String metric, String name, String value) {
    }

    @Test
    void everyLineHasYcsbsMetricNameValueShape() {
        String text = print(KnownRuns.throttled());
        for (String line : text.split(System.lineSeparator())) {
            assertTrue(LINE.matcher(line).matches(), () -> "not a YCSB line: '" + line + "'");
        }
    }

    @Test
    void overallReportsRunTimeInWholeMillisAndThroughputAsDouble() {
        List<Line> lines = parse(print(KnownRuns.throttled()));
        assertEquals(new Line("OVERALL", "RunTime(ms)", "10000"), lines.get(0));
        assertEquals(new Line("OVERALL", "Throughput(ops/sec)", "110.0"), lines.get(1)); // 1100 ops / 10 s
    }

    @Test
    void blocksFollowResultOrderServiceThenIntendedThenCorrectedThenDriverAndHarness() {
        List<String> metrics = metricsInOrder(parse(print(KnownRuns.throttled())));
        assertEquals(List.of("OVERALL", "READ", "Intended-READ", "Corrected-READ",
                "UPDATE", "Intended-UPDATE", "Corrected-UPDATE", "CORRECTED", "DRIVER", "HARNESS"), metrics);
    }

    @Test
    void correctedBasisGivesTheIntervalAndTheInFlightItCameFrom() {
        List<Line> lines = parse(print(KnownRuns.throttled()));
        assertEquals("true", value(lines, "CORRECTED", "Applicable"));
        assertEquals("100.0", value(lines, "CORRECTED", "ExpectedInterval(us)"));
        assertEquals("1", value(lines, "CORRECTED", "InFlightPerThread"));
    }

    @Test
    void aCorrectedViewThatIsNotApplicableHasNoBlocksButItsBasis() {
        List<Line> lines = parse(print(KnownRuns.notApplicable()));
        assertEquals(List.of("OVERALL", "READ", "Intended-READ", "UPDATE", "Intended-UPDATE", "CORRECTED",
                "DRIVER", "HARNESS"), metricsInOrder(lines));
        assertEquals("false", value(lines, "CORRECTED", "Applicable"));
        assertEquals("1024000.0", value(lines, "CORRECTED", "ExpectedInterval(us)"));
        assertEquals("1024", value(lines, "CORRECTED", "InFlightPerThread"));
    }

    @Test
    void serviceBlockNamesFollowYcsbIncludingOrdinalPercentilesAndReturns() {
        List<String> names = namesOf(parse(print(KnownRuns.throttled())), "READ");
        List<String> expected = new ArrayList<>(List.of(
                "Operations", "AverageLatency(us)", "MinLatency(us)", "MaxLatency(us)"));
        expected.addAll(READ_SERVICE_PERCENTILES_US.keySet());
        expected.addAll(List.of("Return=OK", "Return=ERROR"));
        assertEquals(expected, names);
    }

    @Test
    void serviceBlockReportsRecordedDistributionInWholeMicros() {
        List<Line> lines = parse(print(KnownRuns.throttled()));
        assertEquals("1000", value(lines, "READ", "Operations"));
        assertEquals("1", value(lines, "READ", "MinLatency(us)"));
        assertWithinPrecision(1000, value(lines, "READ", "MaxLatency(us)"));
        READ_SERVICE_PERCENTILES_US.forEach((name, us) -> assertWithinPrecision(us, value(lines, "READ", name)));
        double mean = Double.parseDouble(value(lines, "READ", "AverageLatency(us)"));
        assertEquals(500.5, mean, 0.5, "mean of 1..1000 µs within half a µs of bucket precision");
    }

    @Test
    void intendedBlockReportsIntendedHistogramNotService() {
        List<Line> lines = parse(print(KnownRuns.throttled()));
        assertWithinPrecision(1000, value(lines, "Intended-READ", "50thPercentileLatency(us)"));
        assertWithinPrecision(2000, value(lines, "Intended-READ", "MaxLatency(us)"));
        assertEquals("2", value(lines, "Intended-READ", "MinLatency(us)"));
        assertWithinPrecision(7000, value(lines, "Intended-UPDATE", "99thPercentileLatency(us)"));
    }

    @Test
    void correctedBlockEqualsCorrectedHistogramTruncatedToMicros() {
        RunResult result = KnownRuns.throttled();
        List<Line> lines = parse(print(result));
        Histogram corrected = result.operations().get(0).histogram(View.CORRECTED);
        assertTrue(corrected.getTotalCount() > 1000, "the correction added values");
        assertEquals(String.valueOf(corrected.getTotalCount()), value(lines, "Corrected-READ", "Operations"));
        assertEquals(String.valueOf(corrected.getValueAtPercentile(99.9) / US),
                value(lines, "Corrected-READ", "99.9PercentileLatency(us)"));
        assertEquals(Double.toString(corrected.getMean() / 1000.0),
                value(lines, "Corrected-READ", "AverageLatency(us)"));
    }

    @Test
    void returnLinesAppearOnlyInServiceBlockAndOnlyForStatusesThatOccurred() {
        List<Line> lines = parse(print(KnownRuns.throttled()));
        assertEquals("990", value(lines, "READ", "Return=OK"));
        assertEquals("10", value(lines, "READ", "Return=ERROR"));
        assertEquals("97", value(lines, "UPDATE", "Return=OK"));
        assertEquals("3", value(lines, "UPDATE", "Return=NOT_FOUND"));
        for (Line line : lines) {
            if (line.name().startsWith("Return=")) {
                assertTrue(line.metric().equals("READ") || line.metric().equals("UPDATE"), line::toString);
                assertFalse(line.value().equals("0"), line::toString);
            }
        }
    }

    @Test
    void unthrottledRunOmitsCorrectedBlockButKeepsIntended() {
        List<String> metrics = metricsInOrder(parse(print(KnownRuns.unthrottled())));
        assertEquals(List.of("OVERALL", "READ", "Intended-READ", "UPDATE", "Intended-UPDATE",
                "CORRECTED", "DRIVER", "HARNESS"), metrics);
    }

    @Test
    void operationThatNeverCompletedPrintsZerosLikeAnEmptyHistogram() {
        RunResult base = KnownRuns.throttled();
        RunResult result = new RunResult(base.driver(), base.targetOpsPerSec(), base.threads(), base.runTimeNs(),
                List.of(KnownRuns.empty("SCAN")), base.lag(), base.expectedIntervalNs(), 0,
                Map.of(), Map.of(), "duration");
        List<Line> lines = parse(print(result));
        assertEquals("0", value(lines, "SCAN", "Operations"));
        assertEquals("0.0", value(lines, "SCAN", "AverageLatency(us)"));
        assertEquals("0", value(lines, "SCAN", "MinLatency(us)"));
        assertEquals("0", value(lines, "SCAN", "MaxLatency(us)"));
        assertEquals("0", value(lines, "Intended-SCAN", "99.99PercentileLatency(us)"));
        assertTrue(namesOf(lines, "SCAN").stream().noneMatch(n -> n.startsWith("Return=")));
        assertEquals("0.0", value(lines, "OVERALL", "Throughput(ops/sec)"));
    }

    @Test
    void driverAndHarnessStatsPrintAsGiven() {
        List<Line> lines = parse(print(KnownRuns.throttled()));
        assertEquals("4", value(lines, "DRIVER", "connections"));
        assertEquals("2", value(lines, "DRIVER", "retries"));
        assertEquals("3", value(lines, "HARNESS", "gc_count"));
        assertEquals("12.5", value(lines, "HARNESS", "gc_time_ms"));
    }

    @Test
    void ordinalsFollowYcsbSuffixRulesAndNonIntegersPrintAsIs() {
        assertEquals("1st", YcsbTextSummary.ordinal(1));
        assertEquals("2nd", YcsbTextSummary.ordinal(2));
        assertEquals("3rd", YcsbTextSummary.ordinal(3));
        assertEquals("4th", YcsbTextSummary.ordinal(4));
        assertEquals("11th", YcsbTextSummary.ordinal(11));
        assertEquals("12th", YcsbTextSummary.ordinal(12));
        assertEquals("13th", YcsbTextSummary.ordinal(13));
        assertEquals("21st", YcsbTextSummary.ordinal(21));
        assertEquals("50th", YcsbTextSummary.ordinal(50));
        assertEquals("99.9", YcsbTextSummary.ordinal(99.9));
        assertEquals("99.99", YcsbTextSummary.ordinal(99.99));
    }

    private static void assertWithinPrecision(long trueMicros, String printed) {
        long value = Long.parseLong(printed);
        long low = lowestMicros(trueMicros * US);
        long high = highestMicros(trueMicros * US);
        assertTrue(value >= low && value <= high,
                () -> printed + " µs is not within [" + low + ", " + high + "] for a true " + trueMicros + " µs");
    }

    @Test
    void yscbsGcLinesFollowOverallAndCleanupFollowsTheOperations() {
        YcsbClientStats client = new YcsbClientStats(List.of(new YcsbClientStats.Collector("G1 Young Generation", 3, 40),
                new YcsbClientStats.Collector("G1 Old Generation", 1, 10)), 2_048_000);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        YcsbTextSummary.write(KnownRuns.throttled(), client, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<Line> lines = parse(bytes.toString(StandardCharsets.UTF_8));
        // The run is 10 s: 50 ms of GC is 0.5% of it, as YCSB computes it (GC ms / run ms x 100).
        assertEquals(List.of(new Line("TOTAL_GCS_G1 Young Generation", "Count", "3"),
                new Line("TOTAL_GC_TIME_G1 Young Generation", "Time(ms)", "40"),
                new Line("TOTAL_GC_TIME_%_G1 Young Generation", "Time(%)", "0.4"),
                new Line("TOTAL_GCS_G1 Old Generation", "Count", "1"),
                new Line("TOTAL_GC_TIME_G1 Old Generation", "Time(ms)", "10"),
                new Line("TOTAL_GC_TIME_%_G1 Old Generation", "Time(%)", "0.1"),
                new Line("TOTAL_GCs", "Count", "4"),
                new Line("TOTAL_GC_TIME", "Time(ms)", "50"),
                new Line("TOTAL_GC_TIME_%", "Time(%)", "0.5")), lines.subList(2, 11));
        List<Line> cleanup = lines.stream().filter(l -> l.metric().equals("CLEANUP")).toList();
        assertEquals(new Line("CLEANUP", "Operations", "1"), cleanup.get(0));
        assertEquals(new Line("CLEANUP", "MinLatency(us)", "2048"), cleanup.get(2), "2.048 ms in whole us");
        int first = lines.indexOf(cleanup.get(0));
        assertTrue(lines.get(first - 1).metric().contains("UPDATE"), "after the last operation: " + lines.get(first - 1));
        assertEquals("CORRECTED", lines.get(first + cleanup.size()).metric());
        assertFalse(print(KnownRuns.throttled()).contains("CLEANUP"), "a summary without a run's client has none");
    }

    static String print(RunResult result) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        YcsbTextSummary.write(result, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static List<Line> parse(String text) {
        List<Line> lines = new ArrayList<>();
        for (String line : text.split(System.lineSeparator())) {
            Matcher m = LINE.matcher(line);
            if (!m.matches()) {
                fail("not a YCSB line: '" + line + "'");
            }
            lines.add(new Line(m.group(1), m.group(2), m.group(3)));
        }
        return lines;
    }

    private static String value(List<Line> lines, String metric, String name) {
        List<String> found = lines.stream()
                .filter(l -> l.metric().equals(metric) && l.name().equals(name)).map(Line::value).toList();
        assertEquals(1, found.size(), () -> "[" + metric + "], " + name + " lines: " + found);
        return found.get(0);
    }

    private static List<String> namesOf(List<Line> lines, String metric) {
        return lines.stream().filter(l -> l.metric().equals(metric)).map(Line::name).toList();
    }

    private static List<String> metricsInOrder(List<Line> lines) {
        return lines.stream().map(Line::metric).distinct().toList();
    }
}
