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

    @Test
    void everyCommandTakesDashQ() {
        var commands = Main.commandLine(System.out, System.err).getSubcommands();
        assertTrue(commands.size() >= 13, commands.keySet().toString());
        commands.forEach((name, cl) -> {
            assertTrue(cl.getCommandSpec().findOption("-q") != null, name + " takes -q");
            assertTrue(cl.getCommandSpec().findOption("--quiet") != null, name + " takes --quiet");
        });
    }

    /** gate -q: the verdicts (its result) still print, the "wrote" line (progress) does not. */
    @Test
    void quietKeepsResultsAndDropsStatusLines() {
        Path json = dir.resolve("s.json");
        assertEquals(0, Cli.run("run", "--driver", "noop", "--operations", "10", "-q", "--json", json.toString()).exitCode);
        Path junit = dir.resolve("gate.xml");
        Cli loud = Cli.run("gate", json.toString(), "--rule", "READ.service.p99 < 60m", "--junit", junit.toString());
        assertTrue(loud.err.contains("loadgen: wrote " + junit), loud.err);
        for (String q : new String[]{"-q", "--quiet"}) {
            Cli quiet = Cli.run("gate", q, json.toString(), "--rule", "READ.service.p99 < 60m", "--junit", junit.toString());
            assertEquals(0, quiet.exitCode, quiet.err);
            assertEquals("", quiet.err, "nothing but errors on stderr");
            assertTrue(quiet.out.contains("PASSED: the 1 gate passed"), quiet.out);
        }
        Cli bad = Cli.run("gate", "-q", dir.resolve("missing.json").toString(), "--rule", "READ.service.p99 < 60m");
        assertEquals(2, bad.exitCode);
        assertTrue(bad.err.startsWith("loadgen: "), "errors still print: " + bad.err);
    }

    /**
     * ping-server -q, in a child JVM (it runs until SIGTERM): it serves (a connection succeeds) and says nothing,
     * neither its address nor its stop; SIGTERM still ends it with 143.
     */
    @Test
    void aQuietServerServesSilently() throws Exception {
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "ping-server", "-q", "--port", Integer.toString(port));
        try {
            boolean up = false;
            long deadline = System.nanoTime() + 30_000_000_000L; // a JVM's start on a loaded machine: seconds
            while (!up && System.nanoTime() < deadline) {
                try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
                    up = true;
                } catch (java.io.IOException notYet) {
                    Thread.sleep(100);
                }
            }
            assertTrue(up, "the server listens: " + child.err());
            Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(child.process.pid())).start();
            assertEquals(0, kill.waitFor());
            assertEquals(143, child.awaitExit(30), child.err());
            assertEquals("", child.err().strip(), "-q: no address line, no stop line");
        } finally {
            child.process.destroyForcibly();
        }
    }
}
