package io.loadgen.core.findmax;

import io.loadgen.core.gate.Rule;
import io.loadgen.core.sweep.RatePlan;

import java.util.List;
import java.util.Locale;

/**
 * What a findmax search found: the answer (the highest rate that met every objective and kept up, passing on
 * repeat), its 95 % band, the steps and why the search ended. Immutable.
 *
 * <p><b>The band.</b> {@code band_low} is the highest rate at or below the answer whose step <em>clearly</em>
 * passed (every objective's bootstrap interval on the passing side, see {@link FindMaxStep}); {@code band_high} the
 * lowest rate above the answer whose step clearly failed, else the lowest failing rate above it. So the true
 * boundary lies between them at 95 % for each step's statistic (the steps are independent runs); the answer
 * itself only says where the search's resolution stopped. A band as wide as the search's last bracket means the
 * boundary steps were decided by noise as much as by the store: lengthen the steps (--min-step).
 *
 * @param answer     the rate, ops/s; NaN when nothing passed
 * @param confirmed  whether the answer passed twice
 * @param bandLow    see above; NaN when no step clearly passed at or below the answer
 * @param bandHigh   see above; NaN when no step failed above the answer
 * @param steps      every judged step, in the order run
 * @param stopReason why the search ended
 * @param rules      the objectives
 */
public record FindMaxResult(double answer, boolean confirmed, double bandLow, double bandHigh, List<FindMaxStep> steps,
                            FindMaxSearch.StopReason stopReason, List<Rule> rules) {

    static FindMaxResult of(List<FindMaxStep> steps, FindMaxSearch search, List<Rule> rules) {
        double answer = search.answer();
        double low = Double.NaN;
        double clearHigh = Double.NaN;
        double failHigh = Double.NaN;
        if (!Double.isNaN(answer)) {
            for (FindMaxStep s : steps) {
                if (s.harnessFault() != null) {
                    continue; // says nothing about the store
                }
                double r = s.offeredOpsPerSec();
                if (r <= answer && s.clearlyPassed() && (Double.isNaN(low) || r > low)) {
                    low = r;
                }
                if (r > answer && s.clearlyFailed() && (Double.isNaN(clearHigh) || r < clearHigh)) {
                    clearHigh = r;
                }
                if (r > answer && !s.passed() && (Double.isNaN(failHigh) || r < failHigh)) {
                    failHigh = r;
                }
            }
        }
        return new FindMaxResult(answer, search.confirmed(), low, Double.isNaN(clearHigh) ? failHigh : clearHigh,
                List.copyOf(steps), search.stopReason(), List.copyOf(rules));
    }

    /** Whether an answer was found (exit 0): a rate met every objective and the search did not stop for the harness. */
    public boolean found() {
        return !Double.isNaN(answer) && stopReason != FindMaxSearch.StopReason.HARNESS
                && stopReason != FindMaxSearch.StopReason.SYNC;
    }

    /** The step that stopped the search for the harness, or null. */
    public FindMaxStep harnessStep() {
        return stopReason == FindMaxSearch.StopReason.HARNESS && !steps.isEmpty() ? steps.get(steps.size() - 1) : null;
    }

    /**
     * The answer line, e.g. {@code findmax: 38,400 ops/s, between 37,600 and 39,200 at 95 % (stop_reason=resolution,
     * 11 steps)}.
     */
    public String answerLine() {
        String tail = " (stop_reason=" + stopReason.key() + ", " + steps.size() + " step" + (steps.size() == 1 ? "" : "s")
                + ")";
        FindMaxStep h = harnessStep();
        if (h != null) {
            return "findmax: no answer: the harness could not drive " + RatePlan.format(h.offeredOpsPerSec())
                    + " ops/s (" + h.harnessFault().code().key() + ": " + h.harnessFault().text() + ")"
                    + (Double.isNaN(answer) ? "" : "; the highest rate that passed before it was "
                    + rate(answer) + " ops/s") + tail;
        }
        if (stopReason == FindMaxSearch.StopReason.SYNC) {
            return "findmax: stopped: a shard's report of step " + (steps.size() + 1) + " did not arrive in time"
                    + (Double.isNaN(answer) ? "" : "; the highest rate that passed before was " + rate(answer)
                    + " ops/s") + tail;
        }
        if (Double.isNaN(answer)) {
            return "findmax: no rate met " + (rules.isEmpty() ? "the keep-up rule" : "every --slo")
                    + (steps.isEmpty() ? "" : ", down to " + rate(lowestTried()) + " ops/s") + tail;
        }
        String band = Double.isNaN(bandLow) && Double.isNaN(bandHigh) ? ""
                : ", between " + (Double.isNaN(bandLow) ? "?" : rate(bandLow)) + " and "
                + (Double.isNaN(bandHigh) ? "?" : rate(bandHigh)) + " at 95 %";
        String which = stopReason == FindMaxSearch.StopReason.TO ? " (at least: --to passed)"
                : confirmed ? "" : " (not confirmed)";
        return "findmax: " + rate(answer) + " ops/s" + band + which + tail;
    }

    private double lowestTried() {
        return steps.stream().mapToDouble(FindMaxStep::offeredOpsPerSec).min().orElse(Double.NaN);
    }

    /** A rate for people: 38,400 or 2,730 (whole ops/s), below 100 with its decimals. */
    static String rate(double r) {
        return r >= 100 ? String.format(Locale.ROOT, "%,d", Math.round(r)) : RatePlan.format(r);
    }
}
