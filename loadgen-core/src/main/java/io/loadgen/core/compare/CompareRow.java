package io.loadgen.core.compare;

import io.loadgen.core.gate.Estimate;
import io.loadgen.core.gate.Limit;
import io.loadgen.core.gate.Units;

import java.util.Locale;

/**
 * One row of a comparison: a figure of one operation in both runs, its change with a confidence interval, and the
 * verdict. Immutable.
 *
 * @param op       the operation type
 * @param view     {@code intended}, {@code service}, {@code corrected}; {@code -} for throughput and error rate
 * @param stat     {@code p50}, {@code p90}, {@code p99}, {@code p99.9}, {@code max}, {@code throughput} or
 *                 {@code error_rate}
 * @param kind     what the figures are
 * @param estimate the figures, the change and its interval
 * @param verdict  the verdict ({@link RunComparison}'s rule)
 */
public record CompareRow(String op, String view, String stat, Kind kind, Estimate estimate, Verdict verdict) {
    /** What a row's figures are, and which way is worse. */
    public enum Kind {
        /** Nanoseconds; more is slower. */
        LATENCY,
        /** Successes per second; less is slower. */
        THROUGHPUT,
        /** A share of the operations; more is worse (called slower). */
        ERROR_RATE
    }

    /** The verdicts, by their JSON names. */
    public enum Verdict {
        SAME, SLOWER, FASTER, UNKNOWN;

        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The verdict on an estimate: {@link Verdict#UNKNOWN} without an interval; {@code SLOWER} when the interval lies
     * entirely on the worse side of 0 and the change is at least {@code minChange} that way; {@code FASTER} the
     * mirror; {@code SAME} otherwise.
     */
    static Verdict judge(Kind kind, Estimate e, double minChange) {
        if (!e.hasInterval()) {
            return Verdict.UNKNOWN;
        }
        boolean up = e.ciLow() > 0 && e.change() >= minChange;
        boolean down = e.ciHigh() < 0 && e.change() <= -minChange;
        boolean higherIsWorse = kind != Kind.THROUGHPUT;
        if (up) {
            return higherIsWorse ? Verdict.SLOWER : Verdict.FASTER;
        }
        if (down) {
            return higherIsWorse ? Verdict.FASTER : Verdict.SLOWER;
        }
        return Verdict.SAME;
    }

    /** The baseline's or candidate's figure for people: {@code 4.12 ms}, {@code 9914/s}, {@code 0.02%}. */
    public String format(double value) {
        return Units.format(value, switch (kind) {
            case LATENCY -> Limit.Unit.NANOS;
            case THROUGHPUT -> Limit.Unit.OPS_PER_SEC;
            case ERROR_RATE -> Limit.Unit.FRACTION;
        });
    }

    /** The interval for people, {@code -3.1 to +2.0 %}, or {@code -} without one. */
    public String intervalText() {
        return estimate.intervalText();
    }


    /**
     * The verdict for people: {@code same}, {@code slower by 12.0 % (95 % CI 8.1-16.0 %)}, {@code faster by ...},
     * {@code too few samples to say}, or {@code unknown: REASON}.
     */
    public String verdictText(double level) {
        Estimate e = estimate;
        return switch (verdict) {
            case SAME -> "same";
            case UNKNOWN -> e.tooFew() ? "too few samples to say" : "unknown: " + e.reason();
            case SLOWER, FASTER -> {
                double sign = e.change() < 0 ? -1 : 1;
                String what = kind == Kind.ERROR_RATE ? (verdict == Verdict.SLOWER ? "more errors" : "fewer errors")
                        : verdict.key();
                double lo = sign * (sign > 0 ? e.ciLow() : e.ciHigh());
                double hi = sign * (sign > 0 ? e.ciHigh() : e.ciLow());
                yield what + " by " + percent(sign * e.change()) + " % (" + Math.round(level * 100) + " % CI "
                        + percent(lo) + "-" + percent(hi) + " %)";
            }
        };
    }


    private static String percent(double change) {
        return Double.isInfinite(change) ? "inf" : String.format(Locale.ROOT, "%.1f", change * 100);
    }
}
