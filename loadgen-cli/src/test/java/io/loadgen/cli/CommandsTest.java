package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The commands end to end, in this JVM: what a user sees on stdout and stderr. */
class CommandsTest {
    @TempDir
    Path dir;

    @Test
    void demoShowsBothViewsAndExplainsTheDifference() throws Exception {
        Path json = dir.resolve("demo.json");
        Cli cli = Cli.run("demo", "--duration", "3s", "--seed", "5", "--hlog", dir.resolve("demo.hlog").toString(),
                "--json", json.toString());
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.err.lines().anyMatch(l -> l.matches("\\d+s  [\\d,]+/s of 10,000/s  READ p99 intended \\S+ (ns|us|ms|s)"
                + " \\| service \\S+ (ns|us|ms|s)  errors \\d+.*")), "status lines on stderr, the default's: " + cli.err);
        assertTrue(cli.out.contains("[Intended-READ], 99thPercentileLatency(us), "), cli.out);
        assertTrue(cli.out.contains("[READ], 99thPercentileLatency(us), "), cli.out);
        assertTrue(cli.out.contains("READ     intended"), cli.out);
        assertTrue(cli.out.contains("p99 ="), "the closing sentence: " + cli.out);
        JsonNode summary = new ObjectMapper().readTree(json.toFile());
        assertEquals("stw-mockdb", summary.get("driver").asText());
        assertEquals(25, summary.get("threads").asInt());
        assertEquals(10000.0, summary.get("target_ops_per_sec").asDouble());
        // 3 s at 10,000 ops/s: about 30,000 operations (the store keeps up on average).
        long count = summary.at("/operations/READ/count").asLong();
        assertTrue(count > 20_000 && count <= 30_100, "operations: " + count);
        double intendedP99 = summary.at("/operations/READ/intended/p99_us").asDouble();
        double serviceP99 = summary.at("/operations/READ/service/p99_us").asDouble();
        assertTrue(intendedP99 >= serviceP99, "intended includes service: " + intendedP99 + " vs " + serviceP99);
        for (String chart : new String[]{"demo.percentiles.png", "demo.over-time.png"}) {
            assertTrue(Files.size(dir.resolve(chart)) > 0, chart);
            assertTrue(cli.err.contains("loadgen: wrote " + dir.resolve(chart).toAbsolutePath()), cli.err);
            assertTrue(cli.out.contains(chart), "the demo names its charts: " + cli.out);
        }
    }

    @Test
    void unthrottledRunSaysOnceThatNoCorrectionIsPossible() {
        Cli cli = Cli.run("run", "--driver", "noop", "--operations", "1000");
        assertEquals(0, cli.exitCode, cli.err);
        int first = cli.err.indexOf("no coordinated-omission correction is possible");
        assertTrue(first >= 0, cli.err);
        assertEquals(-1, cli.err.indexOf("no coordinated-omission correction is possible", first + 1), "said once");
        assertTrue(cli.out.contains("[READ], Operations, 1000"), cli.out);
    }

    @Test
    void driversListsEveryDriverWithItsPropertiesAndDefaults() {
        Cli cli = Cli.run("drivers");
        assertEquals(0, cli.exitCode, cli.err);
        for (String s : new String[]{"mockdb - ", "noop - ", "stw-mockdb - ", "-p mockdb.delay=0ms",
                "-p stw-mockdb.stw.probability=0.0001"}) {
            assertTrue(cli.out.contains(s), "missing '" + s + "' in:\n" + cli.out);
        }
    }

    @Test
    void ycsbWorkloadFileRunsItsMixAndLoadInsertsItsRecords() {
        Path workloada = Path.of("..", "workloads", "workloada");
        Cli load = Cli.run("load", "-P", workloada.toString(), "--driver", "mockdb", "--threads", "2", "-q");
        assertEquals(0, load.exitCode, load.err);
        assertTrue(load.out.contains("[INSERT], Operations, 1000"), "recordcount=1000 inserted: " + load.out);

        Cli run = Cli.run("run", "-P", workloada.toString(), "--driver", "mockdb", "--operations", "4000", "-q");
        assertEquals(0, run.exitCode, run.err);
        long reads = InterruptTest.ycsbOperations(run.out, "READ");
        long updates = InterruptTest.ycsbOperations(run.out, "UPDATE");
        assertEquals(4000, reads + updates);
        // 50/50: 4000 draws, standard deviation 32, so 200 is over 6 sigma.
        assertEquals(2000, reads, 200);
    }

    @Test
    void phasesFromYamlSetTheRateOverTimeAndTheMix() throws Exception {
        // hold 1000 ops/s for 1 s, ramp 1000 -> 3000 over 1 s (mean 2000), spike 6000 for 0.5 s:
        // 1000 + 2000 + 3000 = 6000 operations intended, all issued by a store that keeps up.
        Path yaml = dir.resolve("phases.yaml");
        java.nio.file.Files.writeString(yaml, """
                driver: noop
                properties: {recordcount: 100, readproportion: 0.9, updateproportion: 0.1}
                threads: 2
                phases:
                  - {name: hold, duration: 1s, rate: 1000}
                  - {name: ramp, duration: 1s, rate: {from: 1000, to: 3000}}
                  - {name: spike, duration: 500ms, rate: 6000}
                """);
        Path json = dir.resolve("phases.json");
        Cli cli = Cli.run("run", "--driver", "noop", "--phases", yaml.toString(), "-q", "--json", json.toString());
        assertEquals(0, cli.exitCode, cli.err);
        long reads = InterruptTest.ycsbOperations(cli.out, "READ");
        long updates = InterruptTest.ycsbOperations(cli.out, "UPDATE");
        // The last few may fall due as the run ends and a late wake-up passes the deadline: those are counted
        // as unissued, so issued + unissued is the schedule's 6000 exactly (give or take the workers' offsets).
        long unissued = new ObjectMapper().readTree(json.toFile()).get("unissued_operations").asLong();
        assertEquals(6000, reads + updates + unissued, 2);
        assertTrue(reads + updates > 5900, "issued " + (reads + updates));
        assertEquals(0.9, (double) reads / (reads + updates), 0.03);
    }

    @Test
    void phasesWithATargetIsBadInput() throws Exception {
        Path yaml = dir.resolve("p.yaml");
        java.nio.file.Files.writeString(yaml, "phases:\n  - {name: a, duration: 1s, rate: 10}\n");
        Cli cli = Cli.run("run", "--driver", "noop", "--phases", yaml.toString(), "--target", "5");
        assertEquals(2, cli.exitCode, cli.err);
        assertTrue(cli.err.contains("--phases sets the rate over time; leave out --target"), cli.err);
    }

    @Test
    void aMisspelledWorkloadPropertyIsBadInputWithTheNearestName() {
        Cli cli = Cli.run("run", "-P", Path.of("..", "workloads", "workloada").toString(), "--driver", "mockdb",
                "-p", "readproprtion=0.5", "--operations", "10");
        assertEquals(2, cli.exitCode, cli.err);
        assertTrue(cli.err.contains("did you mean the workload property 'readproportion'?"), cli.err);
    }

    @Test
    void loadWithoutAWorkloadIsBadInput() {
        Cli cli = Cli.run("load", "--driver", "mockdb");
        assertEquals(2, cli.exitCode);
        assertTrue(cli.err.startsWith("loadgen: load needs a workload"), cli.err);
    }

    @Test
    void shippedScenarioFilesLoadIntoTheirDriver() {
        for (String file : new String[]{"backlogged-4ms.properties", "pausing-store.properties"}) {
            Path path = Path.of("..", "workloads", file);
            Cli cli = Cli.run("run", "--driver", "mockdb", "-P", path.toString(), "--operations", "3", "-q");
            assertEquals(0, cli.exitCode, file + ": " + cli.err);
        }
    }

    @Test
    void propertiesFileIsReadAndCommandLinePropertiesOverrideIt() throws Exception {
        Path props = dir.resolve("store.properties");
        java.nio.file.Files.writeString(props, "mockdb.delay=50ms\nmockdb.randomize=false\n");
        Path json = dir.resolve("p.json");
        Cli cli = Cli.run("run", "--driver", "mockdb", "-P", props.toString(), "-p", "mockdb.delay=2ms",
                "--operations", "20", "-q", "--json", json.toString());
        assertEquals(0, cli.exitCode, cli.err);
        double p50 = new ObjectMapper().readTree(json.toFile()).at("/operations/READ/service/p50_us").asDouble();
        assertTrue(p50 >= 2000 && p50 < 20_000, "2 ms from -p, not 50 ms from the file: " + p50);
    }

    @Test
    void sweepPrintsOneRowPerRateAndWritesCsvJsonAndLogs() throws Exception {
        Path csv = dir.resolve("sweep.csv");
        Path json = dir.resolve("sweep.json");
        Path logs = dir.resolve("logs");
        Cli cli = Cli.run("sweep", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "--rates", "100,200",
                "--duration", "500ms", "--seed", "3", "--sla", "p99<1s", "--csv", csv.toString(),
                "--json", json.toString(), "--hlog-dir", logs.toString(), "--plot", dir.toString());
        assertEquals(0, cli.exitCode, cli.err);
        Path chart = dir.resolve("sweep.latency-vs-throughput.png");
        assertTrue(Files.size(chart) > 0);
        assertTrue(cli.err.contains("loadgen: wrote " + chart), cli.err);
        // Both steps kept up and met p99 < 1 s: the knee the chart marks is the higher, as the SLA line says.
        assertEquals(200.0, io.loadgen.core.sweep.SweepKnee.of(io.loadgen.core.sweep.SweepResults.read(csv),
                io.loadgen.plot.SlaLine.parse("p99<1s").objective()));
        String[] lines = cli.out.split("\n");
        assertTrue(lines[0].startsWith("offered (ops/s)  achieved (ops/s)  intended p50 (ms)  intended p99 (ms)"),
                cli.out);
        assertTrue(lines[1].trim().startsWith("100  "), lines[1]);
        assertTrue(lines[2].trim().startsWith("200  "), lines[2]);
        // A 1 ms store keeps up with 200 ops/s, so p99 < 1 s holds at both rates, from either start.
        assertTrue(cli.out.contains("SLA p99<1s: met up to 200 ops/s measured from intended start;"
                + " service time would claim 200 ops/s."), cli.out);
        assertTrue(cli.err.contains("loadgen sweep: step 2/2: 200 ops/s for 500ms"), cli.err);
        List<String> rows = Files.readAllLines(csv);
        assertEquals(3, rows.size());
        assertTrue(rows.get(0).startsWith("offered_ops_per_sec,achieved_ops_per_sec,intended_p50_ms"), rows.get(0));
        assertTrue(rows.get(2).startsWith("200,"), rows.get(2));
        // 0.5 s at 200 ops/s on one thread may fall short by 2 / 100 + 20 ms / 0.5 s = 6%: a 1 ms store keeps up.
        assertTrue(rows.get(0).endsWith(",unissued,kept_up,diagnosis"), rows.get(0));
        String[] cells = rows.get(2).split(",");
        assertEquals("0,true", cells[cells.length - 3] + "," + cells[cells.length - 2], rows.get(2));
        // The step's primary cause: a 1 ms store keeps up, so no target cause; a loaded machine may delay the
        // harness by a tenth of a 1 ms p99 (harness_stalled), which is then the truth of that step.
        assertTrue(java.util.Set.of("ok", "harness_stalled").contains(cells[cells.length - 1]), rows.get(2));
        JsonNode steps = new ObjectMapper().readTree(json.toFile());
        assertEquals(2, steps.size());
        assertEquals(200.0, steps.get(1).get("offered_ops_per_sec").asDouble());
        assertEquals(200.0, steps.get(1).get("target_ops_per_sec").asDouble());
        // 0.5 s at 200 ops/s: ~100 operations, the full run summary included.
        long count = steps.get(1).at("/operations/READ/count").asLong();
        assertTrue(count >= 90 && count <= 101, "operations: " + count);
        assertTrue(steps.get(1).get("achieved_ops_per_sec").asDouble() > 150);
        assertTrue(steps.get(1).get("kept_up").asBoolean(), steps.get(1).toString());
        assertEquals(cells[cells.length - 1], steps.get(1).at("/diagnosis/causes/0/code").asText());
        assertEquals(188.0, steps.get(1).get("keep_up_min_ops_per_sec").asDouble(), 1.0);
        assertTrue(Files.size(logs.resolve("step-01-100ops.hlog")) > 0);
        assertTrue(Files.size(logs.resolve("step-02-200ops.hlog")) > 0);
    }
}
