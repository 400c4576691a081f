package io.loadgen.plot.html;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.IntervalLog;
import io.loadgen.core.record.StatusTags;
import io.loadgen.plot.ChartStyle;
import io.loadgen.plot.LatencyUnit;
import io.loadgen.plot.LogSeries;
import io.loadgen.plot.OverTimeChart;
import io.loadgen.plot.Palette;
import org.knowm.xchart.XYChart;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The explorer in a real browser: a page written from a real run's log is opened in headless chromium
 * with a window in its address, and what the page computed there (its summary table, its status counts)
 * must be what {@code loadgen report --start --end} computes over the same window, to the nanosecond; the
 * page must log nothing to the console and report no error, and its screenshot must show something.
 */
@Timeout(600)
class HtmlExplorerBrowserTest {
    private static final Pattern CELL = Pattern.compile(
            "<td data-tag=\"([^\"]+)\" data-stat=\"([^\"]+)\" data-(?:ns|value)=\"([^\"]+)\">([^<]*)</td>");
    private static final Pattern STATUS_CELL = Pattern.compile(
            "<td data-op=\"([^\"]+)\" data-stat=\"([^\"]+)\">([^<]*)</td>");
    private static final Pattern ERRORS = Pattern.compile("<pre id=\"errors\"[^>]*>([^<]*)</pre>");

    @TempDir
    static Path dir;
    private static Path log;
    private static Path page;
    private static HeadlessChromium chromium;

    @BeforeAll
    static void writeAPageFromARealRun() throws Exception {
        chromium = HeadlessChromium.require(dir);
        log = dir.resolve("run.hlog");
        RecordedRun.record(log, Duration.ofMillis(2400), Duration.ofMillis(200));
        page = dir.resolve("run.html");
        HtmlExplorer.write(List.of(log), ExplorerOptions.builder().warnings(w -> { throw new AssertionError(w); })
                .build(), page);
    }

    @Test
    void aWindowInTheAddressIsRecomputedInThePageExactlyAsReportComputesIt() throws Exception {
        // 0.4 to 1.4 s holds the stall (operations due from 1.0 s wait until 1.25 s).
        Map<String, String> p99 = checkWindow("#start=0.4&end=1.4", 0.4, 1.4);
        long reportP99 = ReportWindow.of(log, "READ.intended", 0.4, 1.4).histogram().getValueAtPercentile(99);
        assertEquals(Long.toString(reportP99), p99.get("READ.intended"));
        assertTrue(reportP99 > RecordedRun.PAUSE_TO_NS - RecordedRun.PAUSE_FROM_NS - 50_000_000L,
                "the window's p99 shows the 250 ms stall: " + reportP99 + " ns");
    }

    @Test
    void theWholeRunAndAWindowOfOneIntervalToo() throws Exception {
        checkWindow("", 0.0, Double.MAX_VALUE);
        checkWindow("#start=1.9&end=2.1&tags=READ.service,harness.lag", 1.9, 2.1);
    }

    @Test
    void draggingAcrossTheOverTimeChartChoosesTheWindowThatReportReads() throws Exception {
        // The page as a reader uses it: press at 30% of the chart's width, drag to 60%, let go.
        String drag = "<script>setTimeout(function () {\n"
                + "  var over = document.querySelector('#chart-time .u-over'), r = over.getBoundingClientRect();\n"
                + "  function at(type, f, target) {\n"
                + "    (target || over).dispatchEvent(new MouseEvent(type, {clientX: r.left + r.width * f,"
                + " clientY: r.top + 40, bubbles: true, button: 0, buttons: 1, movementX: 5, view: window}));\n"
                + "  }\n"
                + "  at('mousedown', 0.3); at('mousemove', 0.45); at('mousemove', 0.6); at('mouseup', 0.6, document);\n"
                + "}, 100);</script>\n</body>";
        Path dragged = dir.resolve("dragged.html");
        Files.writeString(dragged, Files.readString(page).replace("</body>", drag));
        String dom = chromium.dumpDom(dragged.toUri()).dom();
        Matcher window = Pattern.compile("data-window=\"([^,\"]+),([^\"]+)\"").matcher(dom);
        assertTrue(window.find(), "the page says which window it shows");
        double start = Double.parseDouble(window.group(1));
        double end = Double.parseDouble(window.group(2));
        // The 2.4 s run's chart spans 0 to 2.4 s or a little more: 30% to 60% of it.
        assertTrue(start > 0.5 && start < 1.0 && end > 1.3 && end < 1.8, "dragged across " + start + " to " + end);
        assertTrue(dom.contains("--start " + window.group(1) + " --end " + window.group(2) + " --json - --json-by tag"),
                "the report command for the window");
        checkDom(chromium.dumpDom(URI.create(page.toUri() + "#start=" + window.group(1) + "&end=" + window.group(2))),
                "the same window by address", start, end);
        checkDom(new HeadlessChromium.Load(dom, ""), "dragged", start, end);
    }

    @Test
    void theScreenshotShowsCharts() throws Exception {
        Path png = dir.resolve("run.png");
        HeadlessChromium.Load load = chromium.screenshot(URI.create(page.toUri() + "#start=0.4&end=1.4"), png, 1280, 1600);
        assertEquals(List.of(), load.consoleLines());
        BufferedImage image = ImageIO.read(png.toFile());
        assertNotNull(image, "a PNG that ImageIO decodes");
        assertEquals(1280, image.getWidth());
        Set<Integer> colours = new HashSet<>();
        long notWhite = 0;
        for (int y = 0; y < image.getHeight(); y += 2) {
            for (int x = 0; x < image.getWidth(); x += 2) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                colours.add(rgb);
                notWhite += rgb == 0xffffff ? 0 : 1;
            }
        }
        assertTrue(colours.size() > 16, "charts and text in several colours, not a blank page: " + colours.size());
        assertTrue(notWhite > image.getWidth() * image.getHeight() / 4 / 50, "more than 2% drawn: " + notWhite);
    }

    /**
     * One look across the PNG and the page, on a log written here whose content is known: 4 one-second intervals
     * of READ.intended, READ.service, READ.status, harness.lag and harness.hiccup, a stop-the-world of 150 ms at
     * 1.2 s and a harness GC of 3 ms at 2.5 s (both within the intervals, so both charts mark them: 1 of each),
     * and a GC at -0.5 s (the harness starting up, before the first interval: marked by neither). The page gives
     * READ.intended and READ.service the colours the PNG gives them (Palette's red and blue), marks the same
     * pauses, leaves the harness tags unchecked and out of the throughput chart (whose one line is READ's).
     */
    @Test
    void thePageLooksAsThePngDoes() throws Exception {
        long startMs = 1_795_000_000_000L;
        Path known = dir.resolve("known.hlog");
        try (IntervalLog out = IntervalLog.open(known)) {
            out.writeHeader(startMs, List.of("run: driver=test target=1000ops/s threads=1 in_flight_per_thread=1"));
            out.writeEvent("gc", "harness", startMs - 500, 2_000_000L);
            for (int k = 0; k < 4; k++) {
                if (k == 1) {
                    out.writeEvent("stop-the-world", "stw-mockdb", startMs + 1_200, 150_000_000L);
                }
                if (k == 2) {
                    out.writeEvent("gc", "harness", startMs + 2_500, 3_000_000L);
                }
                for (String tag : new String[]{"READ.intended", "READ.service", "harness.lag", "harness.hiccup"}) {
                    Histogram h = new Histogram(3_600_000_000_000L, 3);
                    for (long v = 1; v <= 1000; v++) {
                        h.recordValue(v * (tag.startsWith("READ") ? 1000 : 10)); // 1 µs to 1 ms; 10 ns to 10 µs
                    }
                    out.write(stamp(h, tag, startMs, k));
                }
                Histogram status = StatusTags.newHistogram();
                status.recordValueWithCount(0, 1000);
                out.write(stamp(status, "READ.status", startMs, k));
            }
        }
        Path knownPage = dir.resolve("known.html");
        HtmlExplorer.write(List.of(known), ExplorerOptions.builder().build(), knownPage);
        String dom = chromium.dumpDom(knownPage.toUri()).dom();
        assertTrue(dom.contains("data-ready=\"true\""), "the page's script ran to the end");
        assertTrue(ERRORS.matcher(dom).find() && ERRORS.matcher(dom).results().allMatch(r -> r.group(1).isEmpty()),
                "no errors");

        XYChart png = OverTimeChart.build(LogSeries.read(List.of(known), LogSeries.Selection.all(), w -> { }),
                List.of("READ.intended", "READ.service"), ChartStyle.defaults());
        for (String[] view : new String[][]{{"READ.intended", "intended"}, {"READ.service", "service"}}) {
            java.awt.Color c = png.getSeries(OverTimeChart.seriesName(view[0], "p99")).getLineColor();
            assertEquals(Palette.ofView(view[1]), c, view[0] + " in the PNG");
            String swatch = "<input type=\"checkbox\" data-tag=\"" + view[0] + "\"><span class=\"swatch\" style=\"background: rgb("
                    + c.getRed() + ", " + c.getGreen() + ", " + c.getBlue() + ");\">";
            assertTrue(dom.contains(swatch), view[0] + " in the page: " + swatch);
        }
        assertEquals(Palette.INTENDED, new java.awt.Color(0xD6, 0x27, 0x28), "intended is red");

        // The pauses: one of each kind in both, the start-up GC in neither.
        assertTrue((png.getSeries("stop-the-world (stw-mockdb): 1") != null), "in the PNG");
        assertTrue((png.getSeries("gc (harness): 1") != null), "in the PNG");
        assertTrue(dom.contains("data-kind=\"stop-the-world\" data-count=\"1\""), "the page's stop-the-world");
        assertTrue(dom.contains("data-kind=\"gc\" data-count=\"1\""), "the page's GC, not the start-up one");

        // uPlot's legends name the series drawn: no harness tag among the latencies, READ's throughput alone.
        String time = between(dom, "id=\"chart-time\"", "id=\"chart-rate\"");
        String rate = between(dom, "id=\"chart-rate\"", "id=\"chart-dist\"");
        assertTrue(time.contains(">READ.intended p99<") && time.contains(">READ.service max<"), time);
        assertTrue(!time.contains("harness.") && !rate.contains("harness."), "harness tags are off by default");
        assertTrue(rate.contains(">READ ops/s<"), rate);
        assertEquals(1, Pattern.compile("ops/s<").matcher(rate).results().count(), "one throughput line: " + rate);
    }

    private static Histogram stamp(Histogram h, String tag, long startMs, int k) {
        h.setTag(tag);
        h.setStartTimeStamp(startMs + k * 1000L);
        h.setEndTimeStamp(startMs + (k + 1) * 1000L);
        return h;
    }

    private static String between(String s, String from, String to) {
        int a = s.indexOf(from);
        int b = s.indexOf(to, a);
        assertTrue(a >= 0 && b > a, from + " before " + to);
        return s.substring(a, b);
    }

    /**
     * Loads the page with {@code hash}, checks it ran cleanly, and compares every cell of its summary table
     * and status table with report over [start, end]; returns each tag's p99 cell (ns).
     */
    private static Map<String, String> checkWindow(String hash, double start, double end) throws Exception {
        HeadlessChromium.Load load = chromium.dumpDom(URI.create(page.toUri() + hash));
        assertTrue(load.dom().contains("data-window=\"" + (hash.isEmpty() ? "0,Infinity" : trim(start) + "," + trim(end))
                + "\""), "the window applied");
        return checkDom(load, hash, start, end);
    }

    /** Checks a loaded page ran cleanly and that its tables read what report reads over [start, end]. */
    private static Map<String, String> checkDom(HeadlessChromium.Load load, String hash, double start, double end)
            throws Exception {
        String dom = load.dom();
        assertTrue(dom.contains("data-ready=\"true\""), "the page's script ran to the end");
        Matcher errors = ERRORS.matcher(dom);
        assertTrue(errors.find(), "the page has its error box");
        assertEquals("", errors.group(1), "errors the page caught");
        assertEquals(List.of(), load.consoleLines(), "what the page wrote to the console");

        Map<String, String> p99 = new HashMap<>();
        Matcher m = CELL.matcher(dom);
        int cells = 0;
        while (m.find()) {
            String tag = m.group(1);
            String stat = m.group(2);
            Histogram report = ReportWindow.of(log, tag, start, end).histogram();
            String expected = switch (stat) {
                case "count" -> Long.toString(report.getTotalCount());
                case "min" -> Long.toString(report.getMinValue());
                case "max" -> Long.toString(report.getMaxValue());
                case "mean" -> Double.toString(report.getMean());
                default -> Long.toString(report.getValueAtPercentile(Double.parseDouble(stat.substring(1))));
            };
            String actual = stat.equals("mean") ? Double.toString(Double.parseDouble(m.group(3))) : m.group(3);
            assertEquals(expected, actual, tag + " " + stat + " over " + hash);
            if (stat.equals("p99")) {
                p99.put(tag, m.group(3));
                System.out.println("HtmlExplorerBrowserTest " + hash + " [" + start + ", " + end + "] " + tag
                        + ": page p99 " + m.group(3) + " ns = report p99 " + expected + " ns");
                // report --json-by tag's p99_us is the same number in µs.
                double us = ReportWindow.of(log, tag, start, end).json().get("p99_us").doubleValue();
                assertEquals(BigDecimal.valueOf(us).movePointRight(3).longValueExact(), Long.parseLong(m.group(3)));
            }
            // The text a person reads: LatencyUnit.human's (3 significant digits: 4.91 ms, 812 µs), in JavaScript.
            if (!stat.equals("count") && !m.group(4).equals("-")) {
                assertEquals(LatencyUnit.human(Double.parseDouble(m.group(3))), m.group(4), tag + " " + stat + " as text");
            }
            cells++;
        }
        assertTrue(cells >= 5 * 8, "every latency tag's row (and harness.lag's twice): " + cells);
        checkStatus(dom, start, end);
        return p99;
    }

    private static void checkStatus(String dom, double start, double end) throws Exception {
        Histogram status = ReportWindow.of(log, "READ.status", start, end).histogram();
        Matcher m = STATUS_CELL.matcher(dom);
        int cells = 0;
        while (m.find()) {
            String stat = m.group(2);
            long expected = switch (stat) {
                case "operations" -> status.getTotalCount();
                case "failed" -> status.getTotalCount() - status.getCountAtValue(Status.OK.ordinal());
                default -> status.getCountAtValue(Status.valueOf(stat).ordinal());
            };
            assertEquals(Long.toString(expected), m.group(3).replace(",", ""), "READ " + stat);
            cells++;
        }
        assertTrue(cells >= 3, "operations, OK and failed at least: " + cells);
    }

    /** JavaScript's String(n) for the numbers used here: no trailing .0. */
    private static String trim(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
