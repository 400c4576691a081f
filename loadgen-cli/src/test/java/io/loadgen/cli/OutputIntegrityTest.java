package io.loadgen.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Outputs never clobber each other or lie about being written (issue 24, item 3): standard output on a full disk
 * fails every command that prints, outputs that would write one file (or one stream) are refused before anything
 * is written, and whole files appear complete or not at all.
 */
class OutputIntegrityTest {
    private static final File FULL = new File("/dev/full");
    private static final String FULL_STDOUT = "loadgen: cannot write standard output: No space left on device;"
            + " free space or choose another path, and run again\n";

    @TempDir
    Path dir;

    private static String[] run(String... extra) {
        String[] base = {"run", "--driver", "noop", "--target", "2000", "--duration", "1s", "-q"};
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    /** A child loadgen whose standard output is a full disk: its exit code and stderr. */
    private static ChildProcess toFullDisk(String... args) throws Exception {
        ChildProcess child = ChildProcess.javaWithStdout(FULL, ChildProcess.testClasspath(), Main.class.getName(), args);
        child.awaitExit(120);
        return child;
    }

    @Test
    void everyCommandThatPrintsFailsWhenStandardOutputCannotBeWritten() throws Exception {
        assumeTrue(FULL.exists(), "needs /dev/full (Linux)");
        Path log = dir.resolve("run.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        Path chart = Files.createDirectory(dir.resolve("charts"));
        List<String[]> commands = List.of(
                run(),
                new String[]{"report", "-i", log.toString()},
                new String[]{"sweep", "--driver", "noop", "--rates", "500", "--duration", "1s", "-q"},
                new String[]{"gate", log.toString(), "--rule", "READ.intended.p99 < 10s"},
                new String[]{"drivers"},
                new String[]{"plot", log.toString(), "-o", chart.toString()},
                new String[]{"--help"});
        for (String[] args : commands) {
            ChildProcess child = toFullDisk(args);
            String what = String.join(" ", args) + ": " + child.err();
            assertEquals(Main.EXIT_FAILED, child.process.exitValue(), what);
            assertTrue(child.err().endsWith(FULL_STDOUT), what);
            assertFalse(child.err().contains("Exception"), what);
        }
    }

    @Test
    void aCommandThatFailedKeepsItsExitCodeWhenStandardOutputFailsToo() throws Exception {
        assumeTrue(FULL.exists(), "needs /dev/full (Linux)");
        Path log = dir.resolve("run.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        ChildProcess gate = toFullDisk("gate", log.toString(), "--rule", "READ.intended.p99 < 1ns");
        assertEquals(Main.EXIT_GATE_FAILED, gate.process.exitValue(), gate.err());
        assertTrue(gate.err().endsWith(FULL_STDOUT), gate.err());
    }
}
