package io.loadgen.plot;

import io.loadgen.core.sweep.RatePlan;
import io.loadgen.core.sweep.SweepPoint;
import org.knowm.xchart.XYChart;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;

/**
 * The latency-versus-rate chart of a findmax search: the sweep chart of its steps ({@link SweepChart}) against
 * the rate each step offered (the search's own axis; a step that fell behind achieved less, and is ringed), on a
 * logarithmic latency axis (near capacity latency spans orders of magnitude, and the objective's line must stay
 * visible under a failed step's seconds), each objective on latency as a dashed horizontal line at its limit, the
 * answer as a solid vertical line and its 95 % band as two dotted vertical lines. Stateless; builds on the
 * calling thread.
 *
 * @see io.loadgen.core.findmax.FindMaxResult
 */
public final class FindMaxChart {
    private static final Color ANSWER = Palette.ANSWER;
    private static final BasicStroke BAND = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[]{2f, 4f}, 0f);

    /** One latency objective: its rule and its limit (ns). */
    public record LimitLine(String text, double limitNs) {
    }

    private FindMaxChart() {
    }

    /**
     * @param points   one per step, its {@code achievedOpsPerSec} the rate the step offered (the x axis)
     * @param answer   the answer (ops/s); NaN for none
     * @param bandLow  NaN for none
     * @param bandHigh NaN for none
     */
    public static XYChart build(List<SweepPoint> points, List<LimitLine> limits, double answer, double bandLow,
                                double bandHigh, ChartStyle style) {
        double maxNs = points.stream().mapToDouble(SweepPoint::intendedP999Ns).max().orElse(0);
        for (LimitLine l : limits) {
            maxNs = Math.max(maxNs, l.limitNs());
        }
        ChartStyle logY = new ChartStyle(style.title(), style.width(), style.height(), true);
        XYChart chart = SweepChart.build(points, null, logY, false);
        chart.setXAxisTitle("offered rate (ops/s)");
        chart.setTitle(style.titleOr("findmax: latency vs offered rate"));
        LatencyUnit drawn = LatencyUnit.fit(points.stream().mapToDouble(SweepPoint::intendedP999Ns).max().orElse(0));
        // SweepChart drew in the unit its points fit; lines go in the same unit so they sit on the same axis.
        double bottom = points.stream().mapToDouble(SweepPoint::intendedP50Ns).filter(v -> v > 0).min().orElse(1);
        double lo = points.stream().mapToDouble(SweepPoint::achievedOpsPerSec).min().orElse(0);
        double hi = points.stream().mapToDouble(SweepPoint::achievedOpsPerSec).max().orElse(1);
        lo = Math.min(lo, Double.isNaN(bandLow) ? lo : bandLow);
        hi = Math.max(hi, Double.isNaN(bandHigh) ? hi : bandHigh);
        double top = drawn.of(maxNs) * 1.05;
        for (LimitLine l : limits) {
            Charts.line(chart, "SLO " + l.text(), List.of(lo, hi), List.of(drawn.of(l.limitNs()), drawn.of(l.limitNs())),
                    Palette.SLO, Charts.DASHED);
        }
        if (!Double.isNaN(answer)) {
            Charts.line(chart, "answer " + RatePlan.format(Math.round(answer)) + " ops/s", List.of(answer, answer),
                    List.of(drawn.of(bottom) / 2, top), ANSWER, Charts.SOLID);
        }
        if (!Double.isNaN(bandLow)) {
            Charts.line(chart, "95% band low " + RatePlan.format(Math.round(bandLow)), List.of(bandLow, bandLow),
                    List.of(drawn.of(bottom) / 2, top), ANSWER, BAND);
        }
        if (!Double.isNaN(bandHigh)) {
            Charts.line(chart, "95% band high " + RatePlan.format(Math.round(bandHigh)), List.of(bandHigh, bandHigh),
                    List.of(drawn.of(bottom) / 2, top), ANSWER, BAND);
        }
        return chart;
    }
}
