package io.loadgen.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Nothing measured is lost or silently wrong because of where it is written: a full disk is reported and
 * fails the command (after every other output is written), an output never replaces an input or another
 * output, and two runs never interleave one interval log. {@code /dev/full} is the full disk: every write
 * to it fails with ENOSPC.
 */
class OutputSafetyTest {
    private static final Path FULL = Path.of("/dev/full");

    @TempDir
    Path dir;

    private static void assumeFullDevice() {
        assumeTrue(Files.exists(FULL), "needs /dev/full (Linux)");
    }

    /** A short noop run with {@code extra} options: the command line these output tests start from. */
    static String[] run(String... extra) {
        String[] base = {"run", "--driver", "noop", "--target", "2000", "--duration", "1s", "-q"};
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return all;
    }

    @Test
    void anIntervalLogOnAFullDiskFailsTheRunAfterTheSummaryAndTheOtherOutputs() {
        assumeFullDevice();
        Path json = dir.resolve("run.json");
        Cli r = Cli.run(run("--hlog", FULL.toString(), "--json", json.toString()));
        assertEquals(Main.EXIT_FAILED, r.exitCode, r.err);
        assertTrue(r.out.contains("[OVERALL], Throughput(ops/sec)"), "the summary still prints: " + r.out);
        assertTrue(Files.exists(json), "the other outputs are still written");
        assertTrue(r.err.contains("loadgen: cannot write --hlog /dev/full: No space left on device; free space or"
                + " choose another path, and run again\n"), r.err);
    }

    @Test
    void aJsonSummaryOnAFullDiskFailsTheRunAndTheHgrmFilesAreStillWritten() {
        assumeFullDevice();
        Path hgrm = dir.resolve("hgrm");
        Cli r = Cli.run(run("--json", FULL.toString(), "--hgrm", hgrm.toString()));
        assertEquals(Main.EXIT_FAILED, r.exitCode, r.err);
        assertTrue(Files.exists(hgrm.resolve("READ.intended.hgrm")));
        assertTrue(r.err.contains("loadgen: cannot write --json /dev/full: No space left on device"), r.err);
        assertFalse(r.err.contains("Exception"), r.err);
    }

    @Test
    void reportAndGateOutputsOnAFullDiskFailTheCommand() {
        assumeFullDevice();
        Path log = dir.resolve("run.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        Cli report = Cli.run("report", "-i", log.toString(), "--json", FULL.toString());
        assertEquals(Main.EXIT_FAILED, report.exitCode, report.err);
        assertTrue(report.err.contains("loadgen: cannot write --json /dev/full: No space left on device"), report.err);
        Cli gate = Cli.run("gate", log.toString(), "--rule", "READ.intended.p99 < 10s", "--junit", FULL.toString());
        assertEquals(Main.EXIT_FAILED, gate.exitCode, gate.err);
        assertTrue(gate.out.contains("PASS"), gate.out);
        assertTrue(gate.err.contains("loadgen: cannot write --junit /dev/full: No space left on device"), gate.err);
    }

    @Test
    void anOutputThatIsAnInputOrAnotherOutputIsRefusedBeforeAnythingIsWritten() throws Exception {
        Path x = dir.resolve("x");
        Cli both = Cli.run(run("--hlog", x.toString(), "--json", x.toString()));
        assertEquals(Main.EXIT_BAD_INPUT, both.exitCode);
        assertEquals("loadgen: --hlog and --json both name " + x + "; give each output its own file\n", both.err);
        assertFalse(Files.exists(x));

        Path log = dir.resolve("in.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        byte[] before = Files.readAllBytes(log);
        Cli report = Cli.run("report", "-i", log.toString(), "-o", log.toString());
        assertEquals(Main.EXIT_BAD_INPUT, report.exitCode);
        assertEquals("loadgen: -o " + log + " is also the -i input; writing it would destroy what is read: choose"
                + " another output file\n", report.err);
        Cli gate = Cli.run("gate", log.toString(), "--rule", "READ.intended.p99 < 1s", "--junit", log.toString());
        assertEquals(Main.EXIT_BAD_INPUT, gate.exitCode, gate.err);
        assertEquals(1, gate.err.lines().count(), gate.err);
        assertTrue(java.util.Arrays.equals(before, Files.readAllBytes(log)), "the input is untouched");
    }

    /** Two runs on one --hlog used to interleave their lines; the second is now refused while the first writes. */
    @Test
    void aSecondRunCannotWriteAnIntervalLogThatARunIsWriting() throws Exception {
        Path log = dir.resolve("shared.hlog");
        ChildProcess first = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "run", "--driver", "noop", "--target", "1000", "--duration", "30s", "--interval", "200ms",
                "--hlog", log.toString());
        try {
            assertTrue(first.awaitStatusLine(30), "the first run started: " + first.err());
            Cli second = Cli.run(run("--hlog", log.toString()));
            assertEquals(Main.EXIT_BAD_INPUT, second.exitCode);
            assertEquals("loadgen: --hlog " + log + " is being written by another run; give each run its own"
                    + " interval log\n", second.err);
        } finally {
            first.process.destroy();
            first.awaitExit(30);
        }
        Cli gate = Cli.run("gate", log.toString(), "--rule", "READ.intended.count > 0");
        assertEquals(0, gate.exitCode, "the first run's log is intact: " + gate.out + gate.err);
    }

    @Test
    void gateOnADamagedLogHasItsOwnExitCode() throws Exception {
        Path log = dir.resolve("run.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        Cli twice = Cli.run("gate", log.toString(), log.toString(), "--rule", "READ.intended.p99 < 10s");
        assertEquals(Main.EXIT_DAMAGED_INPUT, twice.exitCode, twice.out + twice.err);
        assertTrue(twice.out.contains("input intact: ") && twice.out.contains("1 file given twice"), twice.out);
        assertTrue(twice.err.contains("loadgen: the gate did not judge: its input is damaged"), twice.err);
    }
}
