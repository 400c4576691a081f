package io.loadgen.plot;

import io.loadgen.core.log.LogEvent;
import io.loadgen.core.record.StatusTags;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The latency-over-time chart: for each chosen tag, every interval's p50, p99 and max (each point at the
 * interval's middle, in seconds after the log's StartTime); each operation type's throughput per
 * interval on a second axis; and the log's pauses ({@code #[event: ...]} lines) as vertical marks at
 * their start: the store's stop-the-world pauses and the harness's own GC pauses in their {@link Palette}
 * colours. Stateless;
 * builds on the calling thread.
 */
public final class OverTimeChart {
    /** The statistics drawn per tag, with the percentile each reads (100 = max) and its stroke. */
    static final String[] STATS = {"p50", "p99", "max"};
    private static final double[] PERCENTILES = {50, 99, 100};
    private static final BasicStroke[] STROKES = {Charts.DOTTED, Charts.SOLID, Charts.THIN};

    private OverTimeChart() {
    }

    /**
     * The tags drawn when none are chosen: each operation type's {@code intended} and {@code service} views
     * (the two that tell coordinated omission apart); for a log without them, every latency tag.
     */
    public static List<String> defaultTags(LogSeries log) {
        List<String> tags = new ArrayList<>();
        for (String tag : log.latencyTags()) {
            boolean view = tag.endsWith(".intended") || tag.endsWith(".service");
            if (view && !tag.contains(".failed.")) {
                tags.add(tag);
            }
        }
        return tags.isEmpty() ? log.latencyTags() : tags;
    }

    /** The series name of one tag's statistic, e.g. {@code READ.intended p99}. */
    public static String seriesName(String tag, String stat) {
        return tag + " " + stat;
    }

    /** The series name of an operation type's throughput, e.g. {@code READ ops/s}. */
    public static String throughputName(String op) {
        return op + " ops/s";
    }

    /** The series name of a kind of event and how many there were, e.g. {@code stop-the-world (stw-mockdb): 25}. */
    public static String eventSeriesName(LogEvent e, int count) {
        if (e.isRateChange()) {
            return "rate -> " + io.loadgen.core.diagnosis.Figures.rate(e.rateOpsPerSec()) + " ops/s (" + e.source() + ")"
                    + (count > 1 ? ": " + count : "");
        }
        return e.kind() + " (" + e.source() + "): " + count;
    }

    /**
     * The chart of {@code tags} (each present in {@code log}).
     *
     * @throws IllegalArgumentException when a tag was not read
     */
    public static XYChart build(LogSeries log, List<String> tags, ChartStyle style) {
        double maxNs = 0;
        for (String tag : tags) {
            TagSeries s = series(log, tag);
            maxNs = Math.max(maxNs, s.total().getMaxValue());
        }
        LatencyUnit unit = LatencyUnit.fit(maxNs);
        XYChart chart = Charts.frame(style, style.titleOr("Latency over time"), "time (s)",
                "latency (" + unit.label() + ")");
        chart.getStyler().setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.setYAxisGroupTitle(1, "throughput (ops/s)");
        if (!style.logY()) { // a log axis cannot start at 0
            chart.getStyler().setYAxisMin(0, 0.0);
            chart.getStyler().setYAxisMin(1, 0.0);
        }
        List<Color> colors = Palette.colors(tags);
        for (int i = 0; i < tags.size(); i++) {
            addTag(chart, series(log, tags.get(i)), unit, style.logY(), colors.get(i));
        }
        addThroughput(chart, log, tags);
        addEvents(chart, log, unit.of(maxNs), style.logY() ? smallestPositive(log, tags, unit) : 0.0);
        return chart;
    }

    private static TagSeries series(LogSeries log, String tag) {
        TagSeries s = log.series(tag);
        if (s == null) {
            throw new IllegalArgumentException("tag " + tag + " was not read");
        }
        return s;
    }

    private static void addTag(XYChart chart, TagSeries s, LatencyUnit unit, boolean logY, Color color) {
        for (int k = 0; k < STATS.length; k++) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (IntervalPoint p : s.intervals()) {
                Histogram h = p.histogram();
                if (h.getTotalCount() == 0) {
                    continue; // nothing completed: no latency to draw (the throughput shows the gap)
                }
                double v = PERCENTILES[k] >= 100 ? h.getMaxValue() : h.getValueAtPercentile(PERCENTILES[k]);
                if (logY && v <= 0) {
                    continue;
                }
                x.add(middle(p));
                y.add(unit.of(v));
            }
            if (!x.isEmpty()) {
                Charts.line(chart, seriesName(s.tag(), STATS[k]), x, y, color, STROKES[k]);
            }
        }
    }

    /**
     * One series per operation type of the chosen tags: every completion per second, from {@code OP.status}
     * (which counts each, whatever its status) when the log has it, else from the first chosen tag of the type.
     */
    private static void addThroughput(XYChart chart, LogSeries log, List<String> tags) {
        Map<String, TagSeries> byOp = new LinkedHashMap<>();
        for (String tag : tags) {
            int dot = tag.indexOf('.');
            String op = dot > 0 ? tag.substring(0, dot) : tag;
            TagSeries status = log.series(StatusTags.tag(op));
            byOp.putIfAbsent(op, status != null ? status : log.series(tag));
        }
        int n = 0;
        for (Map.Entry<String, TagSeries> e : byOp.entrySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (IntervalPoint p : e.getValue().intervals()) {
                x.add(middle(p));
                y.add(p.perSecond());
            }
            XYSeries s = Charts.line(chart, throughputName(e.getKey()), x, y, Palette.shade(Palette.THROUGHPUT, n++),
                    Charts.DASHED);
            s.setYAxisGroup(1);
        }
    }

    /**
     * One series per kind of event: a vertical mark from {@code bottom} to {@code top} at each event's start,
     * for the events that start within the intervals drawn.
     */
    private static void addEvents(XYChart chart, LogSeries log, double top, double bottom) {
        double from = Double.MAX_VALUE;
        double to = -Double.MAX_VALUE;
        for (TagSeries s : log.series()) {
            for (IntervalPoint p : s.intervals()) {
                from = Math.min(from, p.startSec());
                to = Math.max(to, p.endSec());
            }
        }
        Map<String, List<LogEvent>> byKind = new LinkedHashMap<>();
        for (LogEvent e : log.events()) {
            double at = log.relative(e.absoluteStartSec());
            if (at < from || at > to) {
                continue; // before the first interval drawn (the harness starting up) or after the last
            }
            byKind.computeIfAbsent(e.kind() + " " + e.source() + (e.isRateChange() ? " " + e.rateOpsPerSec() : ""),
                    k -> new ArrayList<>()).add(e);
        }
        for (Map.Entry<String, List<LogEvent>> kind : byKind.entrySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (LogEvent e : kind.getValue()) {
                double at = log.relative(e.absoluteStartSec());
                x.add(at);
                y.add(bottom);
                x.add(at);
                y.add(top);
                x.add(at);
                y.add(null); // lifts the pen: each event is its own mark
            }
            LogEvent first = kind.getValue().get(0);
            Charts.line(chart, eventSeriesName(first, kind.getValue().size()), x, y,
                    Charts.alpha(Palette.ofEvent(first.kind()), 140), Charts.THIN);
        }
    }

    private static double smallestPositive(LogSeries log, List<String> tags, LatencyUnit unit) {
        long min = Long.MAX_VALUE;
        for (String tag : tags) {
            Histogram total = log.series(tag).total();
            if (total.getTotalCount() > 0) {
                min = Math.min(min, Math.max(1, total.getMinNonZeroValue()));
            }
        }
        return unit.of(min == Long.MAX_VALUE ? 1 : min);
    }

    private static double middle(IntervalPoint p) {
        return (p.startSec() + p.endSec()) / 2.0;
    }
}
