package io.loadgen.core.summary;

import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.diagnosis.Figures;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the load generator itself, rather than the target, shaped a run's numbers: one word,
 * {@value #HEALTHY} or {@value #BEHIND}, the reasons, and one line for a person, e.g.
 * <pre>
 * harness healthy: lag p99 12 us, hiccup max 0.3 ms, no GC pause
 * the load generator itself fell behind: the load generator itself stalled, up to 301 ms (...): its own delay can explain at most ...
 * </pre>
 * Kept for compatibility ({@code harness.verdict} in JSON and gate rules); derived from the run's
 * {@link Diagnosis}: {@value #BEHIND} exactly when a cause blames the harness ({@link CauseCode#HARNESS_SATURATED},
 * {@link CauseCode#HARNESS_STALLED}). A hiccup of a sleeping thread, a long lag of one operation, a GC pause that
 * delayed nothing material: none of these alone makes it {@value #BEHIND} any more; the diagnosis weighs the
 * harness's delay against the latencies it would distort. Immutable.
 *
 * @param healthy whether no cause blames the harness
 * @param reasons what the blame rests on, in {@link Reason} order; empty when healthy
 * @param text    the verdict for a person, one line
 */
public record HarnessVerdict(boolean healthy, List<Reason> reasons, String text) {
    /** The verdict's word when no cause blames the harness. */
    public static final String HEALTHY = "healthy";
    /** The verdict's word when the harness fell behind. */
    public static final String BEHIND = "behind";

    public HarnessVerdict {
        reasons = List.copyOf(reasons);
    }

    /** What the blame rests on. */
    public enum Reason {
        /** The harness's own work between overdue operations took too much of the workers' time ({@code harness_saturated}). */
        CAPACITY,
        /** The workers started late, by more than the latencies can hide ({@code harness_stalled}). */
        LAG,
        /** Kept so that old JSON summaries read; a hiccup alone never blames the harness now. */
        HICCUP,
        /** The harness's JVM paused for GC, and that explains most of its stall ({@code harness_stalled}). */
        GC;

        /** The reason's name in JSON: {@code capacity}, {@code lag}, {@code hiccup}, {@code gc}. */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What the harness measured about itself over the measured time (after the warm-up), for the healthy line.
     *
     * @param throttled      whether the run had a schedule (else there is no lag and nothing is behind)
     * @param lagP99Ns       the scheduler's lag, p99 (ignored when unthrottled)
     * @param hiccupMaxNs    the longest hiccup, or -1 when not measured
     * @param gcPauses       the harness's GC pauses
     * @param gcPauseTotalNs their total length
     * @param gcPauseMaxNs   the longest of them
     * @param behindShare    the share of the workers' time spent on operations issued behind schedule, 0..1
     * @param harnessShare   the share of the workers' time the harness itself spent between such operations, 0..1
     */
    public record Measured(boolean throttled, long lagP99Ns, long hiccupMaxNs, long gcPauses, long gcPauseTotalNs,
                           long gcPauseMaxNs, double behindShare, double harnessShare) {
    }

    /** The verdict's word: {@value #HEALTHY} or {@value #BEHIND}. */
    public String status() {
        return healthy ? HEALTHY : BEHIND;
    }

    /** The verdict a diagnosis implies, worded with the harness's own measurements. */
    public static HarnessVerdict of(Diagnosis diagnosis, Measured m) {
        List<Reason> reasons = new ArrayList<>();
        Cause saturated = diagnosis.get(CauseCode.HARNESS_SATURATED);
        if (saturated != null) {
            reasons.add(Reason.CAPACITY);
        }
        Cause stalled = diagnosis.get(CauseCode.HARNESS_STALLED);
        if (stalled != null) {
            reasons.add(Reason.LAG);
            if (m.gcPauses() > 0 && stalled.text().contains("its own GC")) {
                reasons.add(Reason.GC);
            }
        }
        if (reasons.isEmpty()) {
            return new HarnessVerdict(true, reasons, "harness healthy: " + figures(m));
        }
        List<String> codes = new ArrayList<>();
        if (saturated != null) {
            codes.add(CauseCode.HARNESS_SATURATED.key());
        }
        if (stalled != null) {
            codes.add(CauseCode.HARNESS_STALLED.key());
        }
        return new HarnessVerdict(false, reasons, "the load generator itself fell behind (" + String.join(", ", codes)
                + ", see the diagnosis): " + figures(m));
    }

    private static String figures(Measured m) {
        List<String> parts = new ArrayList<>();
        parts.add(m.throttled() ? "lag p99 " + duration(m.lagP99Ns()) : "no schedule, so no lag");
        parts.add(m.hiccupMaxNs() < 0 ? "hiccups not measured" : "hiccup max " + duration(m.hiccupMaxNs()));
        parts.add(gc(m));
        String text = String.join(", ", parts);
        if (m.throttled() && m.behindShare() >= 0.01) {
            text += "; the workers spent " + percent(m.behindShare()) + " of their time behind schedule (the harness's"
                    + " own share: " + percent(m.harnessShare()) + ")";
        }
        return text;
    }

    private static String gc(Measured m) {
        if (m.gcPauses() == 0) {
            return "no GC pause";
        }
        return m.gcPauses() == 1 ? "1 GC pause of " + duration(m.gcPauseMaxNs())
                : m.gcPauses() + " GC pauses, max " + duration(m.gcPauseMaxNs()) + ", total " + duration(m.gcPauseTotalNs());
    }

    /** {@link Figures#duration}. */
    public static String duration(long ns) {
        return Figures.duration(ns);
    }

    /** {@link Figures#percent}. */
    public static String percent(double share) {
        return Figures.percent(share);
    }
}
