package io.loadgen.core.gate;

import org.HdrHistogram.Histogram;

import java.math.BigDecimal;

/**
 * The statistic of a latency series a rule reads: a percentile, min, max, mean or count. Values
 * are in nanoseconds (count: operations). Immutable; any thread.
 *
 * @param name       the canonical name, e.g. {@code p99.9}, {@code max}
 * @param kind       which statistic
 * @param percentile for {@link Kind#PERCENTILE}, in (0, 100]; otherwise NaN
 */
public record Stat(String name, Kind kind, double percentile) {
    /** The kinds of statistic. */
    public enum Kind { PERCENTILE, MIN, MAX, MEAN, COUNT }

    public static final Stat MIN = new Stat("min", Kind.MIN, Double.NaN);
    public static final Stat MAX = new Stat("max", Kind.MAX, Double.NaN);
    public static final Stat MEAN = new Stat("mean", Kind.MEAN, Double.NaN);
    public static final Stat COUNT = new Stat("count", Kind.COUNT, Double.NaN);

    /** The percentiles a JSON summary holds, with their keys' stems ({@code p99_9_us}). */
    static final double[] IN_JSON = {50, 90, 95, 99, 99.9, 99.99};
    /** How a message lists what a JSON summary holds. */
    static final String JSON_LIST = "p50, p90, p95, p99, p99.9, p99.99, min, max, mean and count";

    /** A percentile in (0, 100], named like {@code p99.9}. */
    public static Stat percentile(double p) {
        return new Stat("p" + BigDecimal.valueOf(p).stripTrailingZeros().toPlainString(), Kind.PERCENTILE, p);
    }

    /** This statistic of {@code h} (ns); the count for {@link Kind#COUNT}; NaN when {@code h} is empty. */
    public double valueIn(Histogram h) {
        if (kind == Kind.COUNT) {
            return h.getTotalCount();
        }
        if (h.getTotalCount() == 0) {
            return Double.NaN;
        }
        return switch (kind) {
            case PERCENTILE -> h.getValueAtPercentile(percentile);
            case MIN -> h.getMinValue();
            case MAX -> h.getMaxValue();
            case MEAN -> h.getMean();
            default -> throw new IllegalStateException(kind.name());
        };
    }

    /** The JSON summary's key for this statistic ({@code p99_9_us}, {@code max_us}, {@code count}), or null when it has none. */
    public String jsonKey() {
        return switch (kind) {
            case MIN -> "min_us";
            case MAX -> "max_us";
            case MEAN -> "mean_us";
            case COUNT -> "count";
            case PERCENTILE -> jsonPercentileKey();
        };
    }

    private String jsonPercentileKey() {
        if (percentile == 100.0) {
            return "max_us";
        }
        for (double p : IN_JSON) {
            if (p == percentile) {
                return name.replace('.', '_') + "_us";
            }
        }
        return null;
    }

    /** Whether values are latencies (ns), not a count. */
    public boolean isLatency() {
        return kind != Kind.COUNT;
    }
}
