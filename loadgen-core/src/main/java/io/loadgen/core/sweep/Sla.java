package io.loadgen.core.sweep;

import io.loadgen.core.BadInputException;
import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A latency objective such as {@code p99<10ms}: a percentile (p50, p90, p95, p99, p99.9) or max of a
 * view must stay strictly below a limit. Immutable; any thread.
 *
 * <pre><code>
 * Sla sla = Sla.parse("p99.9 &lt; 2.5ms");
 * boolean ok = sla.metBy(histogramInNanoseconds);
 * </code></pre>
 *
 * @param text       the objective as written back, e.g. {@code p99<10ms}
 * @param percentile 50, 90, 95, 99 or 99.9; 100 for max
 * @param limitNs    the limit, in nanoseconds; a value must be below it to meet the objective
 */
public record Sla(String text, double percentile, long limitNs) {
    private static final Pattern FORM = Pattern.compile("(p50|p90|p95|p99\\.9|p99|max)\\s*<\\s*([0-9]+(?:\\.[0-9]+)?)\\s*(us|µs|ms|s)");
    private static final String HOW = "write PERCENTILE<LIMIT, e.g. p99<10ms"
            + " (percentile p50, p90, p95, p99, p99.9 or max; limit in us, ms or s)";

    /**
     * Parses an objective; case and spaces around {@code <} do not matter.
     *
     * @throws BadInputException with one line naming the accepted form
     */
    public static Sla parse(String text) {
        String t = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher m = FORM.matcher(t);
        if (!m.matches()) {
            throw new BadInputException("--sla '" + text + "' is not an objective; " + HOW);
        }
        String which = m.group(1);
        double percentile = which.equals("max") ? 100.0 : Double.parseDouble(which.substring(1));
        long nsPerUnit = switch (m.group(3)) {
            case "s" -> 1_000_000_000L;
            case "ms" -> 1_000_000L;
            default -> 1_000L;
        };
        long limitNs;
        try {
            limitNs = new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(nsPerUnit)).longValueExact();
        } catch (ArithmeticException e) {
            throw new BadInputException("--sla '" + text + "': the limit must be a whole number of nanoseconds"
                    + " below an hour; " + HOW, e);
        }
        if (limitNs <= 0) {
            throw new BadInputException("--sla '" + text + "': the limit must be positive; " + HOW);
        }
        return new Sla(which + "<" + m.group(2) + m.group(3).replace("µs", "us"), percentile, limitNs);
    }

    /** The percentile's name as written, e.g. {@code p99.9} or {@code max}. */
    public String percentileName() {
        return text.substring(0, text.indexOf('<'));
    }

    /** This objective's value in {@code h} (ns): the percentile, or the max. */
    public long valueIn(Histogram h) {
        return percentile >= 100.0 ? h.getMaxValue() : h.getValueAtPercentile(percentile);
    }

    /** Whether {@code h} (ns) meets the objective; an empty histogram measured nothing and does not. */
    public boolean metBy(Histogram h) {
        return h.getTotalCount() > 0 && valueIn(h) < limitNs;
    }
}
