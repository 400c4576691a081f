package io.loadgen.core.gate;

import java.util.Locale;

/**
 * One figure of two runs and how it changed: {@code candidate / baseline - 1}, with a bootstrap confidence
 * interval of that change, or the reason there is none. Immutable.
 *
 * @param baseline  the baseline's figure (ns, ops/s or a share)
 * @param candidate the candidate's
 * @param change    {@code candidate / baseline - 1}: 0 when both are 0, infinite when only the baseline is 0, NaN
 *                  when either is unknown
 * @param ciLow     the interval's low end; NaN when {@code reason} is set
 * @param ciHigh    its high end; NaN when {@code reason} is set
 * @param reason    why there is no interval (no intervals, too few samples, the max), or null
 * @param tooFew    whether the reason is too few samples (the verdict's own wording)
 */
public record Estimate(double baseline, double candidate, double change, double ciLow, double ciHigh, String reason,
                       boolean tooFew) {
    public static Estimate of(double baseline, double candidate, double[] ci) {
        return new Estimate(baseline, candidate, change(baseline, candidate), ci[0], ci[1], null, false);
    }

    public static Estimate without(double baseline, double candidate, String reason, boolean tooFew) {
        return new Estimate(baseline, candidate, change(baseline, candidate), Double.NaN, Double.NaN, reason, tooFew);
    }

    /** Whether there is an interval. */
    public boolean hasInterval() {
        return reason == null;
    }

    /** {@code candidate / baseline - 1}; 0 when both are 0 (nothing to change), +infinity from 0 to more. */
    public static double change(double baseline, double candidate) {
        if (Double.isNaN(baseline) || Double.isNaN(candidate)) {
            return Double.NaN;
        }
        if (baseline == 0) {
            return candidate == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        return candidate / baseline - 1;
    }

    /** The interval for people, {@code -3.1 to +2.0 %}, or {@code -} without one. */
    public String intervalText() {
        return hasInterval() ? signed(ciLow) + " to " + signed(ciHigh) + " %" : "-";
    }

    /** A change as signed percent, {@code +12.0 %}; {@code +inf} from nothing; {@code -} when unknown. */
    public static String changeText(double change) {
        return Double.isNaN(change) ? "-" : signed(change) + " %";
    }

    private static String signed(double change) {
        if (Double.isInfinite(change)) {
            return change > 0 ? "+inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%+.1f", change * 100);
    }
}
