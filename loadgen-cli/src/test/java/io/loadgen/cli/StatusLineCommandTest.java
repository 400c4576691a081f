package io.loadgen.cli;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The status line on the command line: the default reads as a person reads, {@code --status ycsb} and YCSB's own
 * {@code -s} give YCSB's line on every command that prints one, the default keeps to the terminal's width
 * ({@code COLUMNS}), and drivers' INFO lines show only with {@code -v}.
 */
class StatusLineCommandTest {
    /** A 1,000 ops/s run of 1 s on mockdb, 200 ms intervals, with {@code extra} options; no COLUMNS set. */
    private static Cli run(Map<String, String> env, String... extra) {
        List<String> args = new ArrayList<>(List.of("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms",
                "--target", "1000", "--duration", "1s", "--interval", "200ms", "--seed", "3"));
        args.addAll(List.of(extra));
        Cli cli = Cli.run(env, args.toArray(new String[0]));
        assertEquals(0, cli.exitCode, cli.err);
        return cli;
    }

    private static List<String> statusLines(Cli cli) {
        return cli.err.lines().filter(ChildProcess::isStatusLine).toList();
    }

    private static boolean ycsb(String line) {
        return line.contains(" sec: ") && line.contains("[Intended-READ: Count=") && line.contains("[READ returns: ");
    }

    @Test
    void theDefaultLineHasAUnitOnEveryNumber() {
        List<String> lines = statusLines(run(Map.of()));
        assertTrue(lines.size() >= 4, "one line per 200 ms interval: " + lines);
        String full = "\\d\\.\\ds  [\\d,]+/s of 1,000/s  READ p99 intended [\\d.]+ (us|ms) \\| service [\\d.]+ (us|ms)"
                + "  errors 0(  behind [\\d.]+ (ms|s))?(  \\[.*])?";
        for (String line : lines) {
            assertFalse(ycsb(line), line);
            assertTrue(line.matches(full) || line.matches("\\d\\.\\ds  [\\d,]+ ops? in the final [\\d.]+ (us|ms)  .*"),
                    line);
            assertTrue(line.length() <= 120, "120 columns without COLUMNS: " + line);
        }
        assertTrue(lines.get(0).startsWith("0.2s  "), lines.get(0));
    }

    @Test
    void statusYcsbAndYcsbsOwnDashSGiveYcsbsLine() {
        for (String[] flags : new String[][]{{"--status", "ycsb"}, {"--status", "YCSB"}, {"-s"}}) {
            List<String> lines = statusLines(run(Map.of(), flags));
            assertTrue(lines.size() >= 4, String.join(" ", flags) + ": " + lines);
            for (String line : lines) {
                assertTrue(ycsb(line), String.join(" ", flags) + ": " + line);
            }
        }
        List<String> human = statusLines(run(Map.of(), "-s", "--status", "human"));
        assertTrue(human.stream().noneMatch(StatusLineCommandTest::ycsb), "an explicit --status wins over -s: " + human);
    }

    @Test
    void loadAndSweepTakeTheSameChoice() {
        Cli load = Cli.run(Map.of(), "load", "--driver", "mockdb", "-p", "recordcount=300", "--target", "1000",
                "--interval", "100ms", "-s");
        assertEquals(0, load.exitCode, load.err);
        assertTrue(statusLines(load).stream().anyMatch(l -> l.contains(" sec: ") && l.contains("[INSERT returns: ")),
                load.err);
        Cli sweep = Cli.run(Map.of(), "sweep", "--driver", "mockdb", "--rates", "200,400", "--duration", "300ms",
                "--interval", "100ms", "--status", "ycsb");
        assertEquals(0, sweep.exitCode, sweep.err);
        assertTrue(statusLines(sweep).size() >= 4 && statusLines(sweep).stream().allMatch(StatusLineCommandTest::ycsb),
                sweep.err);
        Cli humanSweep = Cli.run(Map.of(), "sweep", "--driver", "mockdb", "--rates", "200", "--duration", "300ms",
                "--interval", "100ms");
        assertEquals(0, humanSweep.exitCode, humanSweep.err);
        assertTrue(statusLines(humanSweep).stream().anyMatch(l -> l.contains("/s of 200/s  READ p99 intended ")),
                humanSweep.err);
        assertEquals(io.loadgen.core.run.StatusFormat.YCSB,
                Cli.parse(new DemoCommand(null), "--status", "ycsb").status.format(false), "demo takes it too");
    }

    @Test
    void theDefaultLineKeepsToTheTerminalsWidth() {
        // A READ/UPDATE mix: both types are more than 100 columns together, so the second one gives way.
        Cli cli = Cli.run(Map.of("COLUMNS", "100"), "run", "--driver", "mockdb", "-p", "mockdb.delay=1ms",
                "-p", "recordcount=100", "-p", "readproportion=0.5", "-p", "updateproportion=0.5",
                "--target", "1000", "--duration", "1s", "--interval", "200ms", "--seed", "3");
        assertEquals(0, cli.exitCode, cli.err);
        List<String> lines = statusLines(cli);
        assertTrue(lines.size() >= 4, cli.err);
        for (String line : lines) {
            assertTrue(line.length() <= 100, line.length() + " columns: " + line);
        }
        assertTrue(lines.stream().anyMatch(l -> l.contains("  +1 op type  errors ")), String.join("\n", lines));
        assertEquals(100, StatusOptions.width(Map.of("COLUMNS", "100")));
        assertEquals(120, StatusOptions.width(Map.of()), "not set");
        assertEquals(120, StatusOptions.width(Map.of("COLUMNS", "wide")), "not a number");
        assertEquals(120, StatusOptions.width(Map.of("COLUMNS", "0")));
    }

    /** stw-mockdb with frequent short pauses: each is an INFO line of the driver's. */
    private static ChildProcess pausingRun(String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--driver", "stw-mockdb",
                "-p", "stw-mockdb.fast.probability=0.8901", "-p", "stw-mockdb.stw.probability=0.01",
                "-p", "stw-mockdb.stw.min=2ms", "-p", "stw-mockdb.stw.max=4ms",
                "--target", "1000", "--threads", "2", "--duration", "1s", "--interval", "250ms", "--seed", "7"));
        args.addAll(List.of(extra));
        // A line wide enough for every note: on a loaded machine the harness's own note ([harness stalled ...]) comes
        // too, and a 120-column line keeps it before the driver's counters, which this test is about.
        ProcessBuilder b = new ProcessBuilder(ChildProcess.command(ChildProcess.testClasspath(), Main.class.getName(),
                args.toArray(new String[0])));
        b.environment().put("COLUMNS", "400");
        return ChildProcess.start(b);
    }

    @Test
    void driversInfoLinesShowOnlyWithVerbose() throws Exception {
        ChildProcess plain = pausingRun();
        ChildProcess verbose = pausingRun("-v");
        assertEquals(0, plain.awaitExit(60), plain.err());
        assertEquals(0, verbose.awaitExit(60), verbose.err());

        assertFalse(plain.err().contains(" INFO "), "no INFO lines without -v: " + plain.err());
        assertFalse(plain.err().contains("StwMockDbDriver - stop-the-world #"), plain.err());
        assertTrue(plain.err().contains(" stop the world pauses"),
                "the pauses are counted on the status line instead: " + plain.err());
        assertTrue(plain.out().contains("[DRIVER], stop_the_world_pauses, "), "and in the summary: " + plain.out());

        assertTrue(verbose.err().contains("StwMockDbDriver - stop-the-world #"), "-v shows them: " + verbose.err());
    }
}
