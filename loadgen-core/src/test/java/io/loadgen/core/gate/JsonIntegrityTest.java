package io.loadgen.core.gate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.JsonSummary;
import io.loadgen.core.summary.RunResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A gate refuses a JSON summary that contradicts itself, as it refuses a damaged log (issue 24, item 4): the
 * contradictions found, and a real run's summary that has none.
 */
class JsonIntegrityTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text);
    }

    @Test
    void aRealRunsSummaryHasNoContradiction() throws Exception {
        RunResult r = new LoadRun(RunOptions.builder("noop-like").target(1000.0).duration(Duration.ofMillis(300)).build(),
                new io.loadgen.core.driver.DriverProvider() {
            @Override
            public String name() {
                return "noop-like";
            }

            @Override
            public String description() {
                return "returns OK at once";
            }

            @Override
            public List<io.loadgen.core.driver.PropertySpec> properties() {
                return List.of();
            }

            @Override
            public List<String> operations() {
                return List.of("READ");
            }

            @Override
            public io.loadgen.core.driver.Driver open(io.loadgen.core.driver.DriverProperties p,
                                                      io.loadgen.core.driver.DriverContext c) {
                return op -> io.loadgen.core.driver.Status.OK;
            }
        }, null).run();
        assertEquals(List.of(), JsonIntegrity.contradictions(JsonSummary.toJson(r)));
    }

    @Test
    void percentilesOutOfOrderNegativeValuesAndMoreFailuresThanOperationsAreFound() throws Exception {
        JsonNode bad = json("""
                {"schema_version": 9, "operations": {"READ": {"count": 10, "errors": 12,
                  "intended": {"count": 10, "min_us": 5, "p50_us": 10, "p99_us": 50, "max_us": 40},
                  "service": {"count": 11, "min_us": -1, "p50_us": 10, "max_us": 20}}}}
                """);
        assertEquals(List.of(
                "schema_version 9 is not one this loadgen reads (1 to 1)",
                "READ.errors 12 is above its count 10",
                "READ.intended p99_us 50 is above its max_us 40",
                "READ.service.count 11 is above the type's count 10",
                "READ.service min_us -1 is negative"), JsonIntegrity.contradictions(bad));
    }

    @Test
    void aGateOnASummaryThatContradictsItselfFailsAsDamagedInput() throws Exception {
        Path file = dir.resolve("edited.json");
        Files.writeString(file, """
                {"driver": "mockdb", "throttled": true, "throughput_ops_per_sec": 100.0, "duration_s": 10.0,
                 "operations": {"READ": {"count": 1000, "errors": 0,
                   "intended": {"count": 1000, "min_us": 5, "p50_us": 10, "p90_us": 20, "p95_us": 30, "p99_us": 500,
                                "p99_9_us": 60, "p99_99_us": 70, "max_us": 80, "mean_us": 12},
                   "service": {"count": 1000, "min_us": 5, "p50_us": 10, "p90_us": 20, "p95_us": 30, "p99_us": 40,
                                "p99_9_us": 60, "p99_99_us": 70, "max_us": 80, "mean_us": 12}}},
                 "harness": {}, "driver_stats": {}}
                """);
        List<Verdict> verdicts = Gate.evaluate(List.of(file), TimeRange.ALL,
                List.of(RuleParser.parse("READ.intended.p99 < 1ms")), null, null, w -> { });
        assertTrue(Gate.inputDamaged(verdicts), verdicts.toString());
        assertEquals(Verdict.damagedInput(file.toString(), "the summary contradicts itself: READ.intended p99_us 500 is"
                + " above its p99_9_us 60; loadgen writes none of these, so it was edited, cut or damaged"), verdicts.get(0));
    }
}
