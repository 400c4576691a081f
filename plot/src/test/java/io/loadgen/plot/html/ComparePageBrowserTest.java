package io.loadgen.plot.html;

import io.loadgen.core.gate.CompareOptions;
import io.loadgen.core.compare.CompareRow;
import io.loadgen.core.compare.RunComparison;
import io.loadgen.core.gate.InputPolicy;
import io.loadgen.core.gate.RunIntervals;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code compare --html} in a real browser: two real runs' comparison opened in headless chromium must draw a
 * baseline and a candidate chart per operation side by side, list every row of the comparison with its verdict as
 * the row's class (the colour), log nothing to the console, and show something in a screenshot.
 */
@Timeout(600)
class ComparePageBrowserTest {
    private static final Pattern ROW = Pattern.compile(
            "<tr class=\"([a-z]+)\" data-stat=\"([^\"]+)\" data-view=\"([^\"]+)\" data-verdict=\"([a-z]+)\">");
    private static final Pattern ERRORS = Pattern.compile("<pre id=\"errors\"[^>]*>([^<]*)</pre>");

    @TempDir
    static Path dir;
    private static Path page;
    private static RunComparison.Result result;
    private static HeadlessChromium chromium;

    @BeforeAll
    static void compareTwoRealRuns() throws Exception {
        chromium = HeadlessChromium.require(dir);
        Path a = dir.resolve("a.hlog");
        Path b = dir.resolve("b.hlog");
        RecordedRun.record(a, Duration.ofMillis(2400), Duration.ofMillis(200));
        RecordedRun.record(b, Duration.ofMillis(2400), Duration.ofMillis(200));
        RunIntervals base = RunIntervals.read(List.of(a), w -> { }, InputPolicy.STRICT);
        RunIntervals cand = RunIntervals.read(List.of(b), w -> { }, InputPolicy.STRICT);
        result = RunComparison.compare(base, cand, CompareOptions.DEFAULTS);
        page = dir.resolve("compare.html");
        ComparePage.write(result, base, cand, page);
    }

    @Test
    void eachOperationHasTwoChartsAndEveryRowItsVerdict() throws Exception {
        HeadlessChromium.Load load = chromium.dumpDom(page.toUri());
        String dom = load.dom();
        Matcher errors = ERRORS.matcher(dom);
        assertTrue(errors.find() && errors.group(1).isEmpty(), "the page reported an error: " + dom);
        assertEquals(List.of(), load.consoleLines(), "what the page wrote to the console");
        assertTrue(dom.contains("data-ready=\"true\""), "the script ran to its end");
        for (String side : new String[]{"baseline", "candidate"}) {
            String chart = "<div class=\"chart\" id=\"chart-READ-" + side + "\"><div class=\"uplot";
            assertTrue(dom.contains(chart), side + " chart drawn by uPlot");
        }
        List<String> shown = new ArrayList<>();
        Matcher m = ROW.matcher(dom);
        while (m.find()) {
            assertEquals(m.group(1), m.group(4), "the row's class is its verdict");
            shown.add(m.group(3) + " " + m.group(2) + " " + m.group(4));
        }
        List<String> expected = new ArrayList<>();
        for (CompareRow r : result.rows()) {
            expected.add(r.view() + " " + r.stat() + " " + r.verdict().key());
        }
        assertEquals(expected, shown);
    }

    @Test
    void theScreenshotShowsSomething() throws Exception {
        Path png = dir.resolve("compare.png");
        HeadlessChromium.Load load = chromium.screenshot(page.toUri(), png, 1280, 1200);
        assertEquals(List.of(), load.consoleLines());
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "a PNG that ImageIO decodes");
        int coloured = 0;
        for (int y = 0; y < image.getHeight(); y += 4) {
            for (int x = 0; x < image.getWidth(); x += 4) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                int r = rgb >> 16;
                int g = (rgb >> 8) & 0xff;
                int b = rgb & 0xff;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
                    coloured++;
                }
            }
        }
        assertTrue(coloured > 100, "the charts' coloured lines show: " + coloured + " coloured samples");
        Files.copy(png, Path.of(System.getProperty("java.io.tmpdir"), "loadgen-compare-page.png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
