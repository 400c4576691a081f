package io.loadgen.cli;

import org.HdrHistogram.DoubleHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogProcessor;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code loadgen report} is a drop-in for HdrHistogram's {@code HistogramLogProcessor}: for logs written by
 * {@code loadgen run} (and untagged and DoubleHistogram logs, as other tools write) and a matrix of its
 * options, every file HistogramLogProcessor writes (BASE, BASE.hgrm, BASE.mwp) is byte for byte the
 * file {@code report} writes, under the single-dash spelling and under the GNU spelling. The processor
 * is the class from the HdrHistogram jar (asserted), run in this JVM so both see the same time zone
 * for the StartTime line; the standard-output cases run it from the jar in a child JVM.
 */
class ReportCompatibilityTest {
    private static final Map<String, String> GNU = Map.ofEntries(
            Map.entry("-i", "--input"), Map.entry("-o", "--output"), Map.entry("-tag", "--tag"),
            Map.entry("-csv", "--csv"), Map.entry("-start", "--start"), Map.entry("-end", "--end"),
            Map.entry("-outputValueUnitRatio", "--output-value-unit-ratio"),
            Map.entry("-percentilesOutputTicksPerHalf", "--percentiles-output-ticks-per-half"),
            Map.entry("-correctLogWithKnownCoordinatedOmission", "--correct-log-with-known-coordinated-omission"),
            Map.entry("-mwp", "--moving-window-percentile"), Map.entry("-mwpl", "--moving-window-length"),
            Map.entry("-listtags", "--list-tags"));

    @TempDir
    static Path dir;

    @BeforeAll
    static void writeLogs() throws IOException {
        // Two loadgen runs: a YCSB mix on a randomised store, and a store with stop-the-world pauses. The mix lifts
        // workloada's operationcount=1000 (0 = no limit), which would end it after 0.8 s, so it runs its 3 s.
        Cli mix = Cli.run("run", "--driver", "mockdb", "-P", "../workloads/workloada", "-p", "recordcount=1000",
                "-p", "operationcount=0",
                "-p", "mockdb.delay=1ms", "-p", "mockdb.randomize=true", "--target", "1200", "--threads", "3",
                "--duration", "3s", "--interval", "250ms", "--seed", "5", "-q", "--hlog", log("mix.hlog").toString());
        assertEquals(0, mix.exitCode, mix.err);
        Cli stw = Cli.run("run", "--driver", "stw-mockdb", "--target", "2000", "--threads", "2", "--duration", "2s",
                "--interval", "500ms", "--seed", "9", "-q", "--hlog", log("stw.hlog").toString());
        assertEquals(0, stw.exitCode, stw.err);
        writeUntagged(log("untagged.hlog"));
        writeDoubles(log("double.hlog"));
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(log("mix.hlog.gz")))) {
            out.write(Files.readAllBytes(log("mix.hlog")));
        }
        Cli merge = Cli.run("report", log("mix.hlog").toString(), log("stw.hlog").toString(),
                "--merge-to", log("merged.hlog").toString(), "--json", dir.resolve("merged.json").toString(),
                "--allow-mixed");
        assertEquals(0, merge.exitCode, merge.err);
    }

    private static Path log(String name) {
        return dir.resolve(name);
    }

    /** Untagged lines, as HistogramLogWriter's users write them: 16 half-second intervals, one with a 40 ms stall. */
    private static void writeUntagged(Path file) throws IOException {
        SplittableRandom random = new SplittableRandom(3);
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            long start = 1_795_000_000_250L;
            w.outputLogFormatVersion();
            w.outputStartTime(start);
            w.setBaseTime(start);
            w.outputLegend();
            for (int i = 0; i < 16; i++) {
                Histogram h = new Histogram(3_600_000_000_000L, 3);
                for (int n = 0; n < 400; n++) {
                    h.recordValue(200_000 + random.nextLong(800_000));
                }
                if (i == 7) {
                    h.recordValue(40_000_000);
                }
                h.setStartTimeStamp(start + i * 500L);
                h.setEndTimeStamp(start + (i + 1) * 500L);
                w.outputIntervalHistogram(h);
            }
        }
    }

    /** DoubleHistogram lines in milliseconds, with absolute timestamps (no BaseTime). */
    private static void writeDoubles(Path file) throws IOException {
        SplittableRandom random = new SplittableRandom(4);
        try (PrintStream out = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
            HistogramLogWriter w = new HistogramLogWriter(out);
            long start = 1_795_000_100_000L;
            w.outputStartTime(start);
            w.outputLegend();
            for (int i = 0; i < 10; i++) {
                DoubleHistogram h = new DoubleHistogram(3);
                for (int n = 0; n < 300; n++) {
                    h.recordValue(0.05 + random.nextDouble() * (i == 4 ? 60.0 : 2.0));
                }
                h.setStartTimeStamp(start + i * 1000L);
                h.setEndTimeStamp(start + (i + 1) * 1000L);
                w.outputIntervalHistogram(h);
            }
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("mix.hlog", "-tag READ.intended"),
                Arguments.of("mix.hlog", "-tag READ.service -csv"),
                Arguments.of("mix.hlog", "-tag UPDATE.intended -start 0.5 -end 2.25"),
                Arguments.of("mix.hlog", "-tag harness.lag -outputValueUnitRatio 1000 -percentilesOutputTicksPerHalf 2"),
                Arguments.of("mix.hlog", "-tag READ.intended -mwp 99.9 -mwpl 1000"),
                Arguments.of("mix.hlog", "-tag UPDATE.service -mwp 90 -csv -start 1"),
                Arguments.of("stw.hlog", "-tag READ.intended -outputValueUnitRatio 1000"),
                Arguments.of("stw.hlog", "-tag READ.service -end 1"),
                Arguments.of("untagged.hlog", ""),
                Arguments.of("untagged.hlog", "-correctLogWithKnownCoordinatedOmission 2000000"),
                Arguments.of("untagged.hlog", "-csv -start 2 -end 6 -mwp 50 -mwpl 1500"),
                Arguments.of("double.hlog", "-outputValueUnitRatio 1"),
                Arguments.of("double.hlog", "-correctLogWithKnownCoordinatedOmission 0.5 -csv -outputValueUnitRatio 1"),
                Arguments.of("merged.hlog", "-tag READ.intended"),
                Arguments.of("merged.hlog", "-tag READ.service -start 1 -mwp 99"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void everyOutputFileIsByteForByteHistogramLogProcessors(String logName, String options) throws Exception {
        assertTrue(HistogramLogProcessor.class.getProtectionDomain().getCodeSource().getLocation().getPath()
                .endsWith("HdrHistogram-2.2.2.jar"), "the processor comes from the HdrHistogram jar");
        String name = (logName + options).replaceAll("[^A-Za-z0-9.]+", "_");
        Path theirs = dir.resolve("hlp_" + name);
        Path ours = dir.resolve("ours_" + name);
        Path gnu = dir.resolve("gnu_" + name);
        List<String> opts = options.isEmpty() ? List.of() : Arrays.asList(options.split(" "));

        new HistogramLogProcessor(args(List.of("-i", log(logName).toString(), "-o", theirs.toString()), opts)).run();

        Cli single = Cli.run(args(List.of("report", "-i", log(logName).toString(), "-o", ours.toString()), opts));
        assertEquals(0, single.exitCode, single.err);
        assertEquals("", single.err);
        List<String> gnuOpts = opts.stream().map(o -> GNU.getOrDefault(o, o)).toList();
        Cli gnuRun = Cli.run(args(List.of("report", "--input", log(logName).toString(), "--output", gnu.toString()),
                gnuOpts));
        assertEquals(0, gnuRun.exitCode, gnuRun.err);

        int compared = 0;
        for (String suffix : new String[]{"", ".hgrm", ".mwp"}) {
            Path expected = Path.of(theirs + suffix);
            if (Files.exists(expected)) {
                assertArrayEquals(Files.readAllBytes(expected), Files.readAllBytes(Path.of(ours + suffix)),
                        "report " + options + " wrote a different " + ours.getFileName() + suffix);
                assertArrayEquals(Files.readAllBytes(expected), Files.readAllBytes(Path.of(gnu + suffix)),
                        "the GNU spelling wrote a different " + gnu.getFileName() + suffix);
                compared++;
            } else {
                assertFalse(Files.exists(Path.of(ours + suffix)), "report wrote " + suffix + " that HLP did not");
            }
        }
        assertTrue(compared >= 2, "HistogramLogProcessor wrote its table and distribution");
        String distribution = Files.readString(Path.of(theirs + ".hgrm"));
        assertTrue(opts.contains("-csv") ? distribution.contains("\"Value\",\"Percentile\"") && distribution.lines().count() > 20
                : distribution.contains("#[Max"), "a complete distribution, not an empty one");
    }

    @Test
    void standardOutputAndListTagsMatchTheProcessorRunFromItsJar() throws Exception {
        String jar = Path.of(HistogramLogProcessor.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
        for (String[] options : List.of(new String[]{"-tag", "READ.intended"}, new String[]{"-listtags"},
                new String[]{"-csv"})) {
            String logName = options[0].equals("-csv") ? "untagged.hlog" : "mix.hlog";
            List<String> hlpArgs = new ArrayList<>(List.of("-i", log(logName).toString()));
            hlpArgs.addAll(List.of(options));
            ChildProcess hlp = ChildProcess.java(jar, "org.HdrHistogram.HistogramLogProcessor",
                    hlpArgs.toArray(String[]::new));
            assertEquals(0, hlp.awaitExit(60), hlp.err());
            List<String> ours = new ArrayList<>(List.of("report"));
            ours.addAll(hlpArgs);
            Cli report = Cli.run(ours.toArray(String[]::new));
            assertEquals(0, report.exitCode, report.err);
            assertEquals(hlp.out(), report.out, String.join(" ", options));
        }
    }

    @Test
    void aGzipLogReportsExactlyAsItsPlainText() throws Exception {
        Path theirs = dir.resolve("gz_hlp");
        Path ours = dir.resolve("gz_ours");
        new HistogramLogProcessor(new String[]{"-i", log("mix.hlog").toString(), "-o", theirs.toString(),
                "-tag", "UPDATE.intended"}).run();
        Cli report = Cli.run("report", log("mix.hlog.gz").toString(), "-o", ours.toString(), "-tag", "UPDATE.intended");
        assertEquals(0, report.exitCode, report.err);
        assertArrayEquals(Files.readAllBytes(Path.of(theirs + ".hgrm")), Files.readAllBytes(Path.of(ours + ".hgrm")));
        assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(ours));
    }

    private static String[] args(List<String> head, List<String> tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(tail);
        return all.toArray(String[]::new);
    }
}
