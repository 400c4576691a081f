package io.loadgen.core.gate;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/**
 * Formats gate values for people: latencies in the largest unit that keeps them readable, to three
 * significant digits ({@code 41.2 ms}, {@code 712 us}), shares as percentages, rates per second.
 * ASCII only ({@code us}, not the micro sign), so tables survive any terminal and CI log. Stateless.
 */
public final class Units {
    private static final MathContext THREE = new MathContext(3);

    private Units() {
    }

    public static String format(double value, Limit.Unit unit) {
        if (Double.isNaN(value)) {
            return "no data";
        }
        return switch (unit) {
            case NANOS -> latency(value);
            case FRACTION -> percent(value);
            case COUNT -> count(value);
            case OPS_PER_SEC -> rate(value);
            case VERDICT -> value == 0 ? io.loadgen.core.summary.HarnessVerdict.HEALTHY
                    : io.loadgen.core.summary.HarnessVerdict.BEHIND;
            case CAUSE -> value < 0 ? "not a cause" : io.loadgen.core.diagnosis.CauseCode.values()[(int) value].key();
        };
    }

    /** A latency in ns, e.g. {@code 41.2 ms}. */
    static String latency(double ns) {
        double r = round3(ns);
        if (r < 1e3) {
            return plain(r) + " ns";
        }
        if (r < 1e6) {
            return plain(r / 1e3) + " us";
        }
        if (r < 1e9) {
            return plain(r / 1e6) + " ms";
        }
        return plain(r / 1e9) + " s";
    }

    /** A fraction as a percentage, e.g. {@code 0.02%}. */
    static String percent(double fraction) {
        return plain(round3(fraction * 100)) + "%";
    }

    static String count(double n) {
        return n == Math.rint(n) && Math.abs(n) < 1e15 ? Long.toString((long) n) : plain(round3(n));
    }

    /** Operations per second: whole above 1000, else three significant digits, e.g. {@code 9914/s}, {@code 48.9/s}. */
    static String rate(double opsPerSec) {
        return (opsPerSec >= 1000 ? String.format(Locale.ROOT, "%.0f", opsPerSec) : plain(round3(opsPerSec))) + "/s";
    }

    /** Seconds, as short as exact to the millisecond allows, e.g. {@code 120}, {@code 2.5}. */
    static String seconds(long ms) {
        return BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
    }

    private static double round3(double v) {
        if (v == 0 || Double.isInfinite(v)) {
            return v;
        }
        return new BigDecimal(v).round(THREE).doubleValue();
    }

    private static String plain(double v) {
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
    }
}
