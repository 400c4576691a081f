package io.loadgen.plot;

import io.loadgen.core.sweep.SweepPoint;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The latency-vs-throughput chart of a synthetic sweep: 100 ... 500 ops/s offered; 100-300 keep up with
 * intended p99 = 2, 4, 8 ms; 400 keeps up at 40 ms; 500 falls behind (450 achieved, p99 900 ms).
 */
class SweepChartTest {
    private static final double MS = 1e6;

    static List<SweepPoint> sweep() {
        return List.of(
                point(300, 299, true, 8),
                point(100, 99.5, true, 2), // out of order on purpose: the chart sorts by offered rate
                point(200, 199, true, 4),
                point(400, 398, true, 40),
                point(500, 450, false, 900));
    }

    private static SweepPoint point(double offered, double achieved, boolean keptUp, double p99Ms) {
        return new SweepPoint(offered, achieved, keptUp, p99Ms / 2 * MS, p99Ms * MS, p99Ms * 1.5 * MS, p99Ms * 2 * MS,
                1 * MS, 0, keptUp ? 0 : 50);
    }

    private static XYSeries startingWith(XYChart chart, String prefix) {
        return chart.getSeriesCollection().stream().filter(s -> s.getName().startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no series " + prefix + "* in " + names(chart)));
    }

    @Test
    void curvesFollowTheStepsInOrderOfOfferedRate() {
        XYChart chart = SweepChart.build(sweep(), null, ChartStyle.defaults());
        XYSeries p99 = chart.getSeries(SweepChart.curveName(1));
        assertArrayEquals(new double[]{99.5, 199, 299, 398, 450}, p99.getXData(), 1e-9);
        assertArrayEquals(new double[]{2, 4, 8, 40, 900}, p99.getYData(), 1e-9);
        XYSeries behind = startingWith(chart, SweepChart.FELL_BEHIND);
        assertArrayEquals(new double[]{450}, behind.getXData(), 1e-9);
    }

    @Test
    void kneeWithoutAnObjectiveIsTheLastStepThatKeptUp() {
        XYSeries knee = startingWith(SweepChart.build(sweep(), null, ChartStyle.defaults()), SweepChart.KNEE);
        assertEquals("knee: 400 ops/s offered, the highest that kept up", knee.getName());
        assertArrayEquals(new double[]{398}, knee.getXData(), 1e-9);
        assertArrayEquals(new double[]{40}, knee.getYData(), 1e-9);
    }

    @Test
    void kneeWithAnObjectiveIsTheLastStepThatKeptUpAndMetIt() {
        XYChart chart = SweepChart.build(sweep(), SlaLine.parse("p99 < 10ms"), ChartStyle.defaults());
        XYSeries knee = startingWith(chart, SweepChart.KNEE);
        assertEquals("knee: 300 ops/s offered, the highest that kept up and met p99 < 10ms", knee.getName());
        assertArrayEquals(new double[]{8}, knee.getYData(), 1e-9);
        XYSeries sla = chart.getSeries("SLA p99 < 10ms");
        assertArrayEquals(new double[]{10, 10}, sla.getYData(), 1e-9);
    }

    @Test
    void noKneeWhenNoStepMeetsTheObjective() {
        XYChart chart = SweepChart.build(sweep(), SlaLine.parse("p99 < 1ms"), ChartStyle.defaults());
        assertTrue(names(chart).stream().noneMatch(n -> n.startsWith(SweepChart.KNEE)));
    }

    private static List<String> names(XYChart chart) {
        return chart.getSeriesCollection().stream().map(XYSeries::getName).toList();
    }
}
