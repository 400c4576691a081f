package io.loadgen.cli;

import io.loadgen.core.run.RunOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Faults a user meets (issue 24 item 6): values accepted without a word that then did something else, or
 * nothing. Each is bad input now (one line naming the problem and the fix, exit 2, no stack trace, nothing on
 * stdout), or is said where it cannot be known before the run.
 */
class UserFaultsTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void log() {
        Cli run = Cli.run("run", "--driver", "noop", "--target", "1000", "--operations", "200", "-q",
                "--hlog", dir.resolve("run.hlog").toString());
        assertEquals(0, run.exitCode, run.err);
    }

    static Stream<Arguments> refused() {
        String log = dir.resolve("run.hlog").toString();
        return Stream.of(
                Arguments.of(List.of("report", "-i", log, "-correctLogWithKnownCoordinatedOmission", "-5"),
                        "-correctLogWithKnownCoordinatedOmission must be a positive expected interval in the log's units"
                                + " (ns for loadgen logs, e.g. 1000000 for 1 ms), or 0 for none; got -5.0"),
                Arguments.of(List.of("report", "-i", log, "--correct-log-with-known-coordinated-omission", "NaN"),
                        "-correctLogWithKnownCoordinatedOmission must be a positive expected interval"),
                Arguments.of(List.of("report", "-i", log, "-start", "-3"), "--start -3.0 is not a time in the log"),
                Arguments.of(List.of("report", "-i", log, "-end", "-1"), "--end -1.0 is not a time in the log"),
                Arguments.of(List.of("report", "-i", log, "-outputValueUnitRatio", "-1"),
                        "--output-value-unit-ratio must be positive"),
                Arguments.of(List.of("report", "-i", log, "-o", dir.resolve("r").toString(), "-mwp", "101"),
                        "-mwp must be a percentile from 0 to 100"),
                // --warmup on a count-bounded run at a fixed rate that the count ends before the warm-up does
                Arguments.of(List.of("run", "--driver", "noop", "--operations", "50", "--target", "100", "--warmup", "1s"),
                        "--warmup 1s would leave out all 50 operations: at --target 100/s they take 500ms; give more"
                                + " --operations or a shorter --warmup"),
                // a sweep of 28 hours, and one of 100,000 steps
                Arguments.of(List.of("sweep", "--driver", "noop", "--from", "10", "--to", "1000", "--steps", "10000", "-d", "10s"),
                        "the sweep's 10000 steps would run for 27h46m40s, longer than the limit of 24h for a sweep;"
                                + " give fewer --steps (or --rates), a shorter --duration or fewer --operations per step"),
                Arguments.of(List.of("sweep", "--driver", "noop", "--from", "10", "--to", "1000", "--steps", "100000", "-d", "1s"),
                        "--steps 100000 is above the limit of 10000"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void refused(List<String> args, String expected) throws Exception {
        Cli cli = Cli.run(args.toArray(new String[0]));
        assertEquals(2, cli.exitCode, cli.err);
        assertEquals(1, cli.err.lines().count(), "one line: " + cli.err);
        assertTrue(cli.err.startsWith("loadgen: " + expected), cli.err);
        assertFalse(cli.err.contains("\tat "), "no stack trace without -v");
        assertEquals("", cli.out);
        assertFalse(Files.exists(dir.resolve("r.hgrm")), "nothing written");
    }

    /** A count-bounded run without a rate cannot know it ends inside its warm-up; it says so when it does. */
    @Test
    void aRunThatEndsWithinItsWarmupSaysNothingWasLeftOut() {
        Cli cli = Cli.run("run", "--driver", "noop", "--operations", "100", "--warmup", "30s", "-q");
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.err.contains("loadgen: warning: the run ended within its --warmup 30s, so nothing was left out:"
                + " the summary counts every operation"), cli.err);
        assertTrue(cli.out.contains("[READ], Operations, 100"), cli.out);
    }

    /** A warm-up the count outlasts is honoured: the first second of 300 operations at 100/s is left out. */
    @Test
    void aWarmupTheCountOutlastsIsLeftOut() {
        Cli cli = Cli.run("run", "--driver", "noop", "--operations", "300", "--target", "100", "--warmup", "1s", "-q");
        assertEquals(0, cli.exitCode, cli.err);
        assertFalse(cli.err.contains("warning"), cli.err);
        long counted = Long.parseLong(cli.out.lines().filter(l -> l.startsWith("[READ], Operations, ")).findFirst()
                .orElseThrow().substring("[READ], Operations, ".length()));
        // 100 ops/s for 1 s left out, give or take the start offset's share of one interval and a late sample
        assertTrue(counted >= 150 && counted <= 250, "counted after the warm-up: " + counted);
    }

    /** A sweep longer than a minute says its planned length before its first step; a short one says nothing. */
    @Test
    void aLongSweepSaysItsPlannedLength() {
        assertEquals("loadgen: sweep of 100 steps: 1m40s planned, plus each step's start",
                SweepCommand.plannedLength((n, rate) -> RunOptions.builder("noop").target(rate)
                        .duration(Duration.ofSeconds(1)).build(), rates(100)));
        assertEquals("loadgen: sweep of 3 steps: 2h30m0s planned, plus each step's start",
                SweepCommand.plannedLength((n, rate) -> RunOptions.builder("noop").target(rate)
                        .duration(Duration.ofHours(1)).operations(3_600_000L).build(), List.of(500.0, 1000.0, 2000.0)),
                "a step ends at its count or its duration, first: 1 h (its duration), 1 h and 30 min (their counts)");
        assertNull(SweepCommand.plannedLength((n, rate) -> RunOptions.builder("noop").target(rate)
                .duration(Duration.ofSeconds(10)).build(), rates(5)));
        assertThrows(io.loadgen.core.BadInputException.class, () -> SweepCommand.plannedLength((n, rate) ->
                RunOptions.builder("noop").target(rate).duration(Duration.ofHours(13)).build(), rates(2)));
    }

    private static List<Double> rates(int n) {
        return Stream.iterate(100.0, r -> r + 100).limit(n).toList();
    }
    /**
     * n operations at a fixed rate r read r ops/s (issue 24 item 6: 3 operations at 1/s read 1.39/s, the time ending at
     * the last completion, up to one schedule interval before the schedule's end). The run's time is the n / r its
     * schedule gives them, or longer if the last completed later; the JSON, the YCSB summary and a report from the
     * interval log agree.
     */
    @Test
    void aCountedRunAtAFixedRateReadsItsRate() throws Exception {
        Path json = dir.resolve("counted.json");
        Path hlog = dir.resolve("counted.hlog");
        Cli run = Cli.run("run", "--driver", "noop", "--operations", "20", "--target", "20", "--seed", "7", "-q",
                "--json", json.toString(), "--hlog", hlog.toString());
        assertEquals(0, run.exitCode, run.err);
        var summary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        double seconds = summary.get("duration_s").asDouble();
        assertTrue(seconds >= 1.0 && seconds < 1.5, "20 operations at 20/s span at least 1 s: " + seconds);
        assertEquals(20 / seconds, summary.get("throughput_ops_per_sec").asDouble(), 1e-9);
        Cli report = Cli.run("report", "-i", hlog.toString(), "--json", "-");
        assertEquals(0, report.exitCode, report.err);
        var fromLog = new com.fasterxml.jackson.databind.ObjectMapper().readTree(report.out);
        assertEquals(seconds, fromLog.get("duration_s").asDouble(), 0.002, "the log's intervals span the same time");
    }
}
