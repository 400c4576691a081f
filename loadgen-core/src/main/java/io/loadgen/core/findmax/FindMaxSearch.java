package io.loadgen.core.findmax;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Which rate findmax tries next, from the outcomes so far: pure logic, no runs. Main thread.
 *
 * <ol>
 *   <li>Up: from {@code from}, doubling while steps pass, capped at {@code to}.</li>
 *   <li>Down: if the first step fails, halving until one passes (or the rate falls below {@link #MIN_RATE}:
 *       stop reason {@code none}).</li>
 *   <li>Bisection between the highest passing rate (low) and the lowest failing one (high) at their geometric
 *       midpoint (rates are a ratio scale: halfway between 1,000 and 4,000 is 2,000), rounded to 4 significant
 *       digits, until {@code high / low − 1 ≤ resolution}.</li>
 *   <li>Confirmation: low is run again. Passing twice makes it the answer (stop reason {@code resolution}, or
 *       {@code to} when it is the cap); failing on repeat means its pass was luck: it becomes the high bound, the
 *       low bound falls back to the highest other passing rate below it, and the search goes on.</li>
 * </ol>
 * A step the harness could not drive stops the search ({@code harness}); so does {@code maxSteps}
 * ({@code max_steps}, answering with the low bound, unconfirmed).
 */
public final class FindMaxSearch {
    /** The lowest rate tried when halving down: below 1 op/s nothing is worth measuring. */
    public static final double MIN_RATE = 1.0;

    /** A step's outcome as the search sees it. */
    public enum Outcome { PASS, FAIL, HARNESS }

    /** Why the search ended. */
    public enum StopReason {
        /** The bounds met the resolution and the low one passed on repeat. */
        RESOLUTION,
        /** --to itself passed, twice: the answer is at least the cap. */
        TO,
        /** Nothing passed, down to {@link #MIN_RATE}. */
        NONE,
        /** A step the harness could not drive (its diagnosis blames the harness). */
        HARNESS,
        /** --max-steps reached: the answer is the low bound so far, unconfirmed. */
        MAX_STEPS,
        /** Stopped by a signal: the low bound so far, unconfirmed. */
        INTERRUPTED,
        /** Sharded: some shard's report of a step did not arrive in time, so the shards could no longer agree. */
        SYNC;

        /** As JSON and the answer line write it: {@code resolution}, {@code max_steps}, ... */
        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private final double from;
    private final double to;
    private final double resolution;
    private final int maxSteps;
    private final List<Double> passed = new ArrayList<>();
    private final Map<Double, Integer> passes = new HashMap<>();
    private final Set<Double> refuted = new HashSet<>();
    private double lo = Double.NaN;
    private double hi = Double.NaN;
    private int steps;
    private double retry = Double.NaN;
    private StopReason stop;

    /**
     * @param from       the first rate
     * @param to         the cap (at least {@code from}); infinity for none
     * @param resolution stop bisecting when {@code high / low − 1 ≤} it, e.g. 0.02
     * @param maxSteps   the most steps
     */
    public FindMaxSearch(double from, double to, double resolution, int maxSteps) {
        this.from = from;
        this.to = to;
        this.resolution = resolution;
        this.maxSteps = maxSteps;
    }

    /** The next rate to run, or empty when the search is over ({@link #stopReason()}). */
    public OptionalDouble next() {
        if (stop != null) {
            return OptionalDouble.empty();
        }
        if (!Double.isNaN(retry)) {
            double r = retry;
            retry = Double.NaN;
            return OptionalDouble.of(r);
        }
        OptionalDouble next = choose();
        if (next.isPresent() && steps >= maxSteps) {
            stop = StopReason.MAX_STEPS;
            return OptionalDouble.empty();
        }
        return next;
    }

    private OptionalDouble choose() {
        if (Double.isNaN(lo) && Double.isNaN(hi)) {
            return OptionalDouble.of(from);
        }
        if (Double.isNaN(lo)) {
            double down = round(hi / 2);
            if (down < MIN_RATE) {
                stop = StopReason.NONE;
                return OptionalDouble.empty();
            }
            return OptionalDouble.of(down);
        }
        if (Double.isNaN(hi)) {
            if (lo >= to) {
                return finishAt(StopReason.TO);
            }
            return OptionalDouble.of(Math.min(round(2 * lo), to));
        }
        double mid = round(Math.sqrt(lo * hi));
        if (hi / lo - 1 > resolution && mid > lo && mid < hi) {
            return OptionalDouble.of(mid);
        }
        return finishAt(StopReason.RESOLUTION);
    }

    /** Confirms the low bound (runs it again) unless it passed twice already; then the search ends with {@code why}. */
    private OptionalDouble finishAt(StopReason why) {
        if (passes.getOrDefault(lo, 0) >= 2) {
            stop = why;
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(lo);
    }

    /** Records the outcome of the step at {@code rate} (the rate {@link #next} gave). */
    public void record(double rate, Outcome outcome) {
        steps++;
        if (outcome == Outcome.HARNESS) {
            stop = StopReason.HARNESS;
            return;
        }
        if (outcome == Outcome.PASS) {
            passes.merge(rate, 1, Integer::sum);
            if (!passed.contains(rate)) {
                passed.add(rate);
            }
            if (Double.isNaN(lo) || rate > lo) {
                lo = rate;
            }
            return;
        }
        if (rate == lo) { // failed on repeat: its pass was luck
            refuted.add(rate);
            lo = Double.NaN;
            for (double p : passed) {
                if (p < rate && !refuted.contains(p) && (Double.isNaN(lo) || p > lo)) {
                    lo = p;
                }
            }
        }
        if (Double.isNaN(hi) || rate < hi) {
            hi = rate;
        }
    }

    /** The step at {@code rate} will be run again before it is recorded: {@link #next} gives {@code rate} once more. */
    public void retry(double rate) {
        retry = rate;
    }

    /** Stops the search (a signal): the answer is the low bound so far. */
    public void interrupt() {
        stop(StopReason.INTERRUPTED);
    }

    /** Stops the search for {@code why} (unless it already stopped): the answer is the low bound so far. */
    public void stop(StopReason why) {
        if (stop == null) {
            stop = why;
        }
    }

    /** Why the search ended; null while it goes on. */
    public StopReason stopReason() {
        return stop;
    }

    /** The answer: the highest rate that passed and was not refuted (confirmed unless stopped early); NaN for none. */
    public double answer() {
        return lo;
    }

    /** Whether the answer passed on repeat. */
    public boolean confirmed() {
        return !Double.isNaN(lo) && passes.getOrDefault(lo, 0) >= 2;
    }

    /** The lowest failing rate; NaN for none. */
    public double high() {
        return hi;
    }

    /** Steps recorded. */
    public int steps() {
        return steps;
    }

    /** {@code r} to 4 significant digits: tables read 2,828 rather than 2,828.427, far inside any resolution. */
    static double round(double r) {
        if (!(r > 0) || Double.isInfinite(r)) {
            return r;
        }
        return new java.math.BigDecimal(r).round(new java.math.MathContext(4)).doubleValue();
    }
}
