package io.loadgen.plot;

import io.loadgen.core.sweep.RatePlan;
import io.loadgen.core.sweep.SweepKnee;
import io.loadgen.core.sweep.SweepPoint;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The latency-versus-throughput chart of a sweep: for each step, in order of offered rate, its intended
 * p50, p99 and p99.9 and its service p99 against the throughput it achieved. Steps that fell behind are
 * ringed; the knee ({@link SweepKnee}) is a large marker on the intended p99 curve and named in the
 * legend; an objective is a dashed line at its limit. Stateless; builds on the calling thread.
 */
public final class SweepChart {
    static final String KNEE = "knee";
    private static final int MARKER_SIZE = 9;
    static final String FELL_BEHIND = "fell behind";
    private static final String[] NAMES = {"intended p50", "intended p99", "intended p99.9", "service p99"};
    private static final List<ToDoubleFunction<SweepPoint>> VALUES = List.of(
            SweepPoint::intendedP50Ns, SweepPoint::intendedP99Ns, SweepPoint::intendedP999Ns, SweepPoint::serviceP99Ns);

    private SweepChart() {
    }

    /** The series name of one curve, e.g. {@code intended p99}. */
    public static String curveName(int index) {
        return NAMES[index];
    }

    /**
     * The chart of {@code points}; {@code objective} (may be null) draws its limit and decides the knee.
     */
    public static XYChart build(List<SweepPoint> points, SlaLine objective, ChartStyle style) {
        return build(points, objective, style, true);
    }

    /** The same chart, the knee marked only when {@code knee} (findmax marks its own answer instead). */
    static XYChart build(List<SweepPoint> points, SlaLine objective, ChartStyle style, boolean knee) {
        List<SweepPoint> byRate = new ArrayList<>(points);
        byRate.sort(java.util.Comparator.comparingDouble(SweepPoint::offeredOpsPerSec));
        double maxNs = byRate.stream().mapToDouble(SweepPoint::intendedP999Ns).max().orElse(0);
        if (objective != null) {
            maxNs = Math.max(maxNs, objective.limitNs());
        }
        LatencyUnit unit = LatencyUnit.fit(maxNs);
        XYChart chart = Charts.frame(style, style.titleOr("Latency vs throughput"), "achieved throughput (ops/s)",
                "latency (" + unit.label() + ")");
        if (!style.logY()) {
            chart.getStyler().setYAxisMin(0.0);
        }
        chart.getStyler().setMarkerSize(MARKER_SIZE);
        for (int i = 0; i < NAMES.length; i++) {
            curve(chart, byRate, i, unit);
        }
        fellBehind(chart, byRate, unit);
        if (knee) {
            SweepKnee.Objective kneeObjective = objective == null ? null : objective.objective();
            markKnee(chart, byRate, SweepKnee.of(byRate, kneeObjective), kneeObjective, unit);
        }
        if (objective != null) {
            double lo = byRate.stream().mapToDouble(SweepPoint::achievedOpsPerSec).min().orElse(0);
            double hi = byRate.stream().mapToDouble(SweepPoint::achievedOpsPerSec).max().orElse(1);
            Charts.line(chart, "SLA " + objective.text(), List.of(lo, hi),
                    List.of(unit.of(objective.limitNs()), unit.of(objective.limitNs())), Palette.SLO, Charts.DASHED);
        }
        return chart;
    }

    private static void curve(XYChart chart, List<SweepPoint> byRate, int index, LatencyUnit unit) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (SweepPoint p : byRate) {
            double v = VALUES.get(index).applyAsDouble(p);
            if (!Double.isNaN(v)) {
                x.add(p.achievedOpsPerSec());
                y.add(unit.of(v));
            }
        }
        Color color = index == 3 ? Palette.SERVICE : Palette.INTENDED;
        XYSeries s = Charts.line(chart, NAMES[index], x, y, color,
                index == 1 ? Charts.SOLID : index == 3 ? Charts.SOLID : index == 0 ? Charts.DOTTED : Charts.THIN);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setMarkerColor(color);
    }

    private static void fellBehind(XYChart chart, List<SweepPoint> byRate, LatencyUnit unit) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (SweepPoint p : byRate) {
            if (!p.keptUp()) {
                x.add(p.achievedOpsPerSec());
                y.add(unit.of(p.intendedP99Ns()));
            }
        }
        if (!x.isEmpty()) {
            scatter(chart, FELL_BEHIND + " (" + x.size() + (x.size() == 1 ? " step)" : " steps)"), x, y, Palette.FELL_BEHIND,
                    SeriesMarkers.CROSS);
        }
    }

    private static void markKnee(XYChart chart, List<SweepPoint> byRate, double kneeRate, SweepKnee.Objective objective,
                                 LatencyUnit unit) {
        for (SweepPoint p : byRate) {
            if (p.offeredOpsPerSec() == kneeRate) {
                scatter(chart, KNEE + ": " + RatePlan.format(kneeRate) + " ops/s offered"
                                + (objective == null ? ", the highest that kept up" : ", the highest that kept up and met "
                                + objective.text()), List.of(p.achievedOpsPerSec()), List.of(unit.of(p.intendedP99Ns())),
                        Palette.ANSWER, SeriesMarkers.DIAMOND);
                return;
            }
        }
    }

    private static void scatter(XYChart chart, String name, List<Double> x, List<Double> y, Color color,
                                org.knowm.xchart.style.markers.Marker marker) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(marker);
        s.setMarkerColor(color);
    }
}
