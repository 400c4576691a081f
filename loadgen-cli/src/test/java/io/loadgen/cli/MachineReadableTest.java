package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What CI reads: the JSON summary on stdout with {@code --json -}, its run info, and the closing hints. */
class MachineReadableTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * With {@code --json -} stdout holds the JSON alone, so {@code | jq} works; the YCSB summary and the table go to
     * stderr. The summary names its schema, the seed given, when the schedule began, and every effective property:
     * the workload's from -P and the -p override alike.
     */
    @Test
    void runJsonToStdoutLeavesStdoutToTheJsonAndTheSummaryToStderr() throws Exception {
        Instant before = Instant.now();
        Cli cli = Cli.run("run", "--driver", "mockdb", "-P", "../workloads/workloadc", "-p", "recordcount=100",
                "-p", "mockdb.delay=0ms", "--target", "500", "--duration", "300ms", "--seed", "7", "-q", "--json", "-");
        assertEquals(0, cli.exitCode, cli.err);
        JsonNode json = MAPPER.readTree(cli.out);
        assertEquals(1, json.get("schema_version").asInt());
        assertEquals(7, json.get("seed").asLong());
        Instant start = Instant.parse(json.get("start_time").asText());
        assertTrue(!start.isBefore(before.minusSeconds(1)) && start.isBefore(Instant.now()), start.toString());
        assertEquals("100", json.at("/properties/recordcount").asText(), "-p over the -P file");
        assertEquals("1", json.at("/properties/readproportion").asText(), "the workload's, from -P");
        assertEquals("0ms", json.at("/properties/mockdb.delay").asText(), "the driver's");
        assertTrue(json.at("/operations/READ/count").asLong() > 0);
        assertTrue(cli.err.contains("[READ], Operations, "), cli.err);
        assertTrue(cli.err.contains("READ     intended"), cli.err);
        assertFalse(cli.err.contains("loadgen: wrote -"), cli.err);
    }

    @Test
    void sweepJsonToStdoutIsTheListAloneAndTheTableGoesToStderr() throws Exception {
        Cli cli = Cli.run("sweep", "--driver", "noop", "--rates", "200,400", "--duration", "200ms", "--seed", "3",
                "-q", "--json", "-");
        assertEquals(0, cli.exitCode, cli.err);
        JsonNode list = MAPPER.readTree(cli.out);
        assertEquals(2, list.size());
        assertEquals(400.0, list.get(1).get("offered_ops_per_sec").asDouble());
        assertEquals(3, list.get(1).get("seed").asLong());
        assertEquals(1, list.get(0).get("schema_version").asInt());
        assertTrue(cli.err.contains("offered (ops/s)"), cli.err);
    }

    /**
     * {@code run --hgrm} and {@code report -o} agree by default: the same distribution of the same tag, in ms, line
     * for line; the run's file states its unit in a first line, report's stays HistogramLogProcessor's byte for byte.
     * And {@code report --json} of the run's log names the run's start and seed, as the run's own summary does.
     */
    @Test
    void runHgrmAndReportAgreeOnTheUnitByDefault(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("run.hlog");
        Cli run = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "--target", "400", "--duration", "500ms",
                "--seed", "5", "-q", "--hlog", log.toString(), "--hgrm", dir.resolve("hgrm").toString(),
                "--json", dir.resolve("run.json").toString());
        assertEquals(0, run.exitCode, run.err);
        JsonNode fromRun = MAPPER.readTree(dir.resolve("run.json").toFile());
        Cli json = Cli.run("report", log.toString(), "--json", "-");
        assertEquals(0, json.exitCode, json.err);
        JsonNode fromLog = MAPPER.readTree(json.out);
        assertEquals(fromRun.get("start_time"), fromLog.get("start_time"));
        assertEquals(5, fromLog.get("seed").asLong());
        assertTrue(fromLog.get("properties").isNull(), "a log holds the driver's properties alone");
        Cli report = Cli.run("report", "-i", log.toString(), "-o", dir.resolve("r").toString(), "-tag", "READ.intended");
        assertEquals(0, report.exitCode, report.err);
        List<String> ours = Files.readAllLines(dir.resolve("hgrm/READ.intended.hgrm"));
        List<String> reported = Files.readAllLines(dir.resolve("r.hgrm"));
        assertEquals("#[Unit: ms (recorded ns / 1000000.0, as HistogramLogProcessor's default -outputValueUnitRatio)]",
                ours.get(0));
        assertTrue(reported.get(0).startsWith("#[Overall percentile distribution"), reported.get(0));
        assertEquals(ours.subList(1, ours.size()), reported.subList(2, reported.size()));
    }

    @Test
    void demoHintsNameTheLauncherAsItWasInvoked() {
        assertEquals("./loadgen", DemoCommand.self("./loadgen"));
        assertEquals("loadgen", DemoCommand.self(null), "java -jar, or loadgen on the PATH");
        assertEquals("loadgen", DemoCommand.self(""));
    }
}
