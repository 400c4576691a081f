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
        return OutputSafetyTest.run(extra);
    }

    /** A child loadgen whose standard output is a full disk: its exit code and stderr. */
    private static ChildProcess toFullDisk(String... args) throws Exception {
        ChildProcess child = ChildProcess.javaWithStdout(FULL, ChildProcess.testClasspath(), Main.class.getName(),
                args);
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
    void aFailedGateWhoseVerdictDidNotReachStandardOutputExits1AsForAnyOutput() throws Exception {
        assumeTrue(FULL.exists(), "needs /dev/full (Linux)");
        Path log = dir.resolve("run.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        ChildProcess gate = toFullDisk("gate", log.toString(), "--rule", "READ.intended.p99 < 1ns");
        assertEquals(Main.EXIT_FAILED, gate.process.exitValue(), gate.err());
        assertTrue(gate.err().endsWith(FULL_STDOUT), gate.err());
    }

    private static void assertRefused(String expected, Cli r) {
        assertEquals(Main.EXIT_BAD_INPUT, r.exitCode, r.out + r.err);
        assertEquals("loadgen: " + expected + "\n", r.err);
    }

    @Test
    void outputsThatWouldWriteOneFileOrOneStreamAreRefusedBeforeAnythingIsWritten() throws Exception {
        Path hgrm = dir.resolve("hgrm");
        Path inHgrm = hgrm.resolve("READ.intended.hgrm");
        assertRefused("--hlog " + inHgrm + " is a file that --hgrm " + hgrm + " writes; give each output its own file",
                Cli.run(run("--hgrm", hgrm.toString(), "--hlog", inHgrm.toString())));
        assertFalse(Files.exists(inHgrm));
        assertRefused("--json " + hgrm + " is the --hgrm directory; give each output its own file",
                Cli.run(run("--hgrm", hgrm.toString(), "--json", hgrm.toString())));

        Path steps = dir.resolve("steps");
        Path stepLog = steps.resolve("step-02-1000ops.hlog");
        assertRefused("--csv " + stepLog + " is a file that --hlog-dir " + steps + " writes; give each output its own"
                + " file", Cli.run("sweep", "--driver", "noop", "--rates", "500,1000", "--duration", "1s", "-q",
                "--hlog-dir", steps.toString(), "--csv", stepLog.toString()));
        assertFalse(Files.exists(stepLog));

        assertRefused("--hlog /dev/stdout and --json - both write to standard output, where they would interleave;"
                + " send all but one to a file", Cli.run(run("--json", "-", "--hlog", "/dev/stdout")));

        Path plot = Files.createDirectory(dir.resolve("plot"));
        Path chart = plot.resolve("mine.png");
        assertRefused("--json " + chart + " is a file that --plot " + plot + " writes; give each output its own file",
                Cli.run(run("--plot", plot.toString(), "--json", chart.toString())));
        assertFalse(Files.exists(chart));
    }

    @Test
    void aFileOutputWhoseDirectoryDoesNotExistIsRefusedNamingTheDirectory() throws Exception {
        Path log = dir.resolve("run.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        Path missing = dir.resolve("out").resolve("x");
        String tail = ": the directory " + missing + " does not exist; create it or choose another path";
        Path hlog = missing.resolve("run.hlog");
        assertRefused("--hlog " + hlog + tail, Cli.run(run("--hlog", hlog.toString())));
        Path base = missing.resolve("report");
        assertRefused("-o " + base + tail, Cli.run("report", "-i", log.toString(), "-o", base.toString()));
        Path merged = missing.resolve("merged.hlog");
        assertRefused("--merge-to " + merged + tail, Cli.run("report", "-i", log.toString(), "--merge-to",
                merged.toString()));
        Path junit = missing.resolve("gate.xml");
        assertRefused("--junit " + junit + tail, Cli.run("gate", log.toString(), "--rule", "READ.intended.p99 < 10s",
                "--junit", junit.toString()));
        Path csv = missing.resolve("sweep.csv");
        assertRefused("--csv " + csv + tail, Cli.run("sweep", "--driver", "noop", "--rates", "500", "--duration",
                "1s", "-q", "--csv", csv.toString()));
        assertFalse(Files.exists(dir.resolve("out")), "nothing was created");
    }

    @Test
    void twoRunsIntoOneHgrmDirectoryLeaveOnlyTheSecondRunsFiles() throws Exception {
        Path hgrm = Files.createDirectory(dir.resolve("hgrm"));
        Path notOurs = Files.writeString(hgrm.resolve("notes.hgrm"), "mine");
        Path other = Files.writeString(hgrm.resolve("UPDATE.txt"), "mine");
        assertEquals(0, Cli.run(run("--operation", "UPDATE", "--hgrm", hgrm.toString())).exitCode);
        assertTrue(Files.exists(hgrm.resolve("UPDATE.intended.hgrm")));
        Cli second = Cli.run(run("--operation", "READ", "--hgrm", hgrm.toString()));
        assertEquals(0, second.exitCode, second.err);
        try (var files = Files.list(hgrm)) {
            List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
            assertTrue(names.contains("READ.intended.hgrm"), names.toString());
            assertTrue(names.stream().noneMatch(n -> n.startsWith("UPDATE.") && n.endsWith(".hgrm")),
                    "the first run's files are gone: " + names);
            assertTrue(second.err.contains("loadgen: wrote " + (names.size() - 2) + " .hgrm files to " + hgrm),
                    "every file of ours left is one the second run wrote: " + names + " " + second.err);
        }
        assertEquals("mine", Files.readString(notOurs), "a file not of our naming is left alone");
        assertEquals("mine", Files.readString(other));
    }

    /**
     * A child loadgen allowed to write files of at most 1 KiB ({@code ulimit -f 1}; the JVM ignores SIGXFSZ, so a
     * write past it fails with "File too large"): a full disk for regular files, not only for {@code /dev/full}.
     */
    private static ChildProcess withFileSizeLimit(String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("/bin/sh", "-c", "ulimit -f 1 && exec \"$@\"", "sh",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:-UsePerfData",
                "-cp", ChildProcess.testClasspath(), Main.class.getName()));
        cmd.addAll(List.of(args));
        ChildProcess child = ChildProcess.start(new ProcessBuilder(cmd));
        child.awaitExit(120);
        return child;
    }

    /** The names in {@link #dir}'s subdirectory {@code sub}, sorted. */
    private List<String> names(Path sub) throws Exception {
        try (var files = Files.list(sub)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aWholeFileThatCannotBeWrittenLeavesThePreviousFileAndNoEmptyOrTemporaryOne() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "needs /bin/sh and ulimit");
        Path log = dir.resolve("run.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        Path out = Files.createDirectory(dir.resolve("out"));
        Path json = Files.writeString(out.resolve("run.json"), "{\"the previous run\": true}\n");

        ChildProcess r = withFileSizeLimit(run("--json", json.toString(), "--hgrm", out.resolve("hgrm").toString()));
        assertEquals(Main.EXIT_FAILED, r.process.exitValue(), r.err());
        assertTrue(r.err().contains("loadgen: cannot write --json " + json + ": File too large"), r.err());
        assertTrue(r.err().contains("loadgen: cannot write --hgrm " + out.resolve("hgrm") + ": File too large"),
                r.err());
        assertEquals("{\"the previous run\": true}\n", Files.readString(json), "the previous file is intact");
        assertEquals(List.of(), names(out.resolve("hgrm")), "no .hgrm file, empty or cut short");

        ChildProcess report = withFileSizeLimit("report", "-i", log.toString(), "-o", out.resolve("report").toString(),
                "--merge-to", out.resolve("merged.hlog").toString());
        assertEquals(Main.EXIT_FAILED, report.process.exitValue(), report.err());
        assertFalse(report.err().contains("Exception"), report.err());
        Path charts = Files.createDirectory(out.resolve("charts"));
        ChildProcess plot = withFileSizeLimit("plot", log.toString(), "-o", charts.toString());
        assertEquals(Main.EXIT_FAILED, plot.process.exitValue(), plot.err());
        assertTrue(plot.err().startsWith("loadgen: cannot write " + charts.resolve("run.percentiles.png")
                + ": File too large; "), plot.err());
        assertEquals(1, plot.err().lines().count(), plot.err());
        ChildProcess html = withFileSizeLimit("plot", log.toString(), "--html", out.resolve("page.html").toString());
        assertEquals(Main.EXIT_FAILED, html.process.exitValue(), html.err());
        assertEquals("loadgen: cannot write " + out.resolve("page.html") + ": File too large; free space or choose"
                + " another path, and run again\n", html.err());

        assertEquals(List.of("charts", "hgrm", "run.json"), names(out), "nothing else, no temporary file");
        assertEquals(List.of(), names(charts));
    }

    /** A chart that cannot be written is one line naming it and the cause, not the encoder's IIOException. */
    @Test
    void aChartOnAFullDiskIsOneLineNamingTheFile() throws Exception {
        assumeTrue(FULL.exists(), "needs /dev/full (Linux)");
        Path plot = Files.createDirectory(dir.resolve("plot"));
        Path chart = Files.createSymbolicLink(plot.resolve("run.percentiles.png"), FULL.toPath());
        Cli r = Cli.run(run("--plot", plot.toString()));
        assertEquals(Main.EXIT_FAILED, r.exitCode, r.err);
        assertTrue(r.err.endsWith("loadgen: cannot write " + chart + ": No space left on device; free space or choose"
                + " another path, and run again\n"), r.err);
        assertFalse(r.err.contains("Exception"), r.err);
    }

    /** A merge killed while it writes leaves no file: before, --merge-to was created empty at the start. */
    @Test
    void aKilledMergeLeavesNoFile() throws Exception {
        Path log = dir.resolve("run.hlog");
        assertEquals(0, Cli.run(run("--hlog", log.toString())).exitCode);
        List<String> lines = Files.readAllLines(log);
        Path out = Files.createDirectory(dir.resolve("out"));
        Path merged = out.resolve("merged.hlog");
        ChildProcess child = ChildProcess.java(ChildProcess.testClasspath(), Main.class.getName(),
                "report", "-i", "-", "--merge-to", merged.toString());
        try {
            var stdin = child.process.getOutputStream();
            stdin.write((String.join("\n", lines.subList(0, lines.size() - 1)) + "\n").getBytes(
                    java.nio.charset.StandardCharsets.UTF_8));
            stdin.flush(); // and not closed: the report waits for the rest of its input, mid-merge
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (names(out).isEmpty() && System.nanoTime() < deadline && child.process.isAlive()) {
                Thread.sleep(20);
            }
            assertEquals(1, names(out).size(), "the merge is being written: " + names(out) + child.err());
        } finally {
            child.process.destroyForcibly();
            child.awaitExit(30);
        }
        assertFalse(Files.exists(merged), "a killed merge leaves no --merge-to file: " + names(out));
    }

    /** The interval log on standard output owns it: the summary for people goes to stderr, as with --json -. */
    @Test
    void anIntervalLogOnStandardOutputIsALogAndTheSummaryGoesToStderr() throws Exception {
        Path captured = dir.resolve("stdout.hlog");
        ChildProcess child = ChildProcess.javaWithStdout(captured.toFile(), ChildProcess.testClasspath(),
                Main.class.getName(), run("--hlog", "/dev/stdout"));
        assertEquals(0, child.awaitExit(120), child.err());
        assertTrue(child.err().contains("[OVERALL], Throughput(ops/sec)"), child.err());
        assertFalse(Files.readString(captured).contains("[OVERALL]"), "no summary in the log");
        Cli gate = Cli.run("gate", captured.toString(), "--rule", "READ.intended.count > 0");
        assertEquals(0, gate.exitCode, "stdout holds a whole log: " + gate.out + gate.err);
    }
}
