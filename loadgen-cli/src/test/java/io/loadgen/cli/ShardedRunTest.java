package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.log.LogHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --shard}, the Kubernetes environment contract ({@code JOB_COMPLETION_INDEX}, {@code LOADGEN_SHARDS}) and
 * {@code --start-at}, through the command line as users give them; the environment is the injected map of
 * {@link Cli#run(Map, String...)}, never the process's.
 */
class ShardedRunTest {
    private static final Pattern START_TIME = Pattern.compile("#\\[StartTime: (\\d+)\\.(\\d{3}) ");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void theIndexFromJobCompletionIndexAndTheCountFromLoadgenShardsSplitTheRunAndNameTheShard() throws Exception {
        Path log = dir.resolve("shard.hlog");
        Path json = dir.resolve("shard.json");
        Cli r = Cli.run(Map.of("JOB_COMPLETION_INDEX", "1", "LOADGEN_SHARDS", "4"), "run", "--driver", "noop",
                "-R", "10k", "--operations", "10", "-d", "5s", "-q", "--hlog", log.toString(), "--json", json.toString());
        assertEquals(0, r.exitCode, r.err);
        assertTrue(r.err.contains("loadgen: shard 1 of 4: target 2500 ops/s, operations 3"), r.err);
        JsonNode summary = JSON.readTree(json.toFile());
        assertEquals(2500.0, summary.get("target_ops_per_sec").asDouble());
        assertEquals(3, summary.at("/operations/READ/count").asLong(), "10 over 4 shards: 3, 3, 2, 2");
        assertEquals(1, summary.at("/shard/index").asInt());
        assertEquals(4, summary.at("/shard/count").asInt());
        assertTrue(summary.at("/shard/start_at").isNull());
        Map<String, String> shard = header(log).value("shard").map(LogHeader::keyValues).orElseThrow();
        assertEquals(Map.of("index", "1", "count", "4", "start_at", "-"), shard);
    }

    @Test
    void theCommandLineShardWinsOverTheEnvironment() {
        Cli r = Cli.run(Map.of("JOB_COMPLETION_INDEX", "3", "LOADGEN_SHARDS", "4"), "run", "--driver", "noop",
                "-R", "900", "--shard", "0/3", "--operations", "7", "-q");
        assertEquals(0, r.exitCode, r.err);
        assertTrue(r.err.contains("loadgen: shard 0 of 3: target 300 ops/s, operations 3"), r.err);
    }

    /**
     * A workload's threadcount is the whole run's, as its target is: 10 over 4 shards is 3, 3, 2, 2 (10 in all);
     * --threads is the shard's own and is not split.
     */
    @Test
    void aWorkloadsThreadcountIsSplitAndThreadsIsTheShardsOwn() {
        int[] expected = {3, 3, 2, 2};
        for (int i = 0; i < 4; i++) {
            RunCommand run = Cli.parse(new RunCommand(null), "--driver", "noop", "-p", "recordcount=10",
                    "-p", "threadcount=10", "--shard", i + "/4");
            run.load.shard(Map.of(), false);
            assertEquals(expected[i], run.load.builder().build().threads(), "shard " + i);
        }
        RunCommand own = Cli.parse(new RunCommand(null), "--driver", "noop", "-p", "recordcount=10",
                "-p", "threadcount=10", "--threads", "6", "--shard", "1/4");
        own.load.shard(Map.of(), false);
        assertEquals(6, own.load.builder().build().threads());
    }

    @Test
    void everyPhaseTheWorkloadsTargetAndEachSweepRateAreSplit() throws Exception {
        Path phases = dir.resolve("phases.yaml");
        Files.writeString(phases, "driver: noop\nthreads: 1\nphases:\n"
                + "  - {name: hold, duration: 200ms, rate: 400}\n"
                + "  - {name: ramp, duration: 200ms, rate: {from: 400, to: 1200}}\n");
        Path json = dir.resolve("phases.json");
        Cli phased = Cli.run(Map.of(), "run", "--driver", "noop", "--phases", phases.toString(), "--shard", "1/4",
                "-q", "--json", json.toString());
        assertEquals(0, phased.exitCode, phased.err);
        // The whole profile's mean is (400 x 0.2 + 800 x 0.2) / 0.4 = 600 ops/s; the shard's, a quarter.
        assertTrue(phased.err.contains("loadgen: shard 1 of 4: target phases, mean 150 ops/s"), phased.err);
        assertEquals(150.0, JSON.readTree(json.toFile()).get("target_ops_per_sec").asDouble(), 1e-9);

        Cli target = Cli.run(Map.of(), "run", "--driver", "noop", "-p", "recordcount=10", "-p", "target=1000",
                "-p", "operationcount=10", "--shard", "3/4", "-q");
        assertEquals(0, target.exitCode, target.err);
        assertTrue(target.err.contains("loadgen: shard 3 of 4: target 250 ops/s, operations 2"), target.err);

        Path sweep = dir.resolve("sweep.json");
        Cli steps = Cli.run(Map.of("JOB_COMPLETION_INDEX", "0"), "sweep", "--driver", "noop", "--rates", "1k,2k",
                "--shards", "4", "-d", "200ms", "-q", "--json", sweep.toString());
        assertEquals(0, steps.exitCode, steps.err);
        JsonNode rows = JSON.readTree(sweep.toFile());
        assertEquals(250.0, rows.get(0).get("offered_ops_per_sec").asDouble());
        assertEquals(500.0, rows.get(1).get("offered_ops_per_sec").asDouble());
    }

    @Test
    void loadShardsInsertTheirOwnSlicesOfTheKeysWhichCoverTheRangeOnce() {
        long next = 100;
        for (int i = 0; i < 3; i++) {
            Cli r = Cli.run(Map.of(), "load", "--driver", "noop", "-p", "recordcount=110", "-p", "insertstart=100",
                    "-p", "insertcount=10", "--shard", i + "/3", "-q");
            assertEquals(0, r.exitCode, r.err);
            long count = i == 0 ? 4 : 3;
            assertTrue(r.err.contains("loadgen: shard " + i + " of 3: target unthrottled, operations " + count
                    + ", keys [" + next + ", " + (next + count) + ")"), r.err);
            next += count;
        }
        assertEquals(110, next);
    }

    @Test
    void badShardInputIsOneLineAndExitCode2() {
        String[][] envAndArgs = {
                {"JOB_COMPLETION_INDEX=2", "run --driver noop -d 1s"},
                {"JOB_COMPLETION_INDEX=4 LOADGEN_SHARDS=4", "run --driver noop -d 1s"},
                {"JOB_COMPLETION_INDEX=x LOADGEN_SHARDS=4", "run --driver noop -d 1s"},
                {"", "run --driver noop -d 1s --shards 4"},
                {"LOADGEN_SHARDS=4", "run --driver noop -d 1s"},
                {"", "run --driver noop -d 1s --shard 4/4"},
                {"", "run --driver noop -d 1s --shard 0/0"},
                {"", "run --driver noop -d 1s --shard 1/3 --shards 4"},
                {"", "run --driver noop --shard 1/4 --operations 3"},
                {"", "sweep --driver noop --rates 1k --shard 1/4 -p operationcount=2 -p recordcount=10"},
        };
        for (String[] c : envAndArgs) {
            Map<String, String> env = new java.util.HashMap<>();
            for (String kv : c[0].split(" ")) {
                if (!kv.isEmpty()) {
                    env.put(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
                }
            }
            Cli r = Cli.run(env, c[1].split(" "));
            assertEquals(2, r.exitCode, c[0] + " " + c[1] + ": " + r.err);
            assertEquals(1, r.err.strip().lines().count(), r.err);
            assertTrue(r.err.startsWith("loadgen: "), r.err);
        }
    }

    @Test
    void startAtIsTheLogsStartTimeAndTheJsonsStartTime() throws Exception {
        long at = Instant.now().toEpochMilli() + 1500; // ahead of the driver's open and warm-up
        Path log = dir.resolve("at.hlog");
        Path json = dir.resolve("at.json");
        Cli r = Cli.run(Map.of(), "run", "--driver", "noop", "-R", "1000", "--operations", "20", "--shard", "0/2",
                "--start-at", Long.toString(at), "-q", "--hlog", log.toString(), "--json", json.toString());
        assertEquals(0, r.exitCode, r.err);
        assertEquals(at, startTimeMs(log), "the log's StartTime is the --start-at instant");
        JsonNode summary = JSON.readTree(json.toFile());
        assertEquals(Instant.ofEpochMilli(at).toString(), summary.get("start_time").asText());
        assertEquals(Instant.ofEpochMilli(at).toString(), summary.at("/shard/start_at").asText());
        // Waiting 1.5 s for the instant is not a backlog: the schedule starts after the wait, at the instant.
        assertTrue(summary.at("/operations/READ/intended/max_us").asDouble() < 1_000_000,
                "no operation was due long before the wait ended: " + summary.at("/operations/READ/intended"));
        assertEquals(Map.of("index", "0", "count", "2", "start_at", Long.toString(at)),
                header(log).value("shard").map(LogHeader::keyValues).orElseThrow());
    }

    @Test
    void aStartAtInThePastCatchesUpFromThatInstantByDefaultAndIsRefusedOnRequest() throws Exception {
        long at = Instant.now().toEpochMilli() - 300;
        Path log = dir.resolve("late.hlog");
        Path json = dir.resolve("late.json");
        Cli late = Cli.run(Map.of(), "run", "--driver", "noop", "-R", "1000", "--operations", "400",
                "--start-at", Instant.ofEpochMilli(at).toString(), "-q", "--hlog", log.toString(), "--json", json.toString());
        assertEquals(0, late.exitCode, late.err);
        assertTrue(late.err.contains("after --start-at " + Instant.ofEpochMilli(at) + "; catching up"), late.err);
        assertEquals(at, startTimeMs(log), "the schedule starts at the instant, not when the run was ready");
        // The first 300 operations were due before the run was ready: they waited at least until it was.
        JsonNode intended = JSON.readTree(json.toFile()).at("/operations/READ/intended");
        assertTrue(intended.get("max_us").asDouble() >= 300_000, "the backlog counts in intended: " + intended);

        Cli refused = Cli.run(Map.of(), "run", "--driver", "noop", "-R", "1000", "--operations", "10",
                "--start-at", Long.toString(at), "--late-start", "refuse", "--hlog", dir.resolve("refused.hlog").toString());
        assertEquals(2, refused.exitCode, refused.err);
        assertTrue(refused.err.matches("loadgen: --start-at \\S+ passed \\d+ms ago \\(now .*\\) and --late-start is"
                + " refuse; .*\\R"), refused.err);
        assertFalse(Files.exists(dir.resolve("refused.hlog")), "refused before anything is opened");
    }

    @Test
    void aStartAtMoreThanADayAwayOrNotAnInstantIsRefused() {
        for (String bad : new String[]{Instant.now().plusSeconds(25 * 3600).toString(),
                Instant.now().minusSeconds(25 * 3600).toString(), "2026-11-25", "tomorrow"}) {
            Cli r = Cli.run(Map.of(), "run", "--driver", "noop", "-d", "1s", "--start-at", bad);
            assertEquals(2, r.exitCode, bad + ": " + r.err);
            assertEquals(1, r.err.strip().lines().count(), r.err);
        }
    }

    private static LogHeader header(Path log) throws Exception {
        return LogHeader.of(log.toString(), Files.readAllLines(log).stream().filter(l -> l.startsWith("#"))
                .map(l -> l.substring(1)).toList());
    }

    private static long startTimeMs(Path log) throws Exception {
        Matcher m = START_TIME.matcher(Files.readString(log));
        assertTrue(m.find(), "a StartTime line");
        return Long.parseLong(m.group(1)) * 1000 + Long.parseLong(m.group(2));
    }
}
