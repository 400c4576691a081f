package io.loadgen.cli;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HdrHistogram's own {@code HistogramLogProcessor}, run from the HdrHistogram jar in a child JVM, reads
 * the interval log a run wrote and reproduces the run's own totals and percentiles exactly: its
 * percentile distribution for each tag, with its default unit (ms), is byte for byte the run's {@code .hgrm} file
 * (after the two header lines it adds and the unit line the run's file starts with), so count, mean, every
 * percentile and max agree.
 */
class HistogramLogProcessorCompatibilityTest {
    @TempDir
    static Path dir;

    @BeforeAll
    static void runOnceWithLogAndDistributions() {
        Cli cli = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=2ms", "-p", "mockdb.randomize=true",
                "--target", "800", "--threads", "4", "--duration", "2s", "--interval", "250ms", "--seed", "11", "-q",
                "--hlog", dir.resolve("run.hlog").toString(), "--hgrm", dir.resolve("hgrm").toString());
        assertEquals(0, cli.exitCode, cli.err);
    }

    @ParameterizedTest
    @ValueSource(strings = {"READ.intended", "READ.service", "harness.lag"})
    void logProcessorReproducesTheRunsDistribution(String tag) throws Exception {
        String jar = Path.of(Histogram.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        assertTrue(jar.endsWith(".jar"), "HdrHistogram comes from its jar: " + jar);
        Path base = dir.resolve("hlp-" + tag);
        ChildProcess hlp = ChildProcess.java(jar, "org.HdrHistogram.HistogramLogProcessor",
                "-i", dir.resolve("run.hlog").toString(), "-o", base.toString(), "-tag", tag);
        assertEquals(0, hlp.awaitExit(60), hlp.err());

        List<String> theirs = Files.readAllLines(Path.of(base + ".hgrm"));
        List<String> ours = Files.readAllLines(dir.resolve("hgrm").resolve(tag + ".hgrm"));
        assertTrue(theirs.get(0).startsWith("#[Overall percentile distribution"), theirs.get(0));
        assertTrue(theirs.get(1).startsWith("#[StartTime:"), theirs.get(1));
        assertTrue(ours.get(0).startsWith("#[Unit: ms "), ours.get(0));
        assertEquals(ours.subList(1, ours.size()), theirs.subList(2, theirs.size()));
        assertTrue(ours.stream().anyMatch(l -> l.matches("#\\[Max .*Total count\\s+=\\s+[1-9]\\d*]")),
                "a non-empty distribution: " + ours.get(ours.size() - 2));
    }
}
