package io.loadgen.core.summary;

import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HgrmFilesTest {
    @TempDir
    Path tmp;

    @Test
    void writesOneFilePerOperationAndViewPlusLagIntoANewDirectory() throws IOException {
        Path dir = tmp.resolve("results/run-1");
        List<Path> written = HgrmFiles.write(KnownRuns.throttled(), dir);
        assertEquals(List.of("READ.intended.hgrm", "READ.service.hgrm", "READ.corrected.hgrm",
                "UPDATE.intended.hgrm", "UPDATE.service.hgrm", "UPDATE.corrected.hgrm", "harness.lag.hgrm"),
                written.stream().map(p -> p.getFileName().toString()).toList());
        for (Path file : written) {
            assertEquals(dir, file.getParent());
            assertTrue(Files.isRegularFile(file), file::toString);
        }
    }

    @Test
    void eachFileHoldsItsUnitLineThenExactlyHdrHistogramsDistributionInMillis() throws IOException {
        RunResult result = KnownRuns.throttled();
        HgrmFiles.write(result, tmp);
        for (OpResult op : result.operations()) {
            for (View view : View.values()) {
                assertArrayEquals(distribution(op.histogram(view)),
                        Files.readAllBytes(tmp.resolve(view.tag(op.name()) + ".hgrm")), view.tag(op.name()));
            }
        }
        assertArrayEquals(distribution(result.lag()), Files.readAllBytes(tmp.resolve("harness.lag.hgrm")));
    }

    @Test
    void serviceFileStatesAndShowsMillisecondValues() throws IOException {
        HgrmFiles.write(KnownRuns.throttled(), tmp);
        String text = Files.readString(tmp.resolve("READ.service.hgrm"), StandardCharsets.UTF_8);
        assertTrue(text.startsWith("#[Unit: ms (recorded ns / 1000000.0, as HistogramLogProcessor's default"
                + " -outputValueUnitRatio)]\n"), text);
        assertTrue(text.contains("#[Max     =        1.000"), "max of 1000 µs printed in ms:\n" + text);
        assertEquals("ms", HgrmFile.read(tmp.resolve("READ.service.hgrm")).unit());
    }

    @Test
    void unthrottledRunWritesNoCorrectedOrLagFile() throws IOException {
        List<Path> written = HgrmFiles.write(KnownRuns.unthrottled(), tmp);
        assertEquals(List.of("READ.intended.hgrm", "READ.service.hgrm", "UPDATE.intended.hgrm",
                "UPDATE.service.hgrm"), written.stream().map(p -> p.getFileName().toString()).toList());
        try (var files = Files.list(tmp)) {
            assertEquals(4, files.count());
        }
    }

    @Test
    void operationNameWithPathSeparatorIsRefused() {
        RunResult base = KnownRuns.throttled();
        RunResult result = new RunResult(base.driver(), base.targetOpsPerSec(), base.threads(), base.runTimeNs(),
                List.of(KnownRuns.empty("../READ")), base.lag(), base.expectedIntervalNs(), 0,
                base.driverStats(), base.harness(), base.stopReason());
        assertThrows(IllegalArgumentException.class, () -> HgrmFiles.write(result, tmp));
    }

    private static byte[] distribution(Histogram h) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        out.print("#[Unit: ms (recorded ns / 1000000.0, as HistogramLogProcessor's default -outputValueUnitRatio)]\n");
        h.outputPercentileDistribution(out, 5, 1_000_000.0);
        out.flush();
        return bytes.toByteArray();
    }
}
