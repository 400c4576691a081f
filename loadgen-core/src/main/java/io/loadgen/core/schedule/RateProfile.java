package io.loadgen.core.schedule;

import java.util.List;

/**
 * A target rate that changes over the run: consecutive segments, each holding a rate or ramping linearly
 * from one rate to another (a step, a ramp, a spike). Immutable; built on the main thread from a phased
 * workload, read by every worker's {@link PhasedSchedule}.
 */
public record RateProfile(List<Segment> segments) {

    /**
     * {@code durationNs} long, the total rate going linearly from {@code fromOpsPerSec} to {@code toOpsPerSec}.
     *
     * @param name the phase's name, shown in the status line (null: "phase N")
     */
    public record Segment(String name, long durationNs, double fromOpsPerSec, double toOpsPerSec) {
        /** An unnamed segment. */
        public Segment(long durationNs, double fromOpsPerSec, double toOpsPerSec) {
            this(null, durationNs, fromOpsPerSec, toOpsPerSec);
        }

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

    /**
     * Which segment holds {@code offsetNs} from the profile's start: a segment covers [start, start +
     * duration), so at a boundary the next one applies; from the end on, the last one.
     */
    public int segmentAt(long offsetNs) {
        long startNs = 0;
        for (int i = 0; i < segments.size() - 1; i++) {
            startNs += segments.get(i).durationNs();
            if (offsetNs < startNs) {
                return i;
            }
        }
        return segments.size() - 1;
    }

    /** The total target rate at {@code offsetNs} from the start, in ops/s; from the end on, the last segment's final rate. */
    public double rateAt(long offsetNs) {
        int i = segmentAt(offsetNs);
        long startNs = 0;
        for (int j = 0; j < i; j++) {
            startNs += segments.get(j).durationNs();
        }
        Segment s = segments.get(i);
        double f = Math.min(1.0, Math.max(0.0, (double) (offsetNs - startNs) / s.durationNs()));
        return s.fromOpsPerSec() + (s.toOpsPerSec() - s.fromOpsPerSec()) * f;
    }

    /** The average rate over the profile, in ops/s. */
    public double meanOpsPerSec() {
        return totalOperations() * 1e9 / totalDurationNs();
    }
}
