package io.loadgen.plot;

import io.loadgen.core.BadInputException;
import io.loadgen.core.log.LogReport;
import io.loadgen.core.log.LogReportOptions;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.summary.HgrmFile;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data behind each series of the percentile and over-time charts, checked against the histograms of a
 * log written by core ({@link KnownLog}) and against {@code loadgen report}'s own reading of it.
 */
class ChartDataTest {
    @TempDir
    Path dir;

    private Path log;

    @BeforeEach
    void writeLog() throws IOException {
        log = KnownLog.write(dir.resolve("known.hlog"));
    }

    /** What {@code loadgen report -tag TAG --start S --end E} sums for the tag. */
    private Histogram reported(String tag, double startSec, double endSec) throws IOException {
        LogReportOptions o = new LogReportOptions();
        o.selection = LogReportOptions.TagSelection.ONE;
        o.tag = tag;
        o.rangeStartSec = startSec;
        o.rangeEndSec = endSec;
        try (LogSet set = LogSet.open(List.of(log), w -> { })) {
            List<LogReport.TagTotal> totals = new LogReport(o, new PrintStream(new ByteArrayOutputStream()), null).run(set);
            return totals.get(0).histogram();
        }
    }

    private static XYSeries series(XYChart chart, String name) {
        XYSeries s = chart.getSeries(name);
        assertNotNull(s, "series " + name + " in " + names(chart));
        return s;
    }

    /** The y of the series' point at x, in the chart's unit. */
    private static double yAt(XYSeries s, double x) {
        double[] xs = s.getXData();
        for (int i = 0; i < xs.length; i++) {
            if (Math.abs(xs[i] - x) < 1e-9 * Math.max(1, x)) {
                return s.getYData()[i];
            }
        }
        throw new AssertionError("no point at x = " + x);
    }

    @Test
    void percentileChartsMarkedPointsAreTheReportsPercentiles() throws IOException {
        LogSeries series = LogSeries.read(List.of(log), LogSeries.Selection.all(), w -> { });
        List<String> tags = OverTimeChart.defaultTags(series);
        assertEquals(List.of("READ.intended", "READ.service"), tags);
        List<PercentileCurve> curves = tags.stream().map(t -> PercentileCurve.of(t, series.series(t).total())).toList();
        XYChart chart = PercentileChart.build(curves, List.of(), ChartStyle.defaults());
        assertEquals("latency (ms)", chart.getYAxisTitle());
        for (String tag : tags) {
            Histogram report = reported(tag, 0, Double.MAX_VALUE);
            XYSeries s = series(chart, tag);
            // x = 1/(1-p): 99% at 100, 99.9% at 1000; y in ms
            assertEquals(report.getValueAtPercentile(99) / 1e6, yAt(s, 100.0), 1e-9, tag + " p99");
            assertEquals(report.getValueAtPercentile(99.9) / 1e6, yAt(s, 1000.0), 1e-9, tag + " p99.9");
            assertEquals(report.getValueAtPercentile(50) / 1e6, yAt(s, 2.0), 1e-9, tag + " p50");
            double[] ys = s.getYData();
            assertEquals(report.getMaxValue() / 1e6, ys[ys.length - 1], 1e-9, tag + " ends at the max");
        }
        // The stall's queue (100 of 10,100 values) shows in intended's tail only: p99.9 in the 10-1000 ms values.
        assertTrue(yAt(series(chart, "READ.intended"), 1000.0) > 10.0);
        assertTrue(yAt(series(chart, "READ.service"), 1000.0) < 1.02);
    }

    @Test
    void percentileAxisLabelsTheNines() {
        assertEquals("0%", PercentileChart.percentileLabel(1));
        assertEquals("90%", PercentileChart.percentileLabel(10));
        assertEquals("99%", PercentileChart.percentileLabel(100));
        assertEquals("99.9%", PercentileChart.percentileLabel(1000));
        assertEquals("99.99%", PercentileChart.percentileLabel(1e4));
        assertEquals("99.999%", PercentileChart.percentileLabel(1e5));
        assertEquals("50%", PercentileChart.percentileLabel(2));
    }

    @Test
    void slaIsAStaircaseAtItsLimits() throws IOException {
        LogSeries series = LogSeries.read(List.of(log), LogSeries.Selection.all(), w -> { });
        PercentileCurve c = PercentileCurve.of("READ.intended", series.series("READ.intended").total());
        XYChart chart = PercentileChart.build(List.of(c),
                List.of(SlaLine.parse("p99.9 < 900ms"), SlaLine.parse("READ.intended.p99 <= 50ms")), ChartStyle.defaults());
        XYSeries sla = series(chart, "SLA READ.intended.p99 <= 50ms, p99.9 < 900ms");
        assertArrayEquals(new double[]{1, 100, 100, 1000}, sla.getXData(), 1e-9);
        assertArrayEquals(new double[]{50, 50, 900, 900}, sla.getYData(), 1e-9);
    }

    @Test
    void hgrmCurveHasTheLogsDistributionPoints() throws IOException {
        LogSeries series = LogSeries.read(List.of(log), LogSeries.Selection.all(), w -> { });
        Histogram total = series.series("READ.service").total();
        Path hgrm = dir.resolve("READ.service.hgrm");
        try (PrintStream out = new PrintStream(Files.newOutputStream(hgrm))) {
            total.outputPercentileDistribution(out, 5, 1000.0); // µs, as plot --hgrm-unit us reads it
        }
        PercentileCurve fromFile = PercentileCurve.of(HgrmFile.read(hgrm), 1000.0);
        PercentileCurve fromLog = PercentileCurve.of("READ.service", total);
        assertEquals("READ.service", fromFile.label());
        assertEquals(total.getTotalCount(), fromFile.count());
        for (PercentileCurve.Point p : fromFile.points()) {
            double logValue = fromLog.valueAt(p.percentile());
            if (!Double.isNaN(logValue)) {
                assertEquals(logValue, p.valueNs(), 1.0, "at " + p.percentile() + "% (the file rounds to 0.001 µs)");
            }
        }
    }

    @Test
    void overTimePointsAreEachIntervalsOwnPercentiles() throws IOException {
        LogSeries series = LogSeries.read(List.of(log), LogSeries.Selection.all(), w -> { });
        XYChart chart = OverTimeChart.build(series, List.of("READ.intended", "READ.service"), ChartStyle.defaults());
        XYSeries p99 = series(chart, OverTimeChart.seriesName("READ.intended", "p99"));
        XYSeries max = series(chart, OverTimeChart.seriesName("READ.intended", "max"));
        XYSeries p50 = series(chart, OverTimeChart.seriesName("READ.service", "p50"));
        assertEquals(KnownLog.INTERVALS, p99.getXData().length);
        for (int k = 0; k < KnownLog.INTERVALS; k++) {
            assertEquals(k + 0.5, p99.getXData()[k], 1e-9, "each point at its interval's middle");
            assertEquals(KnownLog.intended(k).getValueAtPercentile(99) / 1e6, p99.getYData()[k], 1e-9, "p99 of " + k);
            assertEquals(KnownLog.intended(k).getMaxValue() / 1e6, max.getYData()[k], 1e-9);
            assertEquals(KnownLog.service(k).getValueAtPercentile(50) / 1e6, p50.getYData()[k], 1e-9);
        }
        XYSeries ops = series(chart, OverTimeChart.throughputName("READ"));
        assertEquals(1, ops.getYAxisGroup(), "throughput on the second axis");
        assertEquals(1000.0, ops.getYData()[0], 1e-9);
        assertEquals(1100.0, ops.getYData()[KnownLog.STALL], 1e-9, "from READ.status: every completion");
    }

    @Test
    void pausesAreMarkedAtTheirStartWithinTheIntervalsDrawn() throws IOException {
        LogSeries series = LogSeries.read(List.of(log), LogSeries.Selection.all(), w -> { });
        assertEquals(3, series.events().size());
        XYChart chart = OverTimeChart.build(series, List.of("READ.intended"), ChartStyle.defaults());
        XYSeries stw = series(chart, "stop-the-world (stw-mockdb): 1");
        assertArrayEquals(new double[]{4.2, 4.2, 4.2}, stw.getXData(), 1e-6, "epoch seconds, relative: µs precision");
        assertEquals(0.0, stw.getYData()[0]);
        assertTrue(Double.isNaN(stw.getYData()[2]), "the pen lifts after each mark");
        XYSeries gc = series(chart, "gc (harness): 1");
        assertEquals(7.5, gc.getXData()[0], 1e-6, "the GC at -0.5 s, before the first interval, is not drawn");
    }

    @Test
    void aRateChangeIsMarkedAtItsSwitchNamingTheNewRate() throws IOException {
        // Four 1 s intervals at 1000 ops/s, then (from 2 s) 3000 ops/s by the rate file: one mark at 2 s.
        Path changed = dir.resolve("changed.hlog");
        try (io.loadgen.core.record.IntervalLog w = io.loadgen.core.record.IntervalLog.open(changed)) {
            w.writeHeader(KnownLog.START_MS, List.of("run: driver=test target=1000ops/s threads=1"));
            for (int k = 0; k < 4; k++) {
                if (k == 2) {
                    w.writeEvent("rate-change", "rate-file", KnownLog.START_MS + 2_000, 0, 3000);
                }
                Histogram h = KnownLog.service(k);
                h.setTag("READ.intended");
                h.setStartTimeStamp(KnownLog.START_MS + k * 1000L);
                h.setEndTimeStamp(KnownLog.START_MS + (k + 1) * 1000L);
                w.write(h);
            }
        }
        LogSeries series = LogSeries.read(List.of(changed), LogSeries.Selection.all(), w -> { });
        assertEquals(3000, series.events().get(0).rateOpsPerSec());
        XYChart chart = OverTimeChart.build(series, List.of("READ.intended"), ChartStyle.defaults());
        XYSeries mark = series(chart, "rate -> 3,000 ops/s (rate-file)");
        assertEquals(2.0, mark.getXData()[0], 1e-6);
    }

    @Test
    void timeRangeSelectsTheIntervalsReportSelects() throws IOException {
        LogSeries series = LogSeries.read(List.of(log), new LogSeries.Selection(List.of("READ.intended"), 3, 5), w -> { });
        TagSeries s = series.series("READ.intended");
        assertEquals(3, s.intervals().size(), "intervals starting at 3, 4 and 5 s");
        assertEquals(reported("READ.intended", 3, 5).getValueAtPercentile(99), s.total().getValueAtPercentile(99));
        assertNotNull(series.series("READ.status"), "the tag's status counts come along, for throughput");
        assertNull(series.series("READ.service"));
    }

    @Test
    void aTagNotInTheLogIsBadInputNamingTheTagsPresent() {
        BadInputException e = assertThrows(BadInputException.class, () -> LogSeries.read(List.of(log),
                new LogSeries.Selection(List.of("READ.nope"), 0, Double.MAX_VALUE), w -> { }));
        assertEquals("no interval tagged 'READ.nope' in " + log + "; tags present: READ.intended, READ.service, READ.status",
                e.getMessage());
    }

    private static List<String> names(XYChart chart) {
        return chart.getSeriesCollection().stream().map(XYSeries::getName).toList();
    }
}
