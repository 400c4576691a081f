package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** YCSB's own files and command-line flags run here: what has a meaning is honoured, the rest named once. */
class YcsbFilesTest {
    /** The settings of YCSB's workloads/workload_template (its master branch; 0.17.0's without the last scan keys). */
    private static final String WORKLOAD_TEMPLATE = String.join("\n",
            "workload=site.ycsb.workloads.CoreWorkload", "recordcount=1000000", "operationcount=3000000",
            "insertstart=0", "fieldcount=10", "fieldlength=100", "readallfields=true", "writeallfields=false",
            "fieldlengthdistribution=constant", "readproportion=0.95", "updateproportion=0.05", "insertproportion=0",
            "readmodifywriteproportion=0", "scanproportion=0", "maxscanlength=1000", "maxscanrate=0",
            "scanoptimelimit=0", "discardscannedrecord=false", "scanlengthdistribution=uniform", "insertorder=hashed",
            "requestdistribution=zipfian", "hotspotdatafraction=0.2", "hotspotopnfraction=0.8", "table=usertable",
            "measurementtype=histogram", "histogram.buckets=1000", "timeseries.granularity=1000", "");

    @TempDir
    Path dir;

    @Test
    void yscbsWorkloadTemplateRunsAndNamesWhatItIgnoresOnce() throws Exception {
        Path template = Files.writeString(dir.resolve("workload_template"), WORKLOAD_TEMPLATE);
        Path json = dir.resolve("s.json");
        Cli cli = Cli.run("run", "-P", template.toString(), "--driver", "mockdb", "-R", "500", "-d", "400ms", "-q",
                "--json", json.toString());
        assertEquals(0, cli.exitCode, cli.err);
        String warning = "loadgen: warning: ignoring YCSB properties that have no effect here: ";
        assertEquals(1, cli.err.split(warning, -1).length - 1, "once: " + cli.err);
        String listed = cli.err.substring(cli.err.indexOf(warning) + warning.length()).lines().findFirst().orElseThrow();
        for (String key : new String[]{"maxscanrate", "scanoptimelimit", "discardscannedrecord", "measurementtype",
                "histogram.buckets", "timeseries.granularity"}) {
            assertTrue(listed.contains(key), key + " in: " + listed);
        }
        JsonNode s = new ObjectMapper().readTree(json.toFile());
        assertTrue(s.get("operations").has("READ") && s.get("operations").has("UPDATE"), s.toString());
    }

    @Test
    void aSweepWarnsOnceForAllItsSteps() throws Exception {
        Cli cli = Cli.run("sweep", "--driver", "noop", "--rates", "200,400", "-d", "200ms", "-q",
                "-p", "measurementtype=hdrhistogram", "-p", "exporter=x");
        assertEquals(0, cli.exitCode, cli.err);
        assertEquals(1, cli.err.split("ignoring YCSB properties", -1).length - 1, cli.err);
        assertTrue(cli.err.contains("no effect here: measurementtype, exporter ("), cli.err);
    }

    @Test
    void statusIntervalIsTheIntervalUnlessTheCommandLineGivesOne() {
        RunCommand fromFile = Cli.parse(new RunCommand(null), "--driver", "noop", "-p", "status.interval=5");
        assertEquals(Duration.ofSeconds(5), fromFile.load.builder().build().interval());
        RunCommand both = Cli.parse(new RunCommand(null), "--driver", "noop", "-p", "status.interval=5",
                "--interval", "2s");
        assertEquals(Duration.ofSeconds(2), both.load.builder().build().interval());
        RunCommand neither = Cli.parse(new RunCommand(null), "--driver", "noop");
        assertEquals(Duration.ofSeconds(1), neither.load.builder().build().interval());
    }

    @Test
    void redisHostAndPortReachTheDriverAsItsUri() {
        RunCommand run = Cli.parse(new RunCommand(null), "--driver", "redis", "-p", "redis.host=127.0.0.1",
                "-p", "redis.port=6391");
        assertEquals("redis://127.0.0.1:6391", run.load.properties().get("redis.uri"));
    }

    @Test
    void yscbsPhaseAndStatusFlagsAreAccepted() {
        Cli run = Cli.run("run", "-t", "-s", "-db", "noop", "-target", "500", "-d", "200ms", "-q");
        assertEquals(0, run.exitCode, run.err);
        Cli client = Cli.run("-t", "-db", "noop", "-threads", "2", "-target", "500", "-d", "200ms", "-q");
        assertEquals(0, client.exitCode, "YCSB's client command line, with no command: " + client.err);
        Path workload = Path.of("..", "workloads", "workloadc");
        Cli load = Cli.run("-load", "-db", "mockdb", "-P", workload.toString(), "-p", "recordcount=50", "-s", "-q");
        assertEquals(0, load.exitCode, load.err);
        assertTrue(load.out.contains("[INSERT], Operations, 50"), load.out);
    }

    @Test
    void aPhaseFlagForTheOtherCommandIsRefused() {
        Cli run = Cli.run("run", "-load", "--driver", "noop");
        assertEquals(2, run.exitCode);
        assertEquals("loadgen: -load is YCSB's load phase: run 'loadgen load' with the same options instead",
                run.err.strip());
        Cli load = Cli.run("load", "-t", "--driver", "noop");
        assertEquals(2, load.exitCode);
        assertEquals("loadgen: -t is YCSB's transaction phase: run 'loadgen run' with the same options instead",
                load.err.strip());
    }

    @Test
    void theSummaryHasYcsbsCleanupAndGcLines() {
        Cli cli = Cli.run("run", "--driver", "noop", "-R", "500", "-d", "200ms", "-q");
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.out.contains("\n[CLEANUP], Operations, 1\n"), cli.out);
        assertTrue(cli.out.contains("\n[CLEANUP], AverageLatency(us), "), cli.out);
        assertTrue(cli.out.lines().anyMatch(l -> l.matches("\\[TOTAL_GCs], Count, \\d+")), cli.out);
        assertTrue(cli.out.lines().anyMatch(l -> l.matches("\\[TOTAL_GC_TIME], Time\\(ms\\), \\d+")), cli.out);
        assertTrue(cli.out.lines().anyMatch(l -> l.matches("\\[TOTAL_GC_TIME_%], Time\\(%\\), [0-9.E-]+")), cli.out);
        assertTrue(cli.out.lines().anyMatch(l -> l.startsWith("[TOTAL_GCS_")), "per collector: " + cli.out);
    }
}
