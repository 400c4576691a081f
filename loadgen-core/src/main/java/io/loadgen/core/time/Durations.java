package io.loadgen.core.time;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;

/**
 * Parses and prints durations the way people type them: {@code 250us}, {@code 4ms}, {@code 1.5s},
 * {@code 2m}, {@code 1h}. Stateless; any thread.
 */
public final class Durations {
    /** Longer text is no duration anyone typed; it is refused before it is parsed or echoed whole. */
    private static final int MAX_CHARS = 64;
    private static final String FORM = "a number with a unit: ns, us, ms, s, m or h (e.g. 4ms, 1.5s, 2m)";

    private Durations() {
    }

    /**
     * Parses {@code text} into a duration.
     *
     * @param what names the value in the error message, e.g. {@code --duration}
     * @throws BadInputException naming {@code what} and the accepted form
     */
    public static Duration parse(String text, String what) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        if (t.length() > MAX_CHARS) {
            throw new BadInputException(what + ": '" + Limits.quote(text) + "' is not a duration; write " + FORM);
        }
        if (t.startsWith("-")) {
            throw new BadInputException(what + " must be positive (got " + text.trim() + ")");
        }
        int i = 0;
        while (i < t.length() && (Character.isDigit(t.charAt(i)) || t.charAt(i) == '.')) {
            i++;
        }
        String number = t.substring(0, i);
        String unit = t.substring(i).trim();
        if (number.isEmpty() || unit.isEmpty()) {
            throw new BadInputException(what + ": '" + text + "' is not a duration; write " + FORM);
        }
        long nanosPerUnit = switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m", "min" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw new BadInputException(
                    what + ": unknown unit '" + unit + "' in '" + text + "'; write " + FORM);
        };
        try {
            BigDecimal nanos = new BigDecimal(number).multiply(BigDecimal.valueOf(nanosPerUnit));
            return Duration.ofNanos(nanos.longValueExact());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new BadInputException(what + ": '" + text + "' is not a duration; write " + FORM, e);
        }
    }

    /** Prints a duration compactly in the largest unit that keeps it exact or readable, e.g. {@code 4ms}. */
    public static String format(Duration d) {
        long ns = d.toNanos();
        if (ns == 0) {
            return "0s";
        }
        if (ns % 3_600_000_000_000L == 0) {
            return ns / 3_600_000_000_000L + "h";
        }
        if (ns % 60_000_000_000L == 0) {
            return ns / 60_000_000_000L + "m";
        }
        if (ns % 1_000_000_000L == 0) {
            return ns / 1_000_000_000L + "s";
        }
        if (ns % 1_000_000L == 0) {
            return ns / 1_000_000L + "ms";
        }
        if (ns % 1_000L == 0) {
            return ns / 1_000L + "us";
        }
        return ns + "ns";
    }
}
