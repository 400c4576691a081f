package io.loadgen.core.schedule;

import java.util.List;

/**
 * A target rate that changes over the run: consecutive segments, each holding a rate or ramping linearly
 * from one rate to another (a step, a ramp, a spike). Immutable; built on the main thread from a phased
 * workload, read by every worker's {@link PhasedSchedule}.
 */
public record RateProfile(List<Segment> segments) {

    /** {@code durationNs} long, the total rate going linearly from {@code fromOpsPerSec} to {@code toOpsPerSec}. */
    public record Segment(long durationNs, double fromOpsPerSec, double toOpsPerSec) {
        public Segment {
            if (durationNs <= 0 || fromOpsPerSec < 0 || toOpsPerSec < 0) {
                throw new IllegalArgumentException("bad segment: " + durationNs + " ns, " + fromOpsPerSec + " -> "
                        + toOpsPerSec + " ops/s");
            }
        }

        /** Operations this segment intends in total: the area under its rate. */
        double operations() {
            return (fromOpsPerSec + toOpsPerSec) / 2 * durationNs / 1e9;
        }
    }

    public RateProfile {
        segments = List.copyOf(segments);
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("a rate profile needs at least one segment");
        }
    }

    public long totalDurationNs() {
        long sum = 0;
        for (Segment s : segments) {
            sum += s.durationNs();
        }
        return sum;
    }

    /** Operations the whole profile intends, over all threads. */
    public double totalOperations() {
        double sum = 0;
        for (Segment s : segments) {
            sum += s.operations();
        }
        return sum;
    }

    /** The average rate over the profile, in ops/s. */
    public double meanOpsPerSec() {
        return totalOperations() * 1e9 / totalDurationNs();
    }
}
