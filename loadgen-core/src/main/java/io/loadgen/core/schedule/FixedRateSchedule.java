package io.loadgen.core.schedule;

/**
 * Evenly spaced intended starts: operation k is intended at {@code startNs + k * intervalNs},
 * computed from k each time so rounding never accumulates. One worker thread only.
 */
public final class FixedRateSchedule implements RestartableSchedule {
    private long startNs;
    private double intervalNs;
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

    /**
     * Exact, by arithmetic: operation j is before {@code untilNs} when {@code (long) (j * intervalNs) < d},
     * {@code d = untilNs - startNs}, i.e. when j is below the first j' with {@code (long) (j' * intervalNs) >= d};
     * j' is {@code ceil(d / intervalNs)}, nudged by one where the division rounds.
     */
    @Override
    public long countUntil(long pendingNs, long untilNs) {
        if (pendingNs - untilNs >= 0) {
            return 0;
        }
        long pending = k - 1;
        long d = untilNs - startNs;
        long first = (long) Math.ceil(d / intervalNs);
        while (first > pending && (long) ((first - 1) * intervalNs) >= d) {
            first--;
        }
        while ((long) (first * intervalNs) < d) {
            first++;
        }
        k = first;
        return first - pending;
    }

    @Override
    public double meanIntervalNs() {
        return intervalNs;
    }

    @Override
    public long peekNs() {
        return startNs + (long) (k * intervalNs);
    }

    @Override
    public void restart(long nextNs, double intervalNs) {
        this.startNs = nextNs;
        this.intervalNs = intervalNs;
        this.k = 0;
    }
}
