package io.loadgen.core.schedule;

/**
 * Evenly spaced intended starts: operation k is intended at {@code startNs + k * intervalNs},
 * computed from k each time so rounding never accumulates. One worker thread only.
 */
public final class FixedRateSchedule implements Schedule {
    private final long startNs;
    private final double intervalNs;
    private long k;

    /**
     * @param startNs    intended start of operation 0 (the run's start plus this worker's offset)
     * @param intervalNs gap between intended starts: threads / target rate, in nanoseconds
     */
    public FixedRateSchedule(long startNs, double intervalNs) {
        if (!(intervalNs > 0)) {
            throw new IllegalArgumentException("intervalNs must be positive: " + intervalNs);
        }
        this.startNs = startNs;
        this.intervalNs = intervalNs;
    }

    @Override
    public long nextIntendedStartNs() {
        return startNs + (long) (k++ * intervalNs);
    }

    @Override
    public double meanIntervalNs() {
        return intervalNs;
    }
}
