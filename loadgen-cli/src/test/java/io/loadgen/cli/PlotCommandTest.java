package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.log.LogEvent;
import io.loadgen.plot.LogSeries;
import io.loadgen.plot.PercentileCurve;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code loadgen plot} and {@code run --plot} on a real run of the stop-the-world store: the files a user gets,
 * the p99 a chart draws against {@code loadgen report}'s, the store's pauses in the log, and bad input.
 */
class PlotCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private static Path charts;
    private static Cli run;

    /** 2 s at 1000 ops/s on 4 threads; 0.5% of operations stop the world for 20-40 ms. */
    @BeforeAll
    static void stallingRun() {
        charts = dir.resolve("charts");
        run = Cli.run("run", "--driver", "stw-mockdb", "-p", "stw-mockdb.stw.probability=0.005",
                "-p", "stw-mockdb.hiccup.probability=0.005", "-p", "stw-mockdb.stw.min=20ms", "-p", "stw-mockdb.stw.max=40ms",
                "--target", "1000", "--threads", "4", "--duration", "2s", "--interval", "250ms", "--seed", "7", "-q",
                "--json", dir.resolve("run.json").toString(), "--hgrm", dir.resolve("hgrm").toString(),
                "--plot", charts.toString());
        assertEquals(0, run.exitCode, run.err);
    }

    @Test
    void runPlotWritesTheLogAndItsChartsIntoTheDirectory() throws Exception {
        for (String name : new String[]{"run.percentiles.png", "run.over-time.png"}) {
            Path chart = charts.resolve(name);
            assertTrue(run.err.contains("loadgen: wrote " + chart), run.err);
            BufferedImage png = ImageIO.read(chart.toFile());
            assertEquals(1000, png.getWidth());
            assertEquals(600, png.getHeight());
        }
        assertTrue(Files.exists(charts.resolve("run.hlog")), "without --hlog the log goes next to the charts");
        Path page = charts.resolve("run.html");
        assertTrue(run.err.contains("loadgen: wrote " + page), run.err);
        assertTrue(Files.readString(page).contains("loadgen latency explorer"), "the explorer is written too");
    }

    /**
     * {@code plot --html} writes the explorer of the logs among the inputs, with a JSON summary's figures; the
     * page's exactness against report is HtmlExplorer's own tests' (in the browser and in Java).
     */
    @Test
    void htmlWritesTheSelfContainedExplorerWithTheSummarysFigures() throws Exception {
        Path page = dir.resolve("explorer/run.html");
        Files.createDirectories(page.getParent());
        Cli plot = Cli.run("plot", charts.resolve("run.hlog").toString(), dir.resolve("run.json").toString(),
                "--tag", "READ.intended", "--html", page.toString());
        assertEquals(0, plot.exitCode, plot.err);
        assertEquals(page.toString(), plot.out.strip());
        String html = Files.readString(page);
        assertTrue(html.contains("loadgen latency explorer"), "the page");
        assertTrue(html.contains("uPlot") && html.contains("MIT"), "uPlot inlined, with its licence");
        assertFalse(html.contains("<script src=\"http"), "nothing loaded from the network");
        assertTrue(html.contains("throughput_ops_per_sec"), "the JSON summary's figures are in the page");

        Cli hgrm = Cli.run("plot", dir.resolve("hgrm/READ.intended.hgrm").toString(), "--html", page.toString());
        assertEquals(2, hgrm.exitCode, hgrm.err);
        assertTrue(hgrm.err.startsWith("loadgen: --html shows interval logs"), hgrm.err);
        Cli over = Cli.run("plot", charts.resolve("run.hlog").toString(), "--html", charts.resolve("run.hlog").toString());
        assertEquals(2, over.exitCode, over.err);
    }

    @Test
    void percentileChartsP99IsReportsP99OverTheSameWindow() throws Exception {
        Path log = charts.resolve("run.hlog");
        Cli report = Cli.run("report", log.toString(), "--tag", "READ.intended", "--start", "0.5", "--end", "1.5",
                "--json", "-", "--json-by", "tag");
        assertEquals(0, report.exitCode, report.err);
        JsonNode tag = JSON.readTree(report.out).at("/tags/READ.intended");
        LogSeries series = LogSeries.read(List.of(log), new LogSeries.Selection(List.of("READ.intended"), 0.5, 1.5), w -> { });
        PercentileCurve curve = PercentileCurve.of("READ.intended", series.series("READ.intended").total());
        assertEquals(tag.get("p99_us").asDouble(), curve.valueAt(99) / 1000.0, 0.001);
        assertEquals(tag.get("p99_9_us").asDouble(), curve.valueAt(99.9) / 1000.0, 0.001);
        assertEquals(tag.get("count").asLong(), curve.count());

        Cli plot = Cli.run("plot", log.toString(), "--tag", "READ.intended", "--start", "0.5", "--end", "1.5",
                "--sla", "p99 < 50ms", "--format", "both", "-o", dir.resolve("window").toString());
        assertEquals(0, plot.exitCode, plot.err);
        assertEquals(List.of("percentiles.png", "percentiles.svg", "over-time.png", "over-time.svg"),
                plot.out.lines().map(l -> l.substring(l.indexOf("run.") + 4)).toList());
    }

    @Test
    void everyStopTheWorldOfTheRunIsMarkedFromTheLog() throws Exception {
        long pauses = JSON.readTree(dir.resolve("run.json").toFile()).at("/driver_stats/stop_the_world_pauses").asLong();
        LogSeries series = LogSeries.read(List.of(charts.resolve("run.hlog")), LogSeries.Selection.all(), w -> { });
        List<LogEvent> stw = series.events().stream().filter(e -> e.kind().equals("stop-the-world")).toList();
        assertEquals(pauses, stw.size());
        assertTrue(pauses > 0, "0.5% of ~2000 operations");
    }

    @Test
    void hgrmFilesAndJsonSummariesAreCurvesToo() throws Exception {
        Cli plot = Cli.run("plot", dir.resolve("hgrm/READ.intended.hgrm").toString(),
                dir.resolve("hgrm/READ.service.hgrm").toString(), dir.resolve("run.json").toString(),
                "-o", dir.resolve("mixed").toString());
        assertEquals(0, plot.exitCode, plot.err);
        assertEquals(dir.resolve("mixed/READ.intended.percentiles.png").toString(), plot.out.strip());
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        String log = charts.resolve("run.hlog").toString();
        List<List<String>> cases = List.of(
                List.of("plot", dir.resolve("missing.hlog").toString()),
                List.of("plot", log, "--tag", "READ.nope"),
                List.of("plot", log, "--sla", "p99 > 5ms"),
                List.of("plot", log, "--y-scale", "cubic"),
                List.of("plot", log, "--start", "5", "--end", "1"),
                List.of("plot", log, "--format", "gif"),
                List.of("plot", dir.resolve("hgrm/READ.intended.hgrm").toString(), "--start", "1"));
        for (List<String> args : cases) {
            Cli cli = Cli.run(args.toArray(new String[0]));
            assertEquals(2, cli.exitCode, args + ": " + cli.err);
            assertEquals(1, cli.err.strip().lines().count(), args + ": " + cli.err);
            assertTrue(cli.err.startsWith("loadgen: "), cli.err);
            assertFalse(cli.err.contains("Exception"), cli.err);
        }
        Cli tag = Cli.run("plot", log, "--tag", "READ.nope");
        assertTrue(tag.err.contains("tags present: READ.failed.intended, READ.failed.service, READ.intended,"), tag.err);
    }
}
