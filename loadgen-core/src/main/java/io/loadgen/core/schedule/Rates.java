package io.loadgen.core.schedule;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses a rate in operations per second the way wrk2 and k6 users type it: {@code 2500}, {@code 10k},
 * {@code 1.5k}, {@code 2M}, optionally followed by {@code /s}. {@code k} (or {@code K}) is a thousand,
 * {@code M} a million; a lower-case {@code m} is refused, since it reads as milli. Stateless; any thread.
 */
public final class Rates {
    /** The accepted form, for messages. */
    public static final String FORM = "a number of operations per second, e.g. 2500, 10k, 1.5k or 2M (a million)";
    private static final Pattern RATE = Pattern.compile(
            "([-+]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?) *([kKM]?)(?: *(?:ops)?/s)?");

    private Rates() {
    }

    /**
     * Parses {@code text}; 0 and negative numbers are returned as they are, for the caller to refuse with its
     * own message (or to read 0 as unthrottled).
     *
     * @param what names the value in the error message, e.g. {@code --target}
     * @throws BadInputException naming {@code what} and the accepted form
     */
    public static double parse(String text, String what) {
        String t = text == null ? "" : text.trim();
        Matcher m = RATE.matcher(t);
        if (t.length() > 64 || !m.matches()) {
            throw new BadInputException(what + ": '" + Limits.quote(t) + "' is not a rate; write " + FORM);
        }
        double multiplier = switch (m.group(2)) {
            case "k", "K" -> 1e3;
            case "M" -> 1e6;
            default -> 1;
        };
        return Double.parseDouble(m.group(1)) * multiplier;
    }

    /**
     * The bounds of a target rate ({@code --target}, and a change of it while the run goes on): positive, finite,
     * and at most {@link Limits#MAX_TARGET_OPS_PER_SEC} (one operation per nanosecond, the clock's resolution).
     *
     * @param what   names the value in the message, e.g. {@code --target}
     * @param orElse what else the user may do, appended to the message, e.g. "leave --target out for an
     *               unthrottled run"; null for nothing
     * @throws BadInputException one line naming the bound
     */
    public static void checkTarget(double opsPerSec, String what, String orElse) {
        if (!(opsPerSec > 0 && Double.isFinite(opsPerSec))) {
            throw new BadInputException(what + " must be a positive rate in ops/s (got " + format(opsPerSec) + ")"
                    + (orElse == null ? "" : "; " + orElse));
        }
        if (opsPerSec > Limits.MAX_TARGET_OPS_PER_SEC) {
            throw new BadInputException(what + " " + format(opsPerSec) + " is above the limit of 1e9 ops/s (one"
                    + " operation per nanosecond, the clock's resolution); give a lower rate"
                    + (orElse == null ? "" : ", or " + orElse));
        }
    }

    /** A rate for a message: whole numbers without a fraction. */
    public static String format(double opsPerSec) {
        return opsPerSec == Math.rint(opsPerSec) && Math.abs(opsPerSec) < 1e15 ? Long.toString((long) opsPerSec)
                : Double.toString(opsPerSec);
    }
}
