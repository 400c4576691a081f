package io.loadgen.plot;

/**
 * How a chart looks, from the command line: its title (null for the chart's own), size in pixels and
 * latency axis scale. Immutable.
 *
 * @param title  the chart's title, or null for the default of each chart
 * @param width  pixels
 * @param height pixels
 * @param logY   a logarithmic latency axis instead of a linear one
 */
public record ChartStyle(String title, int width, int height, boolean logY) {
    public static final int DEFAULT_WIDTH = 1000;
    public static final int DEFAULT_HEIGHT = 600;

    /** The defaults: each chart's own title, 1000 x 600, linear latency axis. */
    public static ChartStyle defaults() {
        return new ChartStyle(null, DEFAULT_WIDTH, DEFAULT_HEIGHT, false);
    }

    /** {@link #title} when given, else {@code fallback}. */
    String titleOr(String fallback) {
        return title != null ? title : fallback;
    }
}
