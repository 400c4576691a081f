package io.loadgen.core.summary;

import io.loadgen.core.BadInputException;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The .hgrm and JSON summary files read back give what was written, from {@link KnownRuns}' known distributions. */
class SummaryReadersTest {
    @TempDir
    Path dir;

    @Test
    void hgrmFileReadsBackEveryRowOfTheDistribution() throws Exception {
        RunResult run = KnownRuns.throttled();
        HgrmFiles.write(run, dir);
        HgrmFile file = HgrmFile.read(dir.resolve("READ.service.hgrm"));
        Histogram service = run.operations().get(0).histogram(View.SERVICE);
        HgrmFile.Row last = file.rows().get(file.rows().size() - 1);
        assertEquals(1.0, last.percentile());
        assertEquals(service.getMaxValue() / 1e6, last.value(), 0.0005, "ms, as run --hgrm writes them");
        assertEquals(1000, file.totalCount());
        HgrmFile.Row first = file.rows().get(0);
        assertEquals(0.0, first.percentile());
        assertEquals(service.getMinValue() / 1e6, first.value(), 0.0005);
        assertEquals("ms", file.unit());
        assertEquals(1e6, file.nsPerValue(1e3), "the file's unit line wins over the fallback");
    }

    @Test
    void hgrmFileWithoutAUnitLineTakesTheFallbackAndABadUnitIsBadInput() throws Exception {
        Histogram h = KnownRuns.throttled().operations().get(0).histogram(View.INTENDED);
        Path plain = dir.resolve("hlp.hgrm");
        try (PrintStream out = new PrintStream(Files.newOutputStream(plain))) {
            h.outputPercentileDistribution(out, 5, 1000.0); // HistogramLogProcessor's form: no unit line
        }
        HgrmFile file = HgrmFile.read(plain);
        assertEquals(null, file.unit());
        assertEquals(1e3, file.nsPerValue(1e3));
        Path odd = Files.writeString(dir.resolve("odd.hgrm"), "#[Unit: furlongs (recorded ns / 1.0)]\n"
                + Files.readString(plain));
        BadInputException e = assertThrows(BadInputException.class, () -> HgrmFile.read(odd));
        assertTrue(e.getMessage().contains("odd.hgrm:1: unknown unit 'furlongs'"), e.getMessage());
    }

    @Test
    void hgrmFileReadsTheCsvFormToo() throws Exception {
        Histogram h = KnownRuns.throttled().operations().get(0).histogram(View.INTENDED);
        Path csv = dir.resolve("x.hgrm");
        try (PrintStream out = new PrintStream(Files.newOutputStream(csv))) {
            h.outputPercentileDistribution(out, 5, 1000.0, true);
        }
        Path plain = dir.resolve("y.hgrm");
        try (PrintStream out = new PrintStream(Files.newOutputStream(plain))) {
            h.outputPercentileDistribution(out, 5, 1000.0);
        }
        assertEquals(HgrmFile.read(plain).rows(), HgrmFile.read(csv).rows());
    }

    @Test
    void hgrmFileThatIsNotOneIsBadInput() throws Exception {
        Path p = Files.writeString(dir.resolve("bad.hgrm"), "hello world\n");
        BadInputException e = assertThrows(BadInputException.class, () -> HgrmFile.read(p));
        assertTrue(e.getMessage().contains("bad.hgrm:1: not a percentile-distribution row"), e.getMessage());
        assertThrows(BadInputException.class, () -> HgrmFile.read(dir.resolve("missing.hgrm")));
    }

    @Test
    void jsonSummaryGivesEachViewsPercentiles() throws Exception {
        RunResult run = KnownRuns.throttled();
        Path json = dir.resolve("run.json");
        JsonSummary.write(run, json);
        List<JsonSummaryFile.Series> series = JsonSummaryFile.read(json);
        JsonSummaryFile.Series intended = series.stream().filter(s -> s.tag().equals("READ.intended")).findFirst().orElseThrow();
        Histogram h = run.operations().get(0).histogram(View.INTENDED);
        assertEquals(h.getTotalCount(), intended.count());
        JsonSummaryFile.Point p99 = intended.points().stream().filter(p -> p.percentile() == 99).findFirst().orElseThrow();
        assertEquals(h.getValueAtPercentile(99), p99.valueNs(), 1.0);
        assertEquals(100.0, intended.points().get(intended.points().size() - 1).percentile(), "max last");
        assertTrue(series.stream().anyMatch(s -> s.tag().equals("harness.lag")));
        assertTrue(series.stream().anyMatch(s -> s.tag().equals("UPDATE.corrected")));
    }

    @Test
    void jsonThatIsNotASummaryIsBadInput() throws Exception {
        Path p = Files.writeString(dir.resolve("x.json"), "{\"a\": 1}");
        BadInputException e = assertThrows(BadInputException.class, () -> JsonSummaryFile.read(p));
        assertTrue(e.getMessage().contains("is not a run summary"), e.getMessage());
    }
}
