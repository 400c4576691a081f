package io.loadgen.plot;

import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;

/** What every chart shares: the XChart frame and strokes (colours: {@link Palette}). Stateless. */
final class Charts {
    static final BasicStroke SOLID = new BasicStroke(2.0f);
    static final BasicStroke THIN = new BasicStroke(1.2f);
    static final BasicStroke DASHED = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
            new float[]{6f, 4f}, 0f);
    static final BasicStroke DOTTED = new BasicStroke(1.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10f,
            new float[]{1.5f, 3.5f}, 0f);

    private Charts() {
    }

    static XYChart frame(ChartStyle style, String title, String xTitle, String yTitle) {
        XYChart chart = new XYChartBuilder().width(style.width()).height(style.height())
                .title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        XYStyler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setPlotGridLinesColor(new Color(0xE0, 0xE0, 0xE0));
        styler.setPlotBorderVisible(false);
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setLegendBorderColor(new Color(0xC0, 0xC0, 0xC0));
        styler.setYAxisLogarithmic(style.logY());
        styler.setMarkerSize(0);
        return chart;
    }

    /** A line series without markers. */
    static XYSeries line(XYChart chart, String name, List<? extends Number> x, List<? extends Number> y, Color color,
                         BasicStroke stroke) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(color);
        s.setLineStyle(stroke);
        return s;
    }

    /** {@code c} at {@code alpha} (0-255). */
    static Color alpha(Color c, int alpha) {
        return new Color(c.getRed(), c.getGreen(), c.getBlue(), alpha);
    }
}
