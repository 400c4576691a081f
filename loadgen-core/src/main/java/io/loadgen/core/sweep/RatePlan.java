package io.loadgen.core.sweep;

import io.loadgen.core.BadInputException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Plans the offered rates of a sweep: a list given as is, or {@code steps} rates from {@code from} to
 * {@code to} inclusive, evenly spaced ({@link Scale#LINEAR}) or in a constant ratio ({@link Scale#LOG}).
 * Stateless; any thread.
 *
 * <pre><code>
 * RatePlan.spaced(1000, 20000, 10, Scale.LINEAR); // 1000, 3111.1, 5222.2, ... 20000
 * RatePlan.spaced(1000, 8000, 4, Scale.LOG);      // 1000, 2000, 4000, 8000
 * </code></pre>
 */
public final class RatePlan {
    /** How {@link #spaced} spaces its rates. */
    public enum Scale {
        /** Equal differences: from + i * (to - from) / (steps - 1). */
        LINEAR,
        /** Equal ratios: from * (to / from)^(i / (steps - 1)). */
        LOG
    }

    private RatePlan() {
    }

    /**
     * The rates of {@code --rates}, in the order given.
     *
     * @throws BadInputException for an empty list or a rate that is not a positive number
     */
    public static List<Double> of(List<Double> rates) {
        if (rates == null || rates.isEmpty()) {
            throw new BadInputException("--rates needs at least one rate in ops/s, e.g. --rates 1000,2000,4000");
        }
        for (Double r : rates) {
            if (r == null || !(r > 0) || !Double.isFinite(r)) {
                throw new BadInputException("--rates: every rate must be a positive number of ops/s (got " + r + ")");
            }
        }
        return List.copyOf(rates);
    }

    /**
     * {@code steps} rates from {@code from} to {@code to}, both included; the ends are exact.
     *
     * @throws BadInputException unless 0 &lt; from &lt; to and steps &ge; 2
     */
    public static List<Double> spaced(double from, double to, int steps, Scale scale) {
        if (!(from > 0) || !Double.isFinite(from) || !(to > 0) || !Double.isFinite(to)) {
            throw new BadInputException("--from and --to must be positive rates in ops/s (got --from " + format(from)
                    + " --to " + format(to) + ")");
        }
        if (from >= to) {
            throw new BadInputException("--from (" + format(from) + ") must be lower than --to (" + format(to) + ")");
        }
        if (steps > io.loadgen.core.Limits.MAX_SWEEP_STEPS) {
            throw new BadInputException("--steps " + steps + " is above the limit of " + io.loadgen.core.Limits.MAX_SWEEP_STEPS
                    + " (each step opens the driver anew; a table of more rows cannot be read); give fewer --steps");
        }
        if (steps < 2) {
            throw new BadInputException("--steps must be at least 2 (got " + steps + "); for one rate use --rates");
        }
        List<Double> rates = new ArrayList<>(steps);
        for (int i = 0; i < steps; i++) {
            double f = (double) i / (steps - 1);
            double r = scale == Scale.LOG ? from * Math.pow(to / from, f) : from + f * (to - from);
            rates.add(i == 0 ? from : i == steps - 1 ? to : r);
        }
        return List.copyOf(rates);
    }

    /** A rate for people and file names: whole numbers without decimals, others to one decimal (e.g. {@code 3111.1}). */
    public static String format(double opsPerSec) {
        if (opsPerSec == Math.rint(opsPerSec) && Math.abs(opsPerSec) < 1e15) {
            return Long.toString((long) opsPerSec);
        }
        String s = String.format(Locale.ROOT, opsPerSec >= 10 ? "%.1f" : "%.3f", opsPerSec);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
