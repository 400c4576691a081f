package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An operation count and a duration both bound a run, whichever comes first, wherever each comes from:
 * the command line, a workload file, {@code -p}, a phases file. A command-line value replaces the same
 * bound from a file and leaves the other. Runs the commands in this JVM and reads their JSON summaries.
 */
class RunLengthTest {
    private static final String WORKLOADC = Path.of("..", "workloads", "workloadc").toString();
    /** Far below any duration bound these tests set (30 s): a run that ends by its count ends well before. */
    private static final double QUICK_S = 10;

    @TempDir
    Path dir;

    @Test
    void theIssuesOperationcountBoundsARunWithACommandLineDuration() throws Exception {
        // loadgen run -P workloads/workloadc -p operationcount=3000 --duration 5s ran 259,689 operations.
        JsonNode s = run("run", "-P", WORKLOADC, "--driver", "mockdb", "-p", "operationcount=3000", "--duration", "5s");
        assertEquals(3000, count(s, "READ"));
        assertEquals("operations", s.get("stop_reason").asText());
    }

    @Test
    void aCountFromTheFileEndsAThrottledRunLongBeforeItsDuration() throws Exception {
        // 300 operations at 1000 ops/s take 0.3 s; --duration 30s must not stretch or cut that.
        JsonNode s = run("run", "-P", WORKLOADC, "--driver", "mockdb", "-p", "operationcount=300", "--target", "1000",
                "--duration", "30s");
        assertEquals(300, count(s, "READ"));
        assertEquals("operations", s.get("stop_reason").asText());
        assertTrue(s.get("duration_s").asDouble() < QUICK_S, "ran " + s.get("duration_s") + " s");
    }

    @Test
    void aDurationShorterThanTheCountNeedsEndsTheRun() throws Exception {
        // 1 s at 500 ops/s on one thread: the schedule holds 500 intended starts, far below operationcount=100000.
        JsonNode s = run("run", "-P", WORKLOADC, "--driver", "mockdb", "-p", "operationcount=100000", "--target", "500",
                "--duration", "1s");
        assertEquals("duration", s.get("stop_reason").asText());
        long issued = count(s, "READ") + s.get("unissued_operations").asLong();
        assertEquals(500, issued, 1, "the schedule's 500, give or take the worker's start offset");
    }

    @Test
    void theCommandLineCountReplacesTheFilesAndKeepsItsDuration() throws Exception {
        // workloadc says operationcount=1000; --operations 200 replaces it; maxexecutiontime=30 still bounds it.
        JsonNode s = run("run", "-P", WORKLOADC, "--driver", "mockdb", "--operations", "200", "--target", "2000",
                "-p", "maxexecutiontime=30");
        assertEquals(200, count(s, "READ"));
        assertEquals("operations", s.get("stop_reason").asText());
    }

    @Test
    void maxexecutiontimeBoundsARunWithACommandLineCount() throws Exception {
        // maxexecutiontime=1 at 500 ops/s: 500 intended starts, far below --operations 100000.
        JsonNode s = run("run", "-P", WORKLOADC, "--driver", "mockdb", "-p", "maxexecutiontime=1", "--operations", "100000",
                "--target", "500");
        assertEquals("duration", s.get("stop_reason").asText());
        assertEquals(500, count(s, "READ") + s.get("unissued_operations").asLong(), 1);
    }

    @Test
    void zeroMeansNoLimitAsInYcsb() throws Exception {
        JsonNode noCount = run("run", "-P", WORKLOADC, "--driver", "mockdb", "-p", "operationcount=0", "--target", "200",
                "--duration", "1s");
        assertEquals("duration", noCount.get("stop_reason").asText());
        assertEquals(200, count(noCount, "READ") + noCount.get("unissued_operations").asLong(), 1);

        JsonNode noTime = run("run", "-P", WORKLOADC, "--driver", "mockdb", "-p", "maxexecutiontime=0", "--operations", "50");
        assertEquals(50, count(noTime, "READ"));
        assertEquals("operations", noTime.get("stop_reason").asText());
    }

    @Test
    void aPhasesFilesOperationcountBoundsTheRun() throws Exception {
        // 1000 ops/s for 10 s would be 10,000 operations; the file's operationcount=250 ends it at 250.
        Path yaml = dir.resolve("phases.yaml");
        Files.writeString(yaml, """
                properties: {recordcount: 100, readproportion: 1, updateproportion: 0, operationcount: 250}
                phases:
                  - {name: hold, duration: 10s, rate: 1000}
                """);
        JsonNode s = run("run", "--driver", "mockdb", "--phases", yaml.toString());
        assertEquals(250, count(s, "READ"));
        assertEquals("operations", s.get("stop_reason").asText());
        assertTrue(s.get("duration_s").asDouble() < QUICK_S, "ran " + s.get("duration_s") + " s");
    }

    @Test
    void loadInsertsItsCountOrStopsAtMaxexecutiontime() throws Exception {
        JsonNode all = run("load", "--driver", "mockdb", "-p", "recordcount=300", "--target", "3000",
                "-p", "maxexecutiontime=30");
        assertEquals(300, count(all, "INSERT"));
        assertEquals("operations", all.get("stop_reason").asText());

        // maxexecutiontime=1 at 500 inserts/s: 500 intended starts, far below recordcount=1000000.
        JsonNode cut = run("load", "--driver", "mockdb", "-p", "recordcount=1000000", "-p", "maxexecutiontime=1",
                "--target", "500");
        assertEquals("duration", cut.get("stop_reason").asText());
        assertEquals(500, count(cut, "INSERT") + cut.get("unissued_operations").asLong(), 1);
    }

    @Test
    void eachSweepStepEndsAtItsCountOrDuration() throws Exception {
        Path json = dir.resolve("sweep.json");
        Cli cli = Cli.run("sweep", "-P", WORKLOADC, "--driver", "mockdb", "-p", "operationcount=50", "--rates", "100,200",
                "--duration", "30s", "--seed", "3", "--json", json.toString());
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.err.contains("loadgen sweep: step 1/2: 100 ops/s for 30s or 50 operations"), cli.err);
        JsonNode steps = new ObjectMapper().readTree(json.toFile());
        for (JsonNode step : steps) {
            assertEquals(50, count(step, "READ"), step.toString());
            assertEquals("operations", step.get("stop_reason").asText());
        }

        Cli override = Cli.run("sweep", "-P", WORKLOADC, "--driver", "mockdb", "--operations", "20", "--rates", "400",
                "--seed", "3", "--json", json.toString(), "-q");
        assertEquals(0, override.exitCode, override.err);
        JsonNode step = new ObjectMapper().readTree(json.toFile()).get(0);
        assertEquals(20, count(step, "READ"), "--operations replaces workloadc's operationcount=1000");
    }

    private JsonNode run(String... args) throws Exception {
        Path json = dir.resolve("summary.json");
        String[] all = java.util.Arrays.copyOf(args, args.length + 3);
        all[args.length] = "-q";
        all[args.length + 1] = "--json";
        all[args.length + 2] = json.toString();
        Cli cli = Cli.run(all);
        assertEquals(0, cli.exitCode, cli.err);
        return new ObjectMapper().readTree(json.toFile());
    }

    private static long count(JsonNode summary, String op) {
        return summary.at("/operations/" + op + "/count").asLong();
    }
}
