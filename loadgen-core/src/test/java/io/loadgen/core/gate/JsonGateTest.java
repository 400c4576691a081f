package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Rules judged against a hand-built JSON summary whose every value is known. */
class JsonGateTest {
    /**
     * READ: 90,000 operations, 45 errors, intended p99 4.2 ms, max 41 ms; UPDATE: 9,135 operations, intended
     * p99 6 ms, max 1.2 s; lag p99 80 us; 9,913.5 ops/s over 10 s.
     */
    static final String SUMMARY = """
            {
              "driver": "mockdb", "target_ops_per_sec": 10000.0, "throttled": true,
              "throughput_ops_per_sec": 9913.5, "threads": 4, "duration_s": 10.0, "stop_reason": "duration",
              "unissued_operations": 0, "expected_interval_us": 400.0,
              "operations": {
                "READ": { "count": 90000, "errors": 45, "returns": { "OK": 89955, "ERROR": 45 },
                  "intended": %s, "service": %s, "corrected": %s },
                "UPDATE": { "count": 9135, "errors": 0, "returns": { "OK": 9135 },
                  "intended": %s, "service": %s, "corrected": %s }
              },
              "harness": { "lag": %s, "gc_count": 0, "gc_time_ms": 0 },
              "driver_stats": {}
            }
            """.formatted(
            view(200, 900, 700, 1500, 2500, 4200, 9000, 30000, 41000, 90000),
            view(150, 500, 400, 900, 1200, 2000, 5000, 20000, 40000, 90000),
            view(150, 600, 450, 1000, 1500, 3000, 8000, 25000, 40000, 91000),
            view(300, 1000, 800, 2000, 3000, 6000, 100000, 1000000, 1200000, 9135),
            view(250, 700, 600, 1000, 1500, 3000, 9000, 90000, 200000, 9135),
            view(250, 800, 650, 1200, 1800, 4000, 50000, 150000, 200000, 9200),
            view(1, 10, 5, 20, 40, 80, 300, 900, 1000, 99135));

    @TempDir
    Path dir;

    static String view(double min, double mean, double p50, double p90, double p95, double p99, double p999,
                       double p9999, double max, long count) {
        return ("{\"min_us\": %s, \"mean_us\": %s, \"p50_us\": %s, \"p90_us\": %s, \"p95_us\": %s, \"p99_us\": %s,"
                + " \"p99_9_us\": %s, \"p99_99_us\": %s, \"max_us\": %s, \"count\": %d}")
                .formatted(min, mean, p50, p90, p95, p99, p999, p9999, max, count);
    }

    private Path summary(String json) throws IOException {
        Path file = dir.resolve("run.json");
        Files.writeString(file, json);
        return file;
    }

    private List<Verdict> gate(Path file, String... rules) throws IOException {
        List<Rule> parsed = new ArrayList<>();
        for (String r : rules) {
            parsed.add(RuleParser.parse(r));
        }
        return Gate.evaluate(List.of(file), TimeRange.ALL, parsed, null, null, w -> {
            throw new AssertionError("no warning expected: " + w);
        });
    }

    /**
     * A summary of schema 1 (schema_version, version, start_time, seed, properties ahead of the old keys) is judged
     * exactly as the same summary written before those keys existed: gates read old and new files alike.
     */
    @Test
    void aSchemaOneSummaryIsJudgedAsTheOlderFileWithoutItsHeader() throws IOException {
        String schemaOne = SUMMARY.replaceFirst("\\{", "{ \"schema_version\": 1, \"version\": \"0.1.0\","
                + " \"start_time\": \"2026-11-25T16:27:21.123Z\", \"seed\": 7,"
                + " \"properties\": { \"mockdb.delay\": \"4ms\" },");
        String[] rules = {"READ.intended.p99 < 5ms", "UPDATE.intended.p99 < 5ms", "READ.errors < 0.1%",
                "throughput > 9900/s", "harness.lag.p99 < 1ms"};
        List<String> old = gate(summary(SUMMARY), rules).stream().map(Verdict::toString).toList();
        List<String> current = gate(summary(schemaOne), rules).stream().map(Verdict::toString).toList();
        assertEquals(old, current);
        assertEquals(5, current.size());
    }

    @Test
    void rulesReadTheSummaryAndPassOrFail() throws IOException {
        List<Verdict> v = gate(summary(SUMMARY),
                "READ.intended.p99 < 5ms",
                "UPDATE.intended.p99 < 5ms",
                "READ.intended.p(99.9) <= 9ms",
                "read.service.p50 < 1ms",
                "READ.corrected.p99.99 < 20ms",
                "harness.lag.p99 < 1ms",
                "READ.intended.mean < 1ms",
                "READ.intended.min > 100us",
                "READ.intended.count >= 90000");
        assertEquals(List.of(
                new Verdict("READ.intended.p99 < 5ms", "4.2 ms", "< 5 ms", true),
                new Verdict("UPDATE.intended.p99 < 5ms", "6 ms", "< 5 ms", false),
                new Verdict("READ.intended.p(99.9) <= 9ms", "9 ms", "<= 9 ms", true),
                new Verdict("read.service.p50 < 1ms", "400 us", "< 1 ms", true),
                new Verdict("READ.corrected.p99.99 < 20ms", "25 ms", "< 20 ms", false),
                new Verdict("harness.lag.p99 < 1ms", "80 us", "< 1 ms", true),
                new Verdict("READ.intended.mean < 1ms", "900 us", "< 1 ms", true),
                new Verdict("READ.intended.min > 100us", "200 us", "> 100 us", true),
                new Verdict("READ.intended.count >= 90000", "90000", ">= 90000", true)), v);
    }

    @Test
    void starGivesOneVerdictPerOperationType() throws IOException {
        assertEquals(List.of(
                new Verdict("READ.intended.max < 1s", "41 ms", "< 1 s", true),
                new Verdict("UPDATE.intended.max < 1s", "1.2 s", "< 1 s", false)),
                gate(summary(SUMMARY), "*.intended.max < 1s"));
    }

    @Test
    void errorsAsAShareOrACountAndThroughput() throws IOException {
        assertEquals(List.of(
                new Verdict("READ.errors < 0.1%", "0.05% (45 of 90000)", "< 0.1%", true),
                new Verdict("READ.errors < 0.01%", "0.05% (45 of 90000)", "< 0.01%", false),
                new Verdict("errors <= 45", "45", "<= 45", true),
                new Verdict("UPDATE.errors < 1", "0", "< 1", true),
                new Verdict("throughput > 9500/s", "9914/s (succeeded; 45 failed not counted)", "> 9500/s", true),
                new Verdict("UPDATE.throughput > 1000/s", "914/s", "> 1000/s", false)),
                gate(summary(SUMMARY), "READ.errors < 0.1%", "READ.errors < 0.01%", "errors <= 45",
                        "UPDATE.errors < 1", "throughput > 9500/s", "UPDATE.throughput > 1000/s"));
    }

    @Test
    void aPercentileTheSummaryDoesNotHoldIsBadInputNamingTheOnesItDoes() throws IOException {
        Path file = summary(SUMMARY);
        BadInputException e = assertThrows(BadInputException.class, () -> gate(file, "READ.intended.p97 < 5ms"));
        assertEquals("rule 'READ.intended.p97 < 5ms': " + file + " holds p50, p90, p95, p99, p99.9, p99.99, min, max,"
                + " mean and count; for p97 gate on the run's interval log (loadgen run --hlog), which holds every"
                + " percentile", e.getMessage());
    }

    @Test
    void anUnknownOperationIsBadInputNotAPass() throws IOException {
        Path file = summary(SUMMARY);
        BadInputException e = assertThrows(BadInputException.class, () -> gate(file, "INSERT.intended.p99 < 5ms"));
        assertEquals("rule 'INSERT.intended.p99 < 5ms': " + file + " has no operation 'INSERT'; it has READ, UPDATE",
                e.getMessage());
    }

    @Test
    void windowsOnAJsonSummaryAreBadInput() throws IOException {
        Path file = summary(SUMMARY);
        BadInputException e = assertThrows(BadInputException.class,
                () -> gate(file, "READ.intended.p99 < 5ms over 10s windows"));
        assertEquals("rule 'READ.intended.p99 < 5ms over 10s windows': windows need an interval log; " + file
                + " is a JSON summary of the whole run (write a log with loadgen run --hlog FILE)", e.getMessage());
    }

    @Test
    void correctedAndLagOfAnUnthrottledRunAreBadInputSayingWhy() throws IOException {
        String unthrottled = SUMMARY.replace("\"throttled\": true", "\"throttled\": false")
                .replaceAll("\"corrected\": \\{[^}]*}", "\"corrected\": null")
                .replaceAll("\"lag\": \\{[^}]*}", "\"lag\": null");
        Path file = summary(unthrottled);
        BadInputException corrected = assertThrows(BadInputException.class,
                () -> gate(file, "READ.corrected.p99 < 5ms"));
        assertEquals("rule 'READ.corrected.p99 < 5ms': " + file + " has no corrected view for READ (the run had no"
                + " --target, so there is no schedule to measure it against)", corrected.getMessage());
        BadInputException lag = assertThrows(BadInputException.class, () -> gate(file, "harness.lag.p99 < 5ms"));
        assertEquals("rule 'harness.lag.p99 < 5ms': " + file + " has no harness.lag (the run had no --target, so"
                + " there is no schedule to measure it against)", lag.getMessage());
    }

    @Test
    void correctedThatIsNotApplicableIsBadInputQuotingTheNote() throws IOException {
        String note = "the expected interval 204.800 ms = 1 thread x 1024 in flight / 5000 ops/s is not shorter"
                + " than the measured run (150.000 ms): the correction could add nothing within the run";
        Path file = summary(SUMMARY.replace("\"expected_interval_us\": 400.0,", "\"expected_interval_us\": 400.0,"
                        + " \"corrected_note\": \"" + note + "\",")
                .replaceAll("\"corrected\": \\{[^}]*}", "\"corrected\": null"));
        BadInputException e = assertThrows(BadInputException.class, () -> gate(file, "READ.corrected.p99 < 5ms"));
        assertEquals("rule 'READ.corrected.p99 < 5ms': " + file + " has no corrected view for READ (not applicable: "
                + note + "; gate on intended)", e.getMessage());
        assertEquals(new Verdict("READ.intended.p99 < 5ms", "4.2 ms", "< 5 ms", true),
                gate(file, "READ.intended.p99 < 5ms").get(0), "the other views are still gated");
    }

    @Test
    void aSummaryWithoutErrorCountsIsBadInputForErrorRulesNotAPass() throws IOException {
        // loadgen report --json writes the run's schema from a log; without OP.status lines, "errors": null.
        Path file = summary(SUMMARY.replace("\"errors\": 45", "\"errors\": null"));
        BadInputException e = assertThrows(BadInputException.class, () -> gate(file, "READ.errors < 0.1%"));
        assertEquals("rule 'READ.errors < 0.1%': " + file + " has no error count for READ (loadgen report made it"
                + " from a log without OP.status lines); gate errors on the run's own JSON (loadgen run --json)",
                e.getMessage());
        assertEquals(new Verdict("READ.intended.p99 < 5ms", "4.2 ms", "< 5 ms", true),
                gate(file, "READ.intended.p99 < 5ms").get(0), "its latencies are still gated");
    }

    @Test
    void anOperationThatRanNothingFailsItsLatencyRules() throws IOException {
        String empty = SUMMARY.replace("\"count\": 9135, \"errors\": 0", "\"count\": 0, \"errors\": 0")
                .replace("\"count\": 9135}", "\"count\": 0}");
        List<Verdict> v = gate(summary(empty), "UPDATE.intended.p99 < 5ms", "UPDATE.errors < 1%");
        assertEquals(List.of(
                new Verdict("UPDATE.intended.p99 < 5ms", "no data", "< 5 ms", false),
                new Verdict("UPDATE.errors < 1%", "no operations", "< 1%", false)), v);
    }

    @Test
    void aFileOfNeitherKindOrAJsonOfAnotherToolIsBadInput() throws IOException {
        Path text = dir.resolve("run.txt");
        Files.writeString(text, "[OVERALL], RunTime(ms), 1000\n");
        BadInputException neither = assertThrows(BadInputException.class, () -> gate(text, "throughput > 1/s"));
        assertEquals(text + " is neither a JSON summary (loadgen run --json FILE) nor an interval log"
                + " (loadgen run --hlog FILE)", neither.getMessage());
        Path other = summary("{\"name\": \"k6\"}");
        BadInputException notOurs = assertThrows(BadInputException.class, () -> gate(other, "throughput > 1/s"));
        assertEquals(other + " is JSON but not a loadgen summary (it has no 'operations'); write one with"
                + " loadgen run --json FILE", notOurs.getMessage());
        Path missing = dir.resolve("nope.json");
        BadInputException none = assertThrows(BadInputException.class, () -> gate(missing, "throughput > 1/s"));
        assertEquals(missing + ": no such file; give a JSON summary (loadgen run --json FILE) or an interval log"
                + " (loadgen run --hlog FILE)", none.getMessage());
    }

    /** The summary as a run with a harness verdict writes it. */
    private static String withVerdict(String status, String reasons, String text) {
        return SUMMARY.replace("\"gc_count\": 0,", "\"verdict\": \"" + status + "\", \"verdict_reasons\": " + reasons
                + ", \"verdict_text\": \"" + text + "\", \"gc_count\": 0,");
    }

    @Test
    void theHarnessVerdictPassesAHealthyRunAndFailsOneWhoseHarnessFellBehind() throws IOException {
        assertEquals(List.of(new Verdict("harness.verdict == healthy", "healthy", "== healthy", true)),
                gate(summary(withVerdict("healthy", "[]", "harness healthy: lag p99 12 us")),
                        "harness.verdict == healthy"));
        Path behind = summary(withVerdict("behind", "[\"capacity\", \"gc\"]", "the load generator itself fell behind"));
        assertEquals(List.of(
                new Verdict("harness.verdict == healthy", "behind (capacity, gc)", "== healthy", false),
                new Verdict("harness.verdict != behind", "behind (capacity, gc)", "!= behind", false),
                new Verdict("harness.verdict == behind", "behind (capacity, gc)", "== behind", true)),
                gate(behind, "harness.verdict == healthy", "harness.verdict != behind", "harness.verdict == behind"));
    }

    @Test
    void aSummaryWithoutAVerdictIsBadInputForAVerdictRuleNotAPass() throws IOException {
        Path file = summary(SUMMARY);
        BadInputException e = assertThrows(BadInputException.class, () -> gate(file, "harness.verdict == healthy"));
        assertEquals("rule 'harness.verdict == healthy': " + file + " has no harness.verdict (an older loadgen wrote"
                + " it); gate on the JSON summary of a run (loadgen run --json), or on the run itself (run --gate)",
                e.getMessage());
    }

    /** The summary as a run with a diagnosis writes it: these causes, most important first. */
    private static String withCauses(String... codes) {
        StringBuilder causes = new StringBuilder();
        for (String c : codes) {
            causes.append(causes.length() == 0 ? "" : ", ").append("{\"code\": \"").append(c)
                    .append("\", \"text\": \"...\", \"figures\": {}}");
        }
        int end = SUMMARY.lastIndexOf('}');
        return SUMMARY.substring(0, end) + ", \"diagnosis\": {\"headline\": \"...\", \"causes\": [" + causes + "]}\n}";
    }

    @Test
    void aDiagnosisRuleAsksWhetherTheRunsCausesNameOne() throws IOException {
        Path stalled = summary(withCauses("target_stalled", "harness_stalled"));
        assertEquals(List.of(
                new Verdict("diagnosis != harness_stalled", "causes: target_stalled, harness_stalled", "!= harness_stalled",
                        false),
                new Verdict("diagnosis == target_stalled", "causes: target_stalled, harness_stalled", "== target_stalled",
                        true),
                new Verdict("diagnosis == ok", "causes: target_stalled, harness_stalled", "== ok", false),
                new Verdict("diagnosis != harness_saturated", "causes: target_stalled, harness_stalled",
                        "!= harness_saturated", true)),
                gate(stalled, "diagnosis != harness_stalled", "diagnosis == target_stalled", "diagnosis == ok",
                        "diagnosis != harness_saturated"));
        assertEquals(List.of(new Verdict("diagnosis == ok", "causes: ok, machine_noise", "== ok", true)),
                gate(summary(withCauses("ok", "machine_noise")), "diagnosis == ok"));
    }

    @Test
    void aSummaryWithoutADiagnosisIsBadInputForADiagnosisRuleNotAPass() throws IOException {
        Path file = summary(SUMMARY);
        BadInputException e = assertThrows(BadInputException.class, () -> gate(file, "diagnosis != harness_stalled"));
        assertEquals("rule 'diagnosis != harness_stalled': " + file + " has no diagnosis (an older loadgen wrote it);"
                + " gate on the JSON summary of a run (loadgen run --json), or on the run itself (run --gate)",
                e.getMessage());
    }

    @Test
    void throughputCountsTheOperationsThatSucceeded() throws IOException {
        // The run: 24,000 operations in 12 s, 20,420 of them failed. 2,000/s completed, but only
        // 3,580 / 12 s = 298/s succeeded: throughput > 1900/s must fail.
        String failing = """
                {
                  "driver": "redis", "target_ops_per_sec": 2000.0, "throttled": true,
                  "throughput_ops_per_sec": 2000.0, "threads": 4, "duration_s": 12.0, "stop_reason": "duration",
                  "operations": {
                    "INSERT": { "count": 24000, "errors": 20420, "returns": { "OK": 3580, "ERROR": 20420 },
                      "intended": %s, "service": %s }
                  },
                  "harness": { "gc_count": 0 },
                  "driver_stats": {}
                }
                """.formatted(view(100, 300, 250, 500, 700, 900, 2000, 3000, 4000, 3580),
                view(100, 300, 250, 500, 700, 900, 2000, 3000, 4000, 3580));
        assertEquals(List.of(new Verdict("throughput > 1900/s", "298/s (succeeded; 20420 failed not counted)", "> 1900/s",
                false)), gate(summary(failing), "throughput > 1900/s"));
    }
}
