package io.loadgen.plot;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Files as a user gets them: named after the input, at the asked size, not blank; and bad objectives refused. */
class ChartFilesTest {
    @TempDir
    Path dir;

    @Test
    void aLogGivesBothChartsNextToItAtTheAskedSize() throws IOException {
        Path log = KnownLog.write(dir.resolve("run.hlog"));
        PlotOptions o = PlotOptions.defaults();
        PlotOptions sized = new PlotOptions(o.tags(), 0, Double.MAX_VALUE, List.of(), new ChartStyle("t", 640, 400, true),
                ChartFiles.Format.BOTH, 1000.0, null);
        List<Path> written = new Plotter(sized, w -> { }).plot(List.of(log));
        assertEquals(List.of(dir.resolve("run.percentiles.png"), dir.resolve("run.percentiles.svg"),
                dir.resolve("run.over-time.png"), dir.resolve("run.over-time.svg")), written);
        BufferedImage png = ImageIO.read(dir.resolve("run.over-time.png").toFile());
        assertEquals(640, png.getWidth());
        assertEquals(400, png.getHeight());
        Set<Integer> colours = new HashSet<>();
        for (int x = 0; x < png.getWidth(); x += 3) {
            for (int y = 0; y < png.getHeight(); y += 3) {
                colours.add(png.getRGB(x, y));
            }
        }
        assertTrue(colours.size() > 10, "a chart, not a blank image: " + colours.size() + " colours");
        String svg = Files.readString(dir.resolve("run.percentiles.svg"));
        assertTrue(svg.contains("<svg"), svg.substring(0, Math.min(200, svg.length())));
    }

    @Test
    void inputsAreToldApartByContent() throws IOException {
        Path log = KnownLog.write(dir.resolve("x.data"));
        assertEquals(Plotter.Kind.LOG, Plotter.kindOf(log));
        Path hgrm = Files.writeString(dir.resolve("a.txt"), "       Value     Percentile TotalCount 1/(1-Percentile)\n");
        assertEquals(Plotter.Kind.HGRM, Plotter.kindOf(hgrm));
        Path withUnit = Files.writeString(dir.resolve("u.hgrm"), "#[Unit: ms (recorded ns / 1000000.0)]\n"
                + "       Value     Percentile TotalCount 1/(1-Percentile)\n");
        assertEquals(Plotter.Kind.HGRM, Plotter.kindOf(withUnit), "run --hgrm's unit line first");
        Path hlp = Files.writeString(dir.resolve("h.hgrm"), "#[Overall percentile distribution between 0.000 and"
                + " <Infinite> seconds (relative to StartTime)]\n#[StartTime: 1795325933.044 (seconds since epoch)]\n"
                + "       Value     Percentile TotalCount 1/(1-Percentile)\n");
        assertEquals(Plotter.Kind.HGRM, Plotter.kindOf(hlp), "HistogramLogProcessor's (and report's) header lines");
        assertEquals(Plotter.Kind.SUMMARY, Plotter.kindOf(Files.writeString(dir.resolve("b"), "{\"operations\":{}}")));
        assertEquals(Plotter.Kind.SWEEP, Plotter.kindOf(Files.writeString(dir.resolve("c"), "[]")));
    }

    @Test
    void objectivesAreGateRulesOnALatencyUpperLimit() {
        SlaLine bare = SlaLine.parse("p99.9 < 5ms");
        assertEquals(99.9, bare.percentile());
        assertEquals(5e6, bare.limitNs());
        assertEquals(100.0, SlaLine.parse("max<=1s").percentile());
        BadInputException e = assertThrows(BadInputException.class, () -> SlaLine.parse("p99 > 5ms"));
        assertTrue(e.getMessage().startsWith("--sla 'p99 > 5ms': a chart draws an upper limit"), e.getMessage());
        e = assertThrows(BadInputException.class, () -> SlaLine.parse("p99 < 5"));
        assertTrue(e.getMessage().startsWith("--sla 'p99 < 5': the limit '5' needs a unit"), e.getMessage());
        assertThrows(BadInputException.class, () -> SlaLine.parse("READ.errors < 1%"));
    }
}
