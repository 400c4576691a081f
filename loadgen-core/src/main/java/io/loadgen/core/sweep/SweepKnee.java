package io.loadgen.core.sweep;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Where a sweep's latency-versus-throughput curve bends: the highest offered rate the system carried.
 * Stateless; any thread.
 *
 * <p><b>The rule.</b> With an objective, the knee is the highest offered rate whose step kept up
 * ({@link KeepUpRule}) and met the objective from the intended start: exactly
 * {@link SlaVerdict#intendedUpTo()}, which {@code sweep --sla} prints. Without one, it is the highest
 * offered rate whose step kept up: past it, the store fell behind, the backlog grew through the step,
 * and the intended latency is the backlog's, not the store's. A lower step that missed (a cold first
 * step) does not cap the knee, as in {@link SlaVerdict}. No step qualifying means no knee.
 */
public final class SweepKnee {
    private SweepKnee() {
    }

    /** An objective on a point's intended view: {@code intended pP < limit} (or {@code <=} when inclusive). */
    public record Objective(String text, double percentile, double limitNs, boolean inclusive) {
        /** Whether the point's intended percentile meets it; a percentile the point does not hold never does. */
        public boolean metBy(SweepPoint p) {
            double v = p.intendedNs(percentile);
            return !Double.isNaN(v) && (inclusive ? v <= limitNs : v < limitNs);
        }
    }

    /** The knee's offered rate, or -1 when no step kept up (and met {@code objective}, when given). */
    public static double of(List<SweepPoint> points, Objective objective) {
        List<SweepPoint> byRate = new ArrayList<>(points);
        byRate.sort(Comparator.comparingDouble(SweepPoint::offeredOpsPerSec));
        double knee = -1;
        for (SweepPoint p : byRate) {
            if (p.keptUp() && (objective == null || objective.metBy(p))) {
                knee = p.offeredOpsPerSec();
            }
        }
        return knee;
    }

    /** One line on what the knee means, for a chart's legend or a message. */
    public static String describe(double knee, Objective objective) {
        if (knee < 0) {
            return objective == null ? "no step kept up" : "no step kept up and met " + objective.text();
        }
        return String.format(Locale.ROOT, "knee: %s ops/s, the highest offered rate that kept up%s",
                RatePlan.format(knee), objective == null ? "" : " and met " + objective.text());
    }
}
