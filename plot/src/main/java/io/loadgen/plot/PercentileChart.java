package io.loadgen.plot;

import org.knowm.xchart.XYChart;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The percentile-distribution chart: latency against percentile, one curve per input, on HdrHistogram's
 * {@code 1/(1-p)} axis, so each further nine (90%, 99%, 99.9%, ...) gets the same width and the tail is
 * as visible as the median. Objectives ({@link SlaLine}) are drawn as one staircase: the curves must stay
 * under it. Stateless; builds on the calling thread.
 */
public final class PercentileChart {
    /** The axis reaches at least 99.999%. */
    static final double MIN_X_MAX = 1e5;

    private PercentileChart() {
    }

    /**
     * The chart of {@code curves} with the {@code slas} staircase (may be empty).
     *
     * @throws IllegalArgumentException when there is no curve
     */
    public static XYChart build(List<PercentileCurve> curves, List<SlaLine> slas, ChartStyle style) {
        if (curves.isEmpty()) {
            throw new IllegalArgumentException("no curve to draw");
        }
        double maxNs = curves.stream().mapToDouble(PercentileCurve::maxNs).max().orElse(0);
        for (SlaLine s : slas) {
            maxNs = Math.max(maxNs, s.limitNs());
        }
        LatencyUnit unit = LatencyUnit.fit(maxNs);
        XYChart chart = Charts.frame(style, style.titleOr("Latency by percentile"), "percentile",
                "latency (" + unit.label() + ")");
        double xMax = MIN_X_MAX;
        for (PercentileCurve c : curves) {
            xMax = Math.max(xMax, c.x(100.0));
        }
        xMax = Math.pow(10, Math.ceil(Math.log10(xMax)));
        chart.getStyler()
                .setXAxisLogarithmic(true)
                .setXAxisLogarithmicDecadeOnly(true)
                .setXAxisMin(1.0)
                .setXAxisMax(xMax)
                .setXAxisTickLabelsFormattingFunction(PercentileChart::percentileLabel);
        if (!style.logY()) {
            chart.getStyler().setYAxisMin(0.0);
        }
        List<java.awt.Color> colors = Palette.colors(curves.stream().map(PercentileCurve::label).toList());
        for (int i = 0; i < curves.size(); i++) {
            addCurve(chart, curves.get(i), unit, style.logY(), colors.get(i));
        }
        if (!slas.isEmpty()) {
            addStaircase(chart, slas, unit, xMax);
        }
        return chart;
    }

    private static void addCurve(XYChart chart, PercentileCurve c, LatencyUnit unit, boolean logY, java.awt.Color color) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (PercentileCurve.Point p : c.points()) {
            if (logY && p.valueNs() <= 0) {
                continue; // no place on a log axis
            }
            x.add(c.x(p.percentile()));
            y.add(unit.of(p.valueNs()));
        }
        Charts.line(chart, c.label(), x, y, color, Charts.SOLID);
    }

    /** One series: for each objective in percentile order, its limit from the previous one's percentile to its own. */
    private static void addStaircase(XYChart chart, List<SlaLine> slas, LatencyUnit unit, double xMax) {
        List<SlaLine> sorted = new ArrayList<>(slas);
        sorted.sort(Comparator.comparingDouble(SlaLine::percentile));
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        double from = 1.0;
        for (SlaLine s : sorted) {
            double to = s.percentile() >= 100.0 ? xMax : 1.0 / (1.0 - s.percentile() / 100.0);
            x.add(from);
            y.add(unit.of(s.limitNs()));
            x.add(to);
            y.add(unit.of(s.limitNs()));
            from = to;
        }
        String name = "SLA " + String.join(", ", sorted.stream().map(SlaLine::text).toList());
        Charts.line(chart, name, x, y, Palette.SLO, Charts.DASHED);
    }

    /** The tick label of {@code x = 1/(1-p)}: 0%, 90%, 99%, 99.9%, ... at the decades. */
    static String percentileLabel(double x) {
        double k = Math.log10(x);
        long decade = Math.round(k);
        if (Math.abs(k - decade) < 1e-9 && decade >= 0) {
            if (decade == 0) {
                return "0%";
            }
            if (decade == 1) {
                return "90%";
            }
            return "99" + (decade > 2 ? "." + "9".repeat((int) decade - 2) : "") + "%";
        }
        double p = 100.0 * (1.0 - 1.0 / x);
        return java.math.BigDecimal.valueOf(p).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString() + "%";
    }
}
