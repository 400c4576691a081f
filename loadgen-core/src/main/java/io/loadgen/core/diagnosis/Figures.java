package io.loadgen.core.diagnosis;

import java.math.BigDecimal;
import java.math.MathContext;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/**
 * Numbers for a person, as every sentence of a diagnosis (and the harness's verdict) writes them: a duration
 * to three significant digits in the largest fitting unit, a share as a percentage, a rate with thousands
 * separators. Stateless; any thread.
 */
public final class Figures {
    private static final MathContext THREE = new MathContext(3);

    private Figures() {
    }

    /** {@code 120 ns}, {@code 12.3 us}, {@code 41 ms}, {@code 1.41 s}. */
    public static String duration(long ns) {
        if (ns < 1_000) {
            return ns + " ns";
        }
        if (ns < 1_000_000) {
            return significant(ns / 1e3) + " us";
        }
        if (ns < 1_000_000_000) {
            return significant(ns / 1e6) + " ms";
        }
        return significant(ns / 1e9) + " s";
    }

    /** A share to two significant digits, e.g. {@code 62%}, {@code 0.03%}; {@code 0%} for none. */
    public static String percent(double share) {
        double p = share * 100;
        if (p == 0) {
            return "0%";
        }
        return new BigDecimal(p).round(new MathContext(2)).stripTrailingZeros().toPlainString() + "%";
    }

    /** A rate in ops/s with thousands separators: {@code 9,987}, {@code 20,000,000}; three significant digits below 10 ({@code 0.001}). */
    public static String rate(double opsPerSec) {
        if (opsPerSec > 0 && opsPerSec < 10) {
            return significant(opsPerSec);
        }
        return new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.US)).format(opsPerSec);
    }

    /** A count with thousands separators. */
    public static String count(long n) {
        return new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.US)).format(n);
    }

    /** {@code n} and the noun, singular for 1: {@code 1 operation}, {@code 0 operations}, {@code 2 operations}. */
    public static String plural(long n, String singular) {
        return n + " " + noun(n, singular);
    }

    /** The noun for {@code n} of it: {@code singular} for 1, else it with an {@code s}. */
    public static String noun(long n, String singular) {
        return n == 1 ? singular : singular + "s";
    }

    /** ns as ms for a JSON figure, to the µs. */
    public static double ms(long ns) {
        return Math.round(ns / 1e3) / 1e3;
    }

    private static String significant(double v) {
        return new BigDecimal(v).round(THREE).stripTrailingZeros().toPlainString();
    }
}
