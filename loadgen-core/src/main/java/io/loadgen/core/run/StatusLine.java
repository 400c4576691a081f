package io.loadgen.core.run;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Formats the per-interval status line in YCSB's format (values in µs), e.g.
 * <pre>
 * 2026-11-22 03:41:07:123 10 sec: 99873 operations; 9987.3 current ops/sec; est completion in 20 seconds
 *   [phase ramp: target 3000 ops/s]
 *   [READ: Count=9967, Max=187903, Min=201, Avg=1234.57, 50=612, 90=957, 99=8887, 99.9=41919, 99.99=160767]
 *   [Intended-READ: Count=9967, ...] [READ returns: 9967 OK, 20 ERROR] [redis: 20 timeouts]
 *   [behind schedule: 152.3 ms] [harness: hiccup max 12.4 ms, 1 GC pause, max 41 ms, harness share 62%]
 * </pre>
 * (one line). The histograms hold the successes only; every operation type gets a {@code [OP returns: ...]}
 * block counting each status it returned, so errors show on every line. The run's final interval, cut
 * short by its end, gets no rate: {@code 1210 operations in the final 0.2 s (partial interval);}. The harness
 * gets a {@code [harness: ...]} block only in an interval where it crossed a limit of its verdict. Used by
 * the interval aggregator thread only; the formatters it holds are not thread-safe.
 */
final class StatusLine {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss:SSS", Locale.ROOT)
            .withZone(ZoneId.systemDefault());
    private final DecimalFormat twoDecimals = new DecimalFormat("#.##", DecimalFormatSymbols.getInstance(Locale.US));
    private final StringBuilder sb = new StringBuilder(512);

    /** Starts a line: time, elapsed seconds, total operations, current rate and remaining time. */
    StatusLine begin(long nowMs, long elapsedMs, long totalOps, double currentOpsPerSec, long remainingSec) {
        sb.setLength(0);
        sb.append(TIME.format(Instant.ofEpochMilli(nowMs))).append(' ')
                .append(elapsedMs / 1000).append(" sec: ")
                .append(totalOps).append(" operations; ")
                .append(twoDecimals.format(currentOpsPerSec)).append(" current ops/sec;");
        if (remainingSec >= 0) {
            sb.append(" est completion in ").append(formatRemaining(remainingSec));
        }
        return this;
    }

    /**
     * Starts the line of a final, partial interval: no rate, since a fraction of a second while threads
     * finish is no throughput, only how many operations it held.
     */
    StatusLine beginPartial(long nowMs, long elapsedMs, long totalOps, long intervalOps, long lengthNs) {
        sb.setLength(0);
        sb.append(TIME.format(Instant.ofEpochMilli(nowMs))).append(' ')
                .append(elapsedMs / 1000).append(" sec: ")
                .append(totalOps).append(" operations; ")
                .append(intervalOps).append(" operations in the final ")
                .append(twoDecimals.format(lengthNs / 1e9)).append(" s (partial interval);");
        return this;
    }

    /** Appends {@code [phase NAME: target R ops/s]}, the phase the run is in and the rate it asks for now. */
    StatusLine phase(String name, double targetOpsPerSec) {
        sb.append(" [phase ").append(name).append(": target ").append(twoDecimals.format(targetOpsPerSec))
                .append(" ops/s]");
        return this;
    }

    /** Appends {@code [DRIVER: 12 timeouts, 1 connection_errors]}: the driver's counters that rose in the interval. */
    StatusLine counters(String driver, java.util.List<String> names, long[] increments, int n) {
        if (n == 0) {
            return this;
        }
        sb.append(" [").append(driver).append(':');
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? " " : ", ").append(increments[i]).append(' ').append(names.get(i));
        }
        sb.append(']');
        return this;
    }

    /** Appends {@code [LABEL: Count=…, Max=…, Min=…, Avg=…, 50=…, 90=…, 99=…, 99.9=…, 99.99=…]} in µs. */
    StatusLine histogram(View view, String op, Histogram h) {
        sb.append(" [").append(view.ycsbLabel(op)).append(": Count=").append(h.getTotalCount());
        if (h.getTotalCount() > 0) {
            sb.append(", Max=").append(us(h.getMaxValue()))
                    .append(", Min=").append(us(h.getMinValue()))
                    .append(", Avg=").append(twoDecimals.format(h.getMean() / 1000.0))
                    .append(", 50=").append(us(h.getValueAtPercentile(50)))
                    .append(", 90=").append(us(h.getValueAtPercentile(90)))
                    .append(", 99=").append(us(h.getValueAtPercentile(99)))
                    .append(", 99.9=").append(us(h.getValueAtPercentile(99.9)))
                    .append(", 99.99=").append(us(h.getValueAtPercentile(99.99)));
        }
        sb.append(']');
        return this;
    }

    /**
     * Appends {@code [OP returns: 4980 OK, 20 ERROR]}: every status {@code op} returned in the interval
     * (OK always, with its count, so a line without failures says so; {@code 0 OK} when none completed).
     */
    StatusLine returns(IntervalSnapshot.Op op) {
        sb.append(" [").append(op.name()).append(" returns: ").append(op.statusCount(Status.OK)).append(" OK");
        for (int s = 0; s < Status.count(); s++) {
            Status status = Status.byOrdinal(s);
            long n = op.statusCount(status);
            if (!status.isOk() && n > 0) {
                sb.append(", ").append(n).append(' ').append(status.name());
            }
        }
        sb.append(']');
        return this;
    }

    /** Appends how far behind schedule the run is: how long the most overdue operation has been due. */
    StatusLine behind(long behindNs) {
        sb.append(" [behind schedule: ").append(twoDecimals.format(behindNs / 1e6)).append(" ms]");
        return this;
    }

    /** Appends what the harness noticed about itself, e.g. {@code [harness: hiccup max 12.4 ms, harness share 62%]}. */
    StatusLine harness(String note) {
        sb.append(" [harness: ").append(note).append(']');
        return this;
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    private static long us(long ns) {
        return ns / 1000;
    }

    /** YCSB's RemainingFormatter: the two largest units, e.g. {@code 1 minute 5 seconds}. */
    static String formatRemaining(long seconds) {
        long[] sizes = {86_400, 3_600, 60, 1};
        String[] names = {"day", "hour", "minute", "second"};
        StringBuilder out = new StringBuilder();
        int shown = 0;
        for (int i = 0; i < sizes.length && shown < 2; i++) {
            long n = seconds / sizes[i];
            seconds %= sizes[i];
            if (n > 0 || (i == sizes.length - 1 && shown == 0)) {
                if (shown > 0) {
                    out.append(' ');
                }
                out.append(n).append(' ').append(names[i]).append(n == 1 ? "" : "s");
                shown++;
            }
        }
        return out.toString();
    }
}
