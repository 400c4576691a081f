package io.loadgen.core.summary;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.loadgen.core.summary.KnownRuns.MS;
import static io.loadgen.core.summary.KnownRuns.US;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JsonSummaryTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> VIEW_KEYS = List.of("min_us", "mean_us", "p50_us", "p90_us", "p95_us",
            "p99_us", "p99_9_us", "p99_99_us", "max_us", "count");

    @TempDir
    Path dir;

    @Test
    void topLevelHasEverySchemaKeyInOrder() throws IOException {
        JsonNode json = written(KnownRuns.throttled());
        assertEquals(List.of("schema_version", "version", "start_time", "seed", "run_id", "properties", "driver", "target_ops_per_sec", "throttled", "throughput_ops_per_sec", "threads",
                "duration_s", "stop_reason", "unissued_operations", "expected_interval_us",
                "corrected_expected_interval_us", "corrected_in_flight_per_thread", "corrected_note", "operations",
                "harness", "driver_stats", "diagnosis"), keys(json));
        assertEquals(100.0, json.get("corrected_expected_interval_us").asDouble());
        assertEquals(1, json.get("corrected_in_flight_per_thread").asInt());
        assertTrue(json.get("corrected_note").isNull());
    }

    @Test
    void aCorrectedViewThatIsNotApplicableIsNullWithANoteAndTheSameKeys() throws IOException {
        JsonNode json = written(KnownRuns.notApplicable());
        assertEquals(keys(written(KnownRuns.throttled())), keys(json));
        assertEquals(1_024_000.0, json.get("corrected_expected_interval_us").asDouble());
        assertEquals(1024, json.get("corrected_in_flight_per_thread").asInt());
        assertEquals("the expected interval 1024.000 ms = 1 thread x 1024 in flight / 1000 ops/s is not shorter"
                + " than the measured run (1000.000 ms): the correction could add nothing within the run",
                json.get("corrected_note").asText());
        for (JsonNode op : json.get("operations")) {
            assertEquals(List.of("count", "errors", "returns", "intended", "service", "corrected", "failed"), keys(op));
            assertTrue(op.get("corrected").isNull());
            assertTrue(op.get("intended").isObject());
        }
    }

    @Test
    void topLevelValuesDescribeTheRun() throws IOException {
        JsonNode json = written(KnownRuns.throttled());
        assertEquals("mockdb", json.get("driver").asText());
        assertEquals(110.0, json.get("target_ops_per_sec").asDouble());
        assertTrue(json.get("throttled").asBoolean());
        assertEquals(110.0, json.get("throughput_ops_per_sec").asDouble(), 1e-9); // 1100 ops / 10 s
        assertEquals(2, json.get("threads").asInt());
        assertEquals(10.0, json.get("duration_s").asDouble());
        assertEquals("duration", json.get("stop_reason").asText());
        assertEquals(7, json.get("unissued_operations").asLong());
        assertEquals(100.0, json.get("expected_interval_us").asDouble());
    }

    @Test
    void eachOperationHasCountErrorsNonZeroReturnsAndThreeViews() throws IOException {
        JsonNode ops = written(KnownRuns.throttled()).get("operations");
        assertEquals(List.of("READ", "UPDATE"), keys(ops));
        JsonNode read = ops.get("READ");
        assertEquals(List.of("count", "errors", "returns", "intended", "service", "corrected", "failed"), keys(read));
        assertEquals(1000, read.get("count").asLong());
        assertEquals(10, read.get("errors").asLong());
        assertEquals(MAPPER.readTree("{\"OK\":990,\"ERROR\":10}"), read.get("returns"));
        JsonNode update = ops.get("UPDATE");
        assertEquals(3, update.get("errors").asLong());
        assertEquals(MAPPER.readTree("{\"OK\":97,\"NOT_FOUND\":3}"), update.get("returns"));
    }

    @Test
    void viewStatsAreMicrosecondsFromTheRightHistogram() throws IOException {
        JsonNode read = written(KnownRuns.throttled()).get("operations").get("READ");
        JsonNode service = read.get("service");
        assertEquals(VIEW_KEYS, keys(service));
        assertEquals(1.0, service.get("min_us").asDouble());
        assertWithinPrecision(500 * US, service.get("p50_us").asDouble());
        assertWithinPrecision(990 * US, service.get("p99_us").asDouble());
        assertWithinPrecision(999 * US, service.get("p99_9_us").asDouble());
        assertWithinPrecision(1000 * US, service.get("max_us").asDouble());
        assertEquals(500.5, service.get("mean_us").asDouble(), 0.5);
        assertEquals(1000, service.get("count").asLong());
        assertWithinPrecision(1000 * US, read.get("intended").get("p50_us").asDouble());
        assertWithinPrecision(2000 * US, read.get("intended").get("max_us").asDouble());
        assertWithinPrecision(7 * MS, written(KnownRuns.throttled())
                .get("operations").get("UPDATE").get("intended").get("p99_us").asDouble());
    }

    @Test
    void everyViewValueIsTheHistogramsOwnNumberOverAThousand() throws IOException {
        RunResult result = KnownRuns.throttled();
        JsonNode read = written(result).get("operations").get("READ");
        for (View view : View.values()) {
            Histogram h = result.operations().get(0).histogram(view);
            JsonNode node = read.get(view.key());
            assertEquals(h.getMinValue() / 1000.0, node.get("min_us").asDouble(), view.key());
            assertEquals(h.getMean() / 1000.0, node.get("mean_us").asDouble(), view.key());
            assertEquals(h.getValueAtPercentile(90) / 1000.0, node.get("p90_us").asDouble(), view.key());
            assertEquals(h.getValueAtPercentile(95) / 1000.0, node.get("p95_us").asDouble(), view.key());
            assertEquals(h.getValueAtPercentile(99.99) / 1000.0, node.get("p99_99_us").asDouble(), view.key());
            assertEquals(h.getMaxValue() / 1000.0, node.get("max_us").asDouble(), view.key());
            assertEquals(h.getTotalCount(), node.get("count").asLong(), view.key());
        }
    }

    @Test
    void harnessHasLagStatsThenItsOwnEntries() throws IOException {
        JsonNode harness = written(KnownRuns.throttled()).get("harness");
        assertEquals(List.of("lag", "hiccup", "gc_pause_count", "gc_pause_total_ms", "gc_pause_max_ms", "behind_share",
                "harness_share", "verdict", "verdict_reasons", "verdict_text", "gc_count", "gc_time_ms"), keys(harness));
        for (String unmeasured : List.of("hiccup", "gc_pause_count", "verdict", "verdict_reasons", "verdict_text")) {
            assertTrue(harness.get(unmeasured).isNull(), unmeasured + ": a result without the harness's watch");
        }
        assertEquals(VIEW_KEYS, keys(harness.get("lag")));
        assertEquals(1100, harness.get("lag").get("count").asLong());
        assertWithinPrecision(20 * US, harness.get("lag").get("p50_us").asDouble());
        assertTrue(harness.get("gc_count").isIntegralNumber());
        assertEquals(3, harness.get("gc_count").asInt());
        assertEquals(12.5, harness.get("gc_time_ms").asDouble());
    }

    @Test
    void harnessHealthHasHiccupsGcPausesSharesAndTheVerdict() throws IOException {
        // Hiccups: 1000 sleeps on time, one 41 ms late; 3 GC pauses of 96 ms in all, the longest 41 ms.
        Histogram hiccups = Histograms.newHistogram();
        hiccups.recordValueWithCount(0, 1000);
        hiccups.recordValue(41 * MS);
        HarnessVerdict verdict = HarnessVerdict.of(io.loadgen.core.diagnosis.Evidences.healthy()
                        .delay(new io.loadgen.core.diagnosis.Latencies(1000, 0, 0, 0, 38 * MS, 41 * MS, 41 * MS))
                        .intended(new io.loadgen.core.diagnosis.Latencies(1000, 4 * MS, 4 * MS, 5 * MS, 42 * MS,
                                45 * MS, 45 * MS))
                        .undelayed(io.loadgen.core.diagnosis.Evidences.flat(4 * MS))
                        .gc(3, 41 * MS).diagnose(),
                new HarnessVerdict.Measured(true, 20 * US, hiccups.getMaxValue(), 3, 96 * MS, 41 * MS, 0.5, 0.001));
        RunResult t = KnownRuns.throttled();
        RunResult r = new RunResult(t.driver(), t.targetOpsPerSec(), t.threads(), t.runTimeNs(), t.operations(), t.lag(),
                t.expectedIntervalNs(), t.unissuedOps(), t.driverStats(), t.harness(), t.stopReason(), t.corrected(),
                new HarnessReport(hiccups, 3, 96 * MS, 41 * MS, 0.5, 0.001, verdict));
        JsonNode harness = written(r).get("harness");
        assertEquals(VIEW_KEYS, keys(harness.get("hiccup")));
        assertEquals(1001, harness.get("hiccup").get("count").asLong());
        assertWithinPrecision(41 * MS, harness.get("hiccup").get("max_us").asDouble());
        assertEquals(3, harness.get("gc_pause_count").asLong());
        assertEquals(96.0, harness.get("gc_pause_total_ms").asDouble());
        assertEquals(41.0, harness.get("gc_pause_max_ms").asDouble());
        assertEquals(0.5, harness.get("behind_share").asDouble());
        assertEquals(0.001, harness.get("harness_share").asDouble());
        assertEquals("behind", harness.get("verdict").asText());
        assertEquals(MAPPER.readTree("[\"lag\",\"gc\"]"), harness.get("verdict_reasons"));
        assertEquals(verdict.text(), harness.get("verdict_text").asText());
        assertTrue(verdict.text().startsWith("the load generator itself fell behind (harness_stalled"), verdict.text());
    }

    /**
     * A summary says which schema and loadgen wrote it, when the run's schedule began, from what seed and with which
     * properties; a password in a URI or a secret-named property never reaches the file.
     */
    @Test
    void runInfoNamesSchemaVersionStartSeedAndPropertiesWithSecretsMasked() throws IOException {
        RunResult t = KnownRuns.throttled();
        java.util.Map<String, String> props = new java.util.LinkedHashMap<>();
        props.put("redis.uri", "redis://:hunter2@127.0.0.1:6390");
        props.put("recordcount", "1000");
        props.put("redis.password", "hunter3");
        RunResult r = new RunResult(t.driver(), t.targetOpsPerSec(), t.threads(), t.runTimeNs(), t.operations(), t.lag(),
                t.expectedIntervalNs(), t.unissuedOps(), t.driverStats(), t.harness(), t.stopReason(), t.corrected(),
                t.health(), new RunInfo(1_795_325_933_044L, 7L, props));
        Path file = writeToTemp(r);
        JsonNode json = MAPPER.readTree(file.toFile());
        assertEquals(1, json.get("schema_version").asInt());
        assertTrue(json.get("schema_version").isInt());
        assertEquals("dev", json.get("version").asText(), "from classes, not a jar");
        assertEquals("2026-11-22T05:38:53.044Z", json.get("start_time").asText());
        assertEquals(7, json.get("seed").asLong());
        assertEquals(MAPPER.readTree("{\"recordcount\":\"1000\",\"redis.password\":\"***\","
                + "\"redis.uri\":\"redis://:***@127.0.0.1:6390\"}"), json.get("properties"));
        String text = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(!text.contains("hunter2") && !text.contains("hunter3"), text);
    }

    @Test
    void aSummaryWithoutRunInfoHasItsKeysNull() throws IOException {
        JsonNode json = written(KnownRuns.throttled());
        assertEquals(RunInfo.SCHEMA_VERSION, json.get("schema_version").asInt());
        for (String key : List.of("start_time", "seed", "run_id", "properties")) {
            assertTrue(json.get(key).isNull(), key);
        }
    }

    @Test
    void driverStatsKeepTheirNamesAndValues() throws IOException {
        JsonNode stats = written(KnownRuns.throttled()).get("driver_stats");
        assertEquals(MAPPER.readTree("{\"connections\":4,\"retries\":2}"), stats);
    }

    @Test
    void unthrottledRunKeepsKeysButHasNoTargetCorrectionOrLag() throws IOException {
        JsonNode json = written(KnownRuns.unthrottled());
        assertEquals(false, json.get("throttled").asBoolean());
        assertEquals(0.0, json.get("target_ops_per_sec").asDouble());
        assertEquals(0.0, json.get("expected_interval_us").asDouble());
        JsonNode read = json.get("operations").get("READ");
        assertTrue(read.get("corrected").isNull(), "corrected present but null");
        assertTrue(read.get("service").isObject());
        assertTrue(json.get("harness").get("lag").isNull(), "lag present but null");
    }

    @Test
    void writtenFileIsPrettyPrintedToJson() throws IOException {
        RunResult result = KnownRuns.throttled();
        String text = Files.readString(writeToTemp(result), StandardCharsets.UTF_8);
        assertTrue(text.lines().count() > 20, "one key per line");
        assertEquals(MAPPER.writeValueAsString(JsonSummary.toJson(result)),
                MAPPER.writeValueAsString(MAPPER.readTree(text)), "same content as toJson");
    }

    private static void assertWithinPrecision(long trueNs, double printedUs) {
        Histogram shape = Histograms.newHistogram();
        double low = shape.lowestEquivalentValue(trueNs) / 1000.0;
        double high = shape.highestEquivalentValue(trueNs) / 1000.0;
        assertTrue(printedUs >= low && printedUs <= high,
                () -> printedUs + " µs not within [" + low + ", " + high + "]");
    }

    private Path writeToTemp(RunResult result) throws IOException {
        Path file = dir.resolve("summary.json");
        JsonSummary.write(result, file);
        return file;
    }

    private JsonNode written(RunResult result) throws IOException {
        return MAPPER.readTree(writeToTemp(result).toFile());
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
