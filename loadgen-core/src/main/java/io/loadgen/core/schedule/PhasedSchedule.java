package io.loadgen.core.schedule;

/**
 * Intended starts that follow a {@link RateProfile}: this worker's share of the rate, integrated over
 * time, reaches its k-th operation at the k-th intended start. Within a segment whose rate goes linearly
 * from a to b over T, the count after τ is {@code a·τ + (b − a)·τ²/(2T)}, so each start is found by
 * solving that quadratic, exactly, without stepping. After the last segment the schedule returns a time
 * 2^62 ns (146 years) past the profile's end: nothing more is due, and that still compares wrap-safely
 * with any time of the run. One worker thread only; allocates nothing.
 */
public final class PhasedSchedule implements Schedule {
    /** How far past the profile's end the schedule puts "never". */
    private static final long NEVER_AFTER_END_NS = 1L << 62;

    private final long startNs;
    private final RateProfile.Segment[] segments;
    private final double share;
    private final double meanIntervalNs;
    private int segment;
    private long segmentStartNs;
    private double segmentStartCount;
    private double nextCount;

    /**
     * @param share        this worker's fraction of the total rate (1 / threads)
     * @param offsetCount  where in its first gap this worker starts, in [0, 1): spreads workers apart
     */
    public PhasedSchedule(long startNs, RateProfile profile, double share, double offsetCount) {
        this.startNs = startNs;
        this.segments = profile.segments().toArray(new RateProfile.Segment[0]);
        this.share = share;
        this.meanIntervalNs = 1e9 / (profile.meanOpsPerSec() * share);
        this.segmentStartNs = startNs;
        this.nextCount = offsetCount;
    }

    @Override
    public long nextIntendedStartNs() {
        while (segment < segments.length) {
            RateProfile.Segment s = segments[segment];
            double a = s.fromOpsPerSec() * share / 1e9;                        // ops per ns at the segment's start
            double slope = (s.toOpsPerSec() - s.fromOpsPerSec()) * share / 1e9 / s.durationNs(); // per ns²
            double need = nextCount - segmentStartCount;
            double tauNs = solve(a, slope, need);
            if (tauNs < s.durationNs()) {
                nextCount += 1;
                return segmentStartNs + (long) tauNs;
            }
            segmentStartCount += a * s.durationNs() + slope * s.durationNs() * (double) s.durationNs() / 2;
            segmentStartNs += s.durationNs();
            segment++;
        }
        return segmentStartNs + NEVER_AFTER_END_NS;
    }

    /**
     * Direct: operation c (its count along this worker's share of the rate) is intended before
     * {@code untilNs} when c is below the count the profile reaches at {@code untilNs}, which is the
     * integral up to there, segment by segment. Exact up to floating-point rounding of that integral.
     */
    @Override
    public long countUntil(long pendingNs, long untilNs) {
        if (pendingNs - untilNs >= 0) {
            return 0;
        }
        double pendingCount = nextCount - 1;
        long n = Math.max(1, (long) Math.ceil(countAt(untilNs) - pendingCount));
        nextCount = pendingCount + n;
        return n;
    }

    /** How many operations this worker's share of the profile intends before {@code atNs}. */
    private double countAt(long atNs) {
        double count = segmentStartCount;
        long fromNs = segmentStartNs;
        for (int i = segment; i < segments.length; i++) {
            RateProfile.Segment s = segments[i];
            double a = s.fromOpsPerSec() * share / 1e9;
            double slope = (s.toOpsPerSec() - s.fromOpsPerSec()) * share / 1e9 / s.durationNs();
            double tauNs = Math.min(atNs - fromNs, s.durationNs());
            count += a * tauNs + slope * tauNs * tauNs / 2;
            if (atNs - fromNs <= s.durationNs()) {
                break;
            }
            fromNs += s.durationNs();
        }
        return count;
    }

    /** Smallest τ ≥ 0 with a·τ + slope·τ²/2 = need; +∞ when the segment never gets there. */
    private static double solve(double a, double slope, double need) {
        if (need <= 0) {
            return 0;
        }
        if (slope == 0) {
            return a > 0 ? need / a : Double.POSITIVE_INFINITY;
        }
        double disc = a * a + 2 * slope * need;
        if (disc < 0) {
            return Double.POSITIVE_INFINITY;
        }
        // (sqrt(disc) - a) / slope, written to stay accurate when slope is tiny.
        return 2 * need / (a + Math.sqrt(disc));
    }

    @Override
    public double meanIntervalNs() {
        return meanIntervalNs;
    }

    /** When this schedule started (its profile's time zero). */
    public long startNs() {
        return startNs;
    }
}
