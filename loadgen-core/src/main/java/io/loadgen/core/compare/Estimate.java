package io.loadgen.core.compare;

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
    static Estimate of(double baseline, double candidate, double[] ci) {
        return new Estimate(baseline, candidate, change(baseline, candidate), ci[0], ci[1], null, false);
    }

    static Estimate without(double baseline, double candidate, String reason, boolean tooFew) {
        return new Estimate(baseline, candidate, change(baseline, candidate), Double.NaN, Double.NaN, reason, tooFew);
    }

    /** Whether there is an interval. */
    public boolean hasInterval() {
        return reason == null;
    }

    /** {@code candidate / baseline - 1}; 0 when both are 0 (nothing to change), +infinity from 0 to more. */
    static double change(double baseline, double candidate) {
        if (Double.isNaN(baseline) || Double.isNaN(candidate)) {
            return Double.NaN;
        }
        if (baseline == 0) {
            return candidate == 0 ? 0 : Double.POSITIVE_INFINITY;
        }
        return candidate / baseline - 1;
    }
}
