package io.loadgen.core.time;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints durations the way people type them: {@code 250us}, {@code 4ms}, {@code 1.5s},
 * {@code 2m}, {@code 1h}, {@code 1m30s}. Stateless; any thread.
 */
public final class Durations {
    /** Longer text is no duration anyone typed; it is refused before it is parsed or echoed whole. */
    private static final int MAX_CHARS = 64;
    private static final String FORM = "a number with a unit: ns, us, ms, s, m or h (e.g. 4ms, 1.5s, 2m, 1m30s)";
    /**
     * One part: a number, then its unit (letters, so {@code 1m30s} splits after {@code m}; the unit is checked
     * after). A space may stand between number and unit ({@code 5 ms}), none between parts.
     */
    private static final Pattern PART = Pattern.compile("([0-9]+\\.?[0-9]*|\\.[0-9]+) *([a-zµ]*)");

    private Durations() {
    }

    /**
     * Parses {@code text} into a duration: one number with its unit ({@code 4ms}, {@code 1.5s}) or several
     * added up, largest first, as Go and k6 write them ({@code 1m30s}, {@code 1h2m}, {@code 2s500ms}).
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
        Matcher part = PART.matcher(t);
        BigDecimal nanos = BigDecimal.ZERO;
        long previousUnit = Long.MAX_VALUE;
        int at = 0;
        while (at < t.length() && part.find(at) && part.start() == at) {
            if (part.group(2).isEmpty()) {
                break; // a number without its unit
            }
            long nanosPerUnit = nanosPer(part.group(2), text, what);
            if (nanosPerUnit >= previousUnit) {
                throw new BadInputException(what + ": '" + text + "' is not a duration; write the parts largest"
                        + " unit first, each unit once (e.g. 1m30s)");
            }
            previousUnit = nanosPerUnit;
            try {
                nanos = nanos.add(new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(nanosPerUnit)));
            } catch (NumberFormatException e) {
                throw new BadInputException(what + ": '" + text + "' is not a duration; write " + FORM, e);
            }
            at = part.end();
        }
        if (t.isEmpty() || at < t.length()) {
            throw new BadInputException(what + ": '" + text + "' is not a duration; write " + FORM);
        }
        try {
            return Duration.ofNanos(nanos.longValueExact());
        } catch (ArithmeticException e) {
            throw new BadInputException(what + ": '" + text + "' is not a duration; write " + FORM, e);
        }
    }

    private static long nanosPer(String unit, String text, String what) {
        return switch (unit) {
            case "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            case "m", "min" -> 60_000_000_000L;
            case "h" -> 3_600_000_000_000L;
            default -> throw new BadInputException(
                    what + ": unknown unit '" + unit + "' in '" + text + "'; write " + FORM);
        };
    }

    /** A long duration to the second in hours, minutes and seconds, for people: {@code 27h46m40s}, {@code 1m40s}, {@code 5s}. */
    public static String hms(Duration d) {
        long s = Math.round(d.toNanos() / 1e9);
        return (s >= 3600 ? s / 3600 + "h" : "") + (s >= 60 ? s % 3600 / 60 + "m" : "") + s % 60 + "s";
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
