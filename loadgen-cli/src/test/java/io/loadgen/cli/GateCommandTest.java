package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Document;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code loadgen gate} and {@code loadgen run --gate}, end to end in this JVM: exit codes, tables, files. */
class GateCommandTest {
    @TempDir
    static Path dir;

    static Path json;
    static Path hlog;

    /** One short run against a 1 ms store that keeps up: every operation takes at least 1 ms. */
    @BeforeAll
    static void run() {
        json = dir.resolve("run.json");
        hlog = dir.resolve("run.hlog");
        Cli cli = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "--target", "200", "--duration", "1s",
                "-q", "--json", json.toString(), "--hlog", hlog.toString());
        assertEquals(0, cli.exitCode, cli.err);
    }

    @Test
    void exitCodeIsZeroWhenEveryRulePassesAndTheTableSaysSo() {
        Cli cli = Cli.run("gate", json.toString(), "--rule", "READ.service.p50 >= 1ms", "--rule", "READ.errors < 1%",
                "--rule", "*.intended.max < 1m", "--rule", "throughput > 100/s");
        assertEquals(0, cli.exitCode, cli.err);
        String[] lines = cli.out.split("\n");
        assertTrue(lines[0].matches("rule +observed +limit +result"), lines[0]);
        assertTrue(lines[1].startsWith("READ.service.p50 >= 1ms  "), lines[1]);
        assertTrue(lines[1].endsWith("PASS"), lines[1]);
        assertTrue(lines[2].contains("(0 of "), "errors show their counts: " + lines[2]);
        assertEquals("PASSED: all 4 gates passed", lines[lines.length - 1]);
        assertEquals("", cli.err);
    }

    @Test
    void exitCodeIs99WhenAnyRuleFailsAndJUnitShowsTheFailure() throws Exception {
        Path junit = dir.resolve("gates.xml");
        Cli cli = Cli.run("gate", json.toString(), "--rule", "READ.service.p50 >= 1ms", "--rule",
                "READ.service.p50 < 1ms", "--junit", junit.toString());
        assertEquals(99, cli.exitCode, cli.err);
        assertTrue(cli.out.contains("FAILED: 1 of 2 gates failed"), cli.out);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(junit.toFile());
        assertEquals("2", doc.getDocumentElement().getAttribute("tests"));
        assertEquals("1", doc.getDocumentElement().getAttribute("failures"));
        assertEquals(1, doc.getElementsByTagName("failure").getLength());
        assertTrue(cli.err.contains("wrote " + junit), cli.err);
    }

    @Test
    void windowedRulesOnTheRunsIntervalLog() {
        Cli cli = Cli.run("gate", hlog.toString(), "--rule", "READ.service.p50 >= 1ms over 1s windows",
                "--rule", "READ.intended.p99.7 < 1m", "--rule", "READ.errors < 0.1% over 1s windows",
                "--start", "0", "--end", "60s");
        assertEquals(0, cli.exitCode, cli.err + cli.out);
        assertTrue(cli.out.contains(" @ 0-1 s, "), cli.out);
        assertTrue(cli.out.lines().anyMatch(l -> l.startsWith("READ.errors < 0.1% over 1s windows ")
                && l.contains(" 0% @ 0-1 s") && l.endsWith("PASS")), "errors from the log's READ.status lines: " + cli.out);
    }

    @Test
    void aK6ThresholdsFileJudgesTheRunInLoadgensTerms() throws Exception {
        // The 1 ms store: every latency is above 1 ms, and far below a minute even on a loaded machine; nothing
        // failed; 200 ops/s offered.
        Path k6 = dir.resolve("thresholds.json");
        Files.writeString(k6, "{\"http_req_duration\": [\"p(99)<60000\", \"avg<60000\", \"min>0.5\"],"
                + " \"http_req_failed\": [\"rate<0.01\"], \"http_reqs\": [\"rate>100\"]}");
        Cli cli = Cli.run("gate", json.toString(), "--rule-file", k6.toString());
        assertEquals(0, cli.exitCode, cli.err + cli.out);
        assertTrue(cli.out.contains("READ.intended.p99 < 60000ms "), "named in loadgen's form, unit stated: " + cli.out);
        assertTrue(cli.out.contains("READ.intended.min > 0.5ms "), cli.out);
        assertTrue(cli.out.lines().anyMatch(l -> l.startsWith("error_rate < 0.01 ") && l.contains("0% (0 of ")),
                "an error rate is a share of the operations: " + cli.out);
        assertEquals("PASSED: all 5 gates passed", cli.out.strip().lines().reduce((a, b) -> b).orElseThrow());

        Files.writeString(k6, "{\"http_req_duration\": [\"p(99)<0.5\"]}");
        Cli failed = Cli.run("gate", json.toString(), "--rule-file", k6.toString());
        assertEquals(Main.EXIT_GATE_FAILED, failed.exitCode, "k6's 0.5 is 0.5 ms, below the 1 ms store: " + failed.out);
    }

    @Test
    void aK6MetricWithoutACounterpartIsRefusedWithLoadgensForm() throws Exception {
        Path k6 = dir.resolve("checks.json");
        Files.writeString(k6, "{\"thresholds\": {\"checks\": [\"rate>0.9\"]}}");
        Cli cli = Cli.run("gate", json.toString(), "--rule-file", k6.toString());
        assertEquals(2, cli.exitCode, cli.err);
        assertTrue(cli.err.contains(k6 + ": k6 threshold checks 'rate>0.9': the k6 metric checks has no counterpart"
                + " here; loadgen reads http_req_duration"), cli.err);
        assertTrue(cli.err.contains("'*.intended.p99 < 200ms'"), cli.err);
    }

    @Test
    void aBaselineComparisonOfARunWithItselfPasses() {
        Cli cli = Cli.run("gate", json.toString(), "--baseline", json.toString(), "--max-regression",
                "p99:+10%,throughput:-5%");
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.out.contains("READ.intended.p99 <= baseline +10%"), cli.out);
        assertTrue(cli.out.contains("READ.corrected.p99 <= baseline +10%"), cli.out);
        assertTrue(cli.out.contains("throughput >= baseline -5%"), cli.out);
    }

    static Stream<Arguments> badGates() {
        return Stream.of(
                Arguments.of(new String[]{"gate", "@JSON", "--rule", "READ.intended.p97 < 5ms"},
                        "rule 'READ.intended.p97 < 5ms': @JSON holds p50, p90, p95, p99, p99.9, p99.99, min, max, mean"
                                + " and count; for p97 gate on the run's interval log"),
                Arguments.of(new String[]{"gate", "@JSON", "--rule", "UPDATE.intended.p99 < 5ms"},
                        "rule 'UPDATE.intended.p99 < 5ms': @JSON has no operation 'UPDATE'; it has READ"),
                Arguments.of(new String[]{"gate", "@JSON", "--rule", "READ.intended.p99 < 5"},
                        "the limit '5' needs a unit; latency limits take ns, us, ms, s or m (e.g. 5ms)"),
                Arguments.of(new String[]{"gate", "@HLOG", "--rule", "READ.corrected.p99 < 1s"},
                        "interval logs have no corrected view"),
                Arguments.of(new String[]{"gate", "@JSON"},
                        "no rules; give --rule RULE (e.g. --rule 'READ.intended.p99 < 5ms'), --rule-file FILE, or"
                                + " --baseline FILE with --max-regression"),
                Arguments.of(new String[]{"gate", "@JSON", "--baseline", "@JSON"},
                        "--baseline needs --max-regression to say how much worse is allowed"),
                Arguments.of(new String[]{"gate", "@JSON", "--rule", "throughput > 1/s", "--start", "10"},
                        "--start and --end select a time range of an interval log; @JSON is a JSON summary of the whole run"),
                Arguments.of(new String[]{"gate", "@JSON", "--rule", "throughput > 1/s", "--start", "soon"},
                        "'soon' is not a time; write seconds (e.g. 30) or a duration with a unit (e.g. 90s, 2m)"),
                Arguments.of(new String[]{"gate", "--rule", "throughput > 1/s"},
                        "Missing required parameter: 'FILE'"),
                Arguments.of(new String[]{"run", "--driver", "mockdb", "--duration", "30s", "--gate", "READ.intended.p99 < 5"},
                        "rule 'READ.intended.p99 < 5': the limit '5' needs a unit"),
                Arguments.of(new String[]{"run", "--driver", "mockdb", "--duration", "30s", "--gate", "UPDATE.intended.p99 < 5ms"},
                        "rule 'UPDATE.intended.p99 < 5ms': the run issues no operation 'UPDATE'; it issues READ"),
                Arguments.of(new String[]{"run", "--driver", "mockdb", "--duration", "30s", "--gate",
                        "READ.intended.p99 < 5ms", "--abort-on-fail"},
                        "--abort-on-fail stops a run when a windowed --gate rule fails"),
                Arguments.of(new String[]{"run", "--driver", "mockdb", "--duration", "30s", "--abort-on-fail", "5s"},
                        "--abort-on-fail needs gates; add --gate RULE"),
                Arguments.of(new String[]{"run", "--driver", "mockdb", "--duration", "30s", "--gate", "harness.lag.p99 < 1ms"},
                        "without --target the run has no schedule, so no harness.lag"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("badGates")
    void badInputIsExitTwoWithOneLineAndNothingRuns(String[] args, String expected) {
        for (int i = 0; i < args.length; i++) {
            args[i] = args[i].replace("@JSON", json.toString()).replace("@HLOG", hlog.toString());
        }
        Cli cli = Cli.run(args);
        assertEquals(2, cli.exitCode, cli.err);
        String[] lines = cli.err.strip().split("\n");
        assertEquals(1, lines.length, "one line on stderr, got: " + cli.err);
        assertTrue(lines[0].startsWith("loadgen: "), lines[0]);
        assertTrue(lines[0].contains(expected.replace("@JSON", json.toString())), "expected '" + expected + "' in: " + lines[0]);
        assertEquals("", cli.out, "nothing on stdout: no table, no run");
    }

    @Test
    void helpShowsTheGrammarWithItsPercentSigns() {
        Cli cli = Cli.run("gate", "--help");
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.out.contains("--max-regression 'p99:+10%'"), cli.out);
        assertFalse(cli.out.contains("%%"), "every description formatted: " + cli.out);
    }

    @Test
    void runWithGatesThatPassExitsZeroAndPrintsTheTableAfterTheSummary() {
        Cli cli = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "--target", "200", "--duration", "1s",
                "-q", "--gate", "READ.service.p50 >= 1ms", "--gate", "READ.errors < 1%",
                "--gate", "READ.intended.max < 1m over 500ms windows");
        assertEquals(0, cli.exitCode, cli.err);
        int summary = cli.out.indexOf("[READ], Operations");
        int table = cli.out.indexOf("READ.service.p50 >= 1ms");
        assertTrue(summary >= 0 && table > summary, cli.out);
        assertTrue(cli.out.strip().endsWith("PASSED: all 3 gates passed"), cli.out);
    }

    @Test
    void runWithAGateThatFailsExits99NotTheFailedRunsOne() throws Exception {
        Path junit = dir.resolve("run-gates.xml");
        Cli cli = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "--target", "200", "--duration", "1s",
                "-q", "--gate", "READ.service.p50 < 1ms", "--gate-junit", junit.toString());
        assertEquals(Main.EXIT_GATE_FAILED, cli.exitCode, cli.err);
        assertTrue(cli.out.contains("FAILED: 1 of 1 gate failed"), cli.out);
        assertTrue(Files.readString(junit).contains("<failure type=\"GateFailed\""));
    }

    @Test
    void abortOnFailStopsARunThatCannotKeepUpLongBeforeItsDurationAndKeepsItsOutputs() throws Exception {
        // A 4 ms store at 1000 ops/s on one thread serves 250 ops/s: the backlog grows 3 ms per operation, so
        // intended p99 passes 20 ms within the first second and every 1 s window fails.
        Path runJson = dir.resolve("abort.json");
        Path runLog = dir.resolve("abort.hlog");
        Cli cli = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=4ms", "--target", "1000", "--duration", "30s",
                "-q", "--json", runJson.toString(), "--hlog", runLog.toString(),
                "--gate", "READ.intended.p99 < 20ms over 1s windows", "--gate", "READ.service.p99 < 1s",
                "--abort-on-fail");
        assertEquals(Main.EXIT_GATE_FAILED, cli.exitCode, cli.err);
        JsonNode summary = new ObjectMapper().readTree(runJson.toFile());
        assertTrue(summary.get("stop_reason").asText().startsWith(
                "gate failed: READ.intended.p99 < 20ms over 1s windows ("), summary.get("stop_reason").asText());
        assertTrue(summary.get("duration_s").asDouble() < 10, "stopped well before 30 s: " + summary.get("duration_s"));
        assertTrue(summary.at("/operations/READ/count").asLong() > 0);
        assertTrue(Files.readString(runLog).contains("Tag=READ.intended,"), "the interval log was written");
        assertTrue(cli.err.contains("stopping the run early"), cli.err);
        assertTrue(cli.out.contains("[READ], Operations"), "the summary was printed: " + cli.out);
        assertTrue(cli.out.contains("FAILED: 1 of 2 gates failed"), cli.out);
    }
}
