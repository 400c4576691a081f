package io.loadgen.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Habits every command shares, as a new user tries them: {@code loadgen} alone, counts of one said in the
 * singular, {@code -q} everywhere.
 */
class HabitsTest {
    @TempDir
    Path dir;

    @Test
    void noCommandPrintsTheUsageToStderrAndExits2() {
        Cli cli = Cli.run();
        assertEquals(2, cli.exitCode, "no command is bad input, not success");
        assertEquals("", cli.out, "the usage goes to stderr, so a pipe does not take it for output");
        assertTrue(cli.err.startsWith("loadgen: no command given; name one of those below"), cli.err);
        assertTrue(cli.err.contains("Usage: loadgen"), cli.err);
        assertTrue(cli.err.contains("http-server"), "it lists the commands: " + cli.err);
        Cli help = Cli.run("-h");
        assertEquals(0, help.exitCode, "asking for the usage is success");
        assertTrue(help.out.contains("Usage: loadgen"), help.out);
    }

    /**
     * One operation at 1000 ops/s on one thread: the concurrency line counts 1 thread, 1 in flight, at most 1
     * operation; a gate with one rule passes "the 1 gate", a windowed rule over a run shorter than its window
     * judges 1 window.
     */
    @Test
    void aCountOfOneIsSingular() {
        Path json = dir.resolve("one.json");
        Path hlog = dir.resolve("one.hlog");
        Cli run = Cli.run("run", "--driver", "noop", "--operations", "1", "-R", "1000", "-q", "--json", json.toString(),
                "--hlog", hlog.toString());
        assertEquals(0, run.exitCode, run.err);
        assertTrue(run.out.contains("Concurrency: 1 thread x 1 in flight = at most 1 operation in flight."), run.out);
        Cli gate = Cli.run("gate", json.toString(), "--rule", "READ.intended.p99 < 60m");
        assertEquals(0, gate.exitCode, gate.err);
        assertTrue(gate.out.contains("PASSED: the 1 gate passed"), gate.out);
        Cli windows = Cli.run("gate", hlog.toString(), "--rule", "READ.intended.p99 < 60m over 10s windows");
        assertEquals(0, windows.exitCode, windows.err);
        assertTrue(windows.out.contains(", 1 window "), windows.out);
        assertTrue(!gate.out.contains(" 1 gates") && !run.out.contains(" 1 operations") && !run.out.contains(" 1 threads"),
                run.out + gate.out);
    }
}
