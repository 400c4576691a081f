package io.loadgen.core.diagnosis;

import org.HdrHistogram.Histogram;

/**
 * The few statistics of one latency distribution a diagnosis reads, in ns. Immutable.
 *
 * @param count how many values; the rest are 0 when none
 */
public record Latencies(long count, long minNs, long p50Ns, long meanNs, long p99Ns, long p999Ns, long maxNs) {
    /** No values. */
    public static final Latencies NONE = new Latencies(0, 0, 0, 0, 0, 0, 0);

    /** The statistics of {@code h}, or {@link #NONE} for null or an empty one. */
    public static Latencies of(Histogram h) {
        if (h == null || h.getTotalCount() == 0) {
            return NONE;
        }
        return new Latencies(h.getTotalCount(), h.getMinValue(), h.getValueAtPercentile(50), (long) h.getMean(),
                h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue());
    }

    /** The value at {@code p} of the percentiles kept here: 50, 99, 99.9 or 100 (max). */
    public long at(double p) {
        if (p >= 100) {
            return maxNs;
        }
        if (p >= 99.9) {
            return p999Ns;
        }
        return p >= 99 ? p99Ns : p50Ns;
    }
}
