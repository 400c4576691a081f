package io.loadgen.core.sweep;

import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.summary.RunResult;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Whether a sweep step kept up with the rate it offered; a step that did not cannot meet an SLA,
 * whatever its percentiles. Stateless; any thread.
 *
 * <p><b>The rule.</b> A step kept up when it left at most one operation unissued per worker thread
 * and its achieved rate is at least {@code offered × (1 − tolerance)}, with
 * <pre>
 *   tolerance = 2 × threads / (offered × T)       schedule edges: one interval per worker at each end
 *             + EDGE / T                           the sampler's wake-up after the last completion
 *             + 3 / sqrt(offered × T)              Poisson arrivals only: 3 standard deviations of the count
 * </pre>
 * where {@code T} is the step's measured time ({@link RunResult#runTimeNs()}) and {@code EDGE} is
 * {@value #EDGE_MS} ms.
 *
 * <p><b>Why that tolerance.</b> The achieved rate is completions divided by the measured window,
 * which runs from the start (or the end of the warm-up) to the sample after the last completion;
 * the schedule offers {@code offered × T} operations in it. A store that keeps up loses only:
 * <ul>
 *   <li>at the start, each worker's first intended start is offset by up to one of its intervals
 *       ({@code threads / offered}), so up to one operation per worker is not in the window;</li>
 *   <li>at the end, the window outlasts the last intended start by that operation's latency, which
 *       for a worker that keeps up is below its interval (it must finish one operation before the
 *       next is due): at most one more interval per worker;</li>
 *   <li>then the sampler wakes and takes the last sample: a few ms, {@value #EDGE_MS} ms allowed
 *       for a busy machine. It also covers an async driver's last completions, whose latency is
 *       not bounded by the interval;</li>
 *   <li>with Poisson arrivals the count itself varies: its standard deviation is
 *       {@code sqrt(offered × T)}.</li>
 * </ul>
 * The one unissued operation per worker is the same end edge: an operation intended just before the
 * end, whose worker wakes for it just after, is counted unissued (a park wakes tens of µs late, more
 * on a busy machine). Nothing else makes a store that keeps up fall short. A store that falls behind
 * leaves a backlog: with a worker per operation (blocking drivers) the backlog is unissued when the
 * step ends; with an async driver it stretches the window, so the achieved rate falls short.
 *
 * <p>Worked example (the step): 1 s at 200 ops/s on one thread gives tolerance
 * 2/200 + 0.02 = 3%, so at least 194.0 ops/s; the step achieved 192.9 and left 6 unissued: it
 * fell behind on both counts. At the default 10 s the same step needs 199.4 ops/s.
 */
public final class KeepUpRule {
    /** Allowance (ms) for the sampler's wake-up after the last completion; see the class comment. */
    public static final long EDGE_MS = 20;
    private static final long EDGE_NS = TimeUnit.MILLISECONDS.toNanos(EDGE_MS);
    private static final double POISSON_SIGMAS = 3.0;

    private KeepUpRule() {
    }

    /** The fraction of the offered rate a step may fall short by and still have kept up (see the class comment). */
    public static double tolerance(double offeredOpsPerSec, RunResult result, Arrival arrival) {
        long runTimeNs = result.runTimeNs();
        if (runTimeNs <= 0 || !(offeredOpsPerSec > 0)) {
            return 0.0;
        }
        double offeredOps = offeredOpsPerSec * runTimeNs / 1e9;
        double t = 2.0 * result.threads() / offeredOps + (double) EDGE_NS / runTimeNs;
        if (arrival == Arrival.POISSON) {
            t += POISSON_SIGMAS / Math.sqrt(offeredOps);
        }
        return Math.min(1.0, t);
    }

    /** The lowest achieved rate that counts as keeping up: {@code offered × (1 − tolerance)}. */
    public static double minimumOpsPerSec(SweepStep step) {
        return step.offeredOpsPerSec() * (1.0 - tolerance(step.offeredOpsPerSec(), step.result(), step.arrival()));
    }

    /**
     * Whether {@code step} kept up: at most one operation unissued per worker, something completed, and
     * achieved at least {@link #minimumOpsPerSec}.
     */
    public static boolean keptUp(SweepStep step) {
        return step.unissued() <= step.result().threads() && step.result().totalOperations() > 0
                && step.achievedOpsPerSec() >= minimumOpsPerSec(step);
    }

    /**
     * Why a step did not keep up, e.g. {@code fell behind: achieved 192.9 of 200 ops/s (194.0 needed),
     * 6 unissued}; empty when it kept up.
     */
    public static String shortfall(SweepStep step) {
        if (keptUp(step)) {
            return "";
        }
        String s = String.format(Locale.ROOT, "fell behind: achieved %.1f of %s ops/s (%.1f needed)",
                step.achievedOpsPerSec(), RatePlan.format(step.offeredOpsPerSec()), minimumOpsPerSec(step));
        return step.unissued() > 0 ? s + ", " + step.unissued() + " unissued" : s;
    }
}
