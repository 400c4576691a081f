package io.loadgen.plot;

import io.loadgen.core.summary.HgrmFile;
import io.loadgen.core.summary.JsonSummaryFile;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * One series of a percentile-distribution chart: latency against percentile, from a histogram, a
 * {@code .hgrm} file or a JSON summary. Immutable.
 *
 * <p>From a histogram the points are those its {@code .hgrm} file would list (HdrHistogram's percentile
 * iteration, 5 ticks per half distance), plus the chart's labelled percentiles (50, 90, 99, 99.9, 99.99,
 * 99.999) read exactly with {@code getValueAtPercentile}, so the point at 99% is the report's p99.
 *
 * @param label  the legend's name, e.g. {@code READ.intended}
 * @param count  values in the distribution (places the maximum on the x axis: see {@link #x})
 * @param points percentile (0 to 100) and latency (ns), by percentile
 */
public record PercentileCurve(String label, long count, List<Point> points) {
    /** The percentiles the chart labels, each also a point of every curve built from a histogram. */
    public static final double[] MARKED = {50, 90, 99, 99.9, 99.99, 99.999};
    private static final int TICKS_PER_HALF_DISTANCE = 5;

    /** One point: a percentile from 0 to 100 and the latency at it, in ns. */
    public record Point(double percentile, double valueNs) {
    }

    public PercentileCurve {
        points = List.copyOf(points);
    }

    /** The distribution of {@code h} (ns). */
    public static PercentileCurve of(String label, Histogram h) {
        TreeMap<Double, Double> byPercentile = new TreeMap<>();
        for (HistogramIterationValue v : h.percentiles(TICKS_PER_HALF_DISTANCE)) {
            byPercentile.put(v.getPercentileLevelIteratedTo(), (double) v.getValueIteratedTo());
        }
        for (double p : MARKED) {
            byPercentile.put(p, (double) h.getValueAtPercentile(p));
        }
        if (h.getTotalCount() > 0) {
            byPercentile.put(100.0, (double) h.getMaxValue());
        }
        List<Point> points = new ArrayList<>();
        byPercentile.forEach((p, v) -> points.add(new Point(p, v)));
        return new PercentileCurve(label, h.getTotalCount(), points);
    }

    /** The rows of a {@code .hgrm} file whose values are in units of {@code nsPerUnit} ns (1000 for µs). */
    public static PercentileCurve of(HgrmFile file, double nsPerUnit) {
        List<Point> points = new ArrayList<>();
        for (HgrmFile.Row r : file.rows()) {
            points.add(new Point(r.percentile() * 100.0, r.value() * nsPerUnit));
        }
        return new PercentileCurve(stripSuffix(file.name()), file.totalCount(), points);
    }

    /** A JSON summary's view: its handful of percentiles (p50 ... p99.99, and min and max). */
    public static PercentileCurve of(String label, JsonSummaryFile.Series series) {
        List<Point> points = new ArrayList<>();
        series.points().forEach(p -> points.add(new Point(p.percentile(), p.valueNs())));
        return new PercentileCurve(label, series.count(), points);
    }

    /** The largest latency, ns. */
    public double maxNs() {
        return points.stream().mapToDouble(Point::valueNs).max().orElse(0.0);
    }

    /** The latency at exactly {@code percentile}, or NaN when the curve has no point there. */
    public double valueAt(double percentile) {
        for (Point p : points) {
            if (p.percentile() == percentile) {
                return p.valueNs();
            }
        }
        return Double.NaN;
    }

    /**
     * Where {@code percentile} sits on the chart's x axis: {@code 1 / (1 - p)}, so 0% is 1, 90% is 10, 99% is
     * 100 and each further nine a decade. 100% (the maximum) has no finite place; it is drawn where the top
     * value of {@code count} sits, 1 - 1/count, i.e. at {@code count} (or just past the curve's last point).
     */
    public double x(double percentile) {
        if (percentile < 100.0) {
            return 1.0 / (1.0 - percentile / 100.0);
        }
        double lastFinite = 1.0;
        for (Point p : points) {
            if (p.percentile() < 100.0) {
                lastFinite = Math.max(lastFinite, 1.0 / (1.0 - p.percentile() / 100.0));
            }
        }
        return Math.max(count, lastFinite * 1.5);
    }

    private static String stripSuffix(String name) {
        return name.endsWith(".hgrm") ? name.substring(0, name.length() - ".hgrm".length()) : name;
    }
}
