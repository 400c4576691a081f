package io.loadgen.core.record;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One event of a run as an interval-log comment line, written by {@link IntervalLog} and read back by
 * {@code io.loadgen.core.log}:
 * <pre>
 * #[event: kind=stop-the-world source=stw-mockdb start=12.345 length_ms=166.600]
 * #[event: kind=gc source=harness start=20.101 length_ms=3.000]
 * #[event: kind=rate-change source=rate-file start=30.000 length_ms=0.000 rate_ops_s=5000]
 * </pre>
 * {@code start} is in seconds relative to the log's base time, exactly as the interval lines'
 * timestamps are (so merged logs place events as they place intervals); {@code length_ms} is in
 * milliseconds. Every HdrHistogram log reader skips a {@code #} line that is not
 * {@code #[StartTime: } or {@code #[BaseTime: }, so the line changes nothing for
 * {@code HistogramLogProcessor} (tested). A change of the target rate adds {@code rate_ops_s}, the rate in force
 * from {@code start} on. Immutable.
 *
 * @param kind     what happened, e.g. {@code stop-the-world}, {@code gc}
 * @param source   who saw it: a driver's name, or {@code harness}
 * @param startSec seconds after the log's base time
 * @param lengthMs how long it lasted, in milliseconds
 * @param rateOpsPerSec the target rate from then on, for a rate change; NaN for other events
 */
public record EventLine(String kind, String source, double startSec, double lengthMs, double rateOpsPerSec) {
    /** The comment's opening, after the {@code #}. */
    public static final String PREFIX = "[event: ";
    private static final Pattern FORM = Pattern.compile(
            "\\[event: kind=(\\S+) source=(\\S+) start=(-?[0-9.]+) length_ms=([0-9.]+)(?: rate_ops_s=([0-9.]+))?]\\s*");

    /** An event without a rate: a pause. */
    public EventLine(String kind, String source, double startSec, double lengthMs) {
        this(kind, source, startSec, lengthMs, Double.NaN);
    }

    /** The comment text, without the leading {@code #}, e.g. {@code [event: kind=gc source=harness start=1.000 length_ms=2.500]}. */
    public String comment() {
        String rate = Double.isNaN(rateOpsPerSec) ? ""
                : " rate_ops_s=" + (rateOpsPerSec == Math.rint(rateOpsPerSec) ? Long.toString((long) rateOpsPerSec)
                : String.format(Locale.ROOT, "%.3f", rateOpsPerSec));
        return String.format(Locale.ROOT, "[event: kind=%s source=%s start=%.3f length_ms=%.3f%s]",
                kind, source, startSec, lengthMs, rate);
    }

    /** The event in a comment (without its {@code #}), or null when the comment is not an event line. */
    public static EventLine parse(String comment) {
        if (!comment.startsWith(PREFIX)) {
            return null;
        }
        Matcher m = FORM.matcher(comment);
        if (!m.matches()) {
            return null;
        }
        try {
            return new EventLine(m.group(1), m.group(2), Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)),
                    m.group(5) == null ? Double.NaN : Double.parseDouble(m.group(5)));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
