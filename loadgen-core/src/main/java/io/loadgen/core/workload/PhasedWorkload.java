package io.loadgen.core.workload;

import io.loadgen.core.time.Durations;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A workload in phases, as read from a YAML file by {@link WorkloadFile#load}: a driver, its
 * properties, a thread count and a sequence of phases, each holding or ramping the target rate.
 * Immutable; safe to share between threads.
 *
 * <p>The target rate over the run is piecewise linear: {@link #rateAt(long)} gives it at any
 * offset from the start of the first phase.
 */
public final class PhasedWorkload {
    private final String driver;
    private final Map<String, String> properties;
    private final int threads;
    private final List<Phase> phases;
    private final long[] phaseStartNs;
    private final long totalNs;

    /**
     * One phase: for {@code duration} the target rate moves linearly from {@code fromOpsPerSec} to
     * {@code toOpsPerSec} (equal for a steady phase). Rates are totals over all threads.
     */
    public record Phase(String name, Duration duration, double fromOpsPerSec, double toOpsPerSec) {
        public Phase {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(duration, "duration");
        }

        /** True when the rate changes over the phase. */
        public boolean ramps() {
            return fromOpsPerSec != toOpsPerSec;
        }

        /** The rate {@code offsetNs} into this phase, interpolated between from and to. */
        public double rateAt(long offsetNs) {
            double f = (double) offsetNs / duration.toNanos();
            return fromOpsPerSec + (toOpsPerSec - fromOpsPerSec) * f;
        }

        /** One line, e.g. {@code ramp 30s 1000->5000 ops/s}. */
        public String describe() {
            return name + " " + Durations.format(duration) + " "
                    + (ramps() ? fmt(fromOpsPerSec) + "->" + fmt(toOpsPerSec) : fmt(fromOpsPerSec)) + " ops/s";
        }
    }

    /** Builds one from checked parts; {@link WorkloadFile} validates them first. */
    PhasedWorkload(String driver, Map<String, String> properties, int threads, List<Phase> phases) {
        this.driver = driver;
        this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
        this.threads = threads;
        this.phases = List.copyOf(phases);
        this.phaseStartNs = new long[phases.size()];
        long t = 0;
        for (int i = 0; i < phases.size(); i++) {
            phaseStartNs[i] = t;
            t = Math.addExact(t, phases.get(i).duration().toNanos());
        }
        this.totalNs = t;
    }

    /** The driver the file names, if any; a command-line {@code --driver} overrides it. */
    public Optional<String> driver() {
        return Optional.ofNullable(driver);
    }

    /** Workload and driver properties, in file order (split them with {@link WorkloadOptions#remaining}). */
    public Map<String, String> properties() {
        return properties;
    }

    public int threads() {
        return threads;
    }

    public List<Phase> phases() {
        return phases;
    }

    /** The sum of the phases' durations. */
    public Duration totalDuration() {
        return Duration.ofNanos(totalNs);
    }

    /**
     * The target rate in ops/s at {@code offsetNs} from the start of the first phase. A phase
     * covers [start, start + duration): at a boundary the next phase's rate applies. Outside
     * [0, {@link #totalDuration()}) the rate is 0.
     */
    public double rateAt(long offsetNs) {
        int i = phaseIndexAt(offsetNs);
        return i < 0 ? 0.0 : phases.get(i).rateAt(offsetNs - phaseStartNs[i]);
    }

    /** Which phase holds {@code offsetNs}, or -1 outside the run. */
    public int phaseIndexAt(long offsetNs) {
        if (offsetNs < 0 || offsetNs >= totalNs) {
            return -1;
        }
        int i = phases.size() - 1;
        while (phaseStartNs[i] > offsetNs) {
            i--;
        }
        return i;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("driver=").append(driver == null ? "-" : driver)
                .append(" threads=").append(threads).append(" phases=[");
        for (int i = 0; i < phases.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(phases.get(i).describe());
        }
        return sb.append("]").toString();
    }
}
