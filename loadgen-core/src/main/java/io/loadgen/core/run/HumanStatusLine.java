package io.loadgen.core.run;

import io.loadgen.core.driver.Status;
import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.math.MathContext;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Formats the default status line ({@link StatusFormat#HUMAN}): one line per interval that a person reads at a
 * glance, every number with its unit, e.g.
 * <pre>
 * 12s  9,987/s of 10,000/s  READ p99 intended 255 ms | service 19.9 ms  errors 0  behind 30 ms  [machine noise 12 ms]
 * </pre>
 * In order: the time since the run's start; the phase, in a phased run; the interval's rate and the rate asked for
 * ({@code of}, absent when unthrottled; a final, partial interval gives its count instead, {@code 412 ops in the
 * final 210 ms}); per operation type, worst (highest intended p99) first, the successes' p99 from the intended
 * start and from the actual start (one p99 when unthrottled, where they are the same); the failures, by status
 * when any ({@code errors 20 (TIMEOUT 18, ERROR 2)}); how far behind schedule the run is, from 1 ms; the driver's
 * counters that rose ({@code 12 timeouts}); and the harness's own note, in brackets.
 *
 * <p>The line never exceeds its width by cutting text: parts are left out whole, the least important first:
 * further operation types (then {@code +2 op types} says how many are not shown), the driver's counters, the
 * failures' breakdown by status, the phase's name, the harness note, the lateness, and that marker. The time, the
 * rate, the worst type and the error count always show, even past the width. Durations take the unit their size
 * calls for (ns, us, ms, s) at 3 significant digits; rates and counts have thousands separators. Used by the
 * interval aggregator thread only (not thread-safe).
 */
final class HumanStatusLine {
    private static final String GAP = "  ";
    private static final MathContext THREE = new MathContext(3);
    private static final long[] UNIT_NS = {1L, 1_000L, 1_000_000L, 1_000_000_000L};
    private static final String[] UNIT = {"ns", "us", "ms", "s"};

    private final int width;
    private final DecimalFormat grouped = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.US));

    /** @param width the most characters a line should take: the terminal's width */
    HumanStatusLine(int width) {
        this.width = width;
    }

    /**
     * The line of one interval.
     *
     * @param s           the interval
     * @param target      the rate asked for now, total ops/s (the phase's in a phased run), or 0 when unthrottled
     * @param counters    the driver's counters that rose, e.g. {@code 12 timeouts}, in the driver's order
     * @param harnessNote what the harness noticed about itself in the interval, or null
     */
    String line(IntervalSnapshot s, double target, List<String> counters, String harnessNote) {
        boolean throttled = target > 0;
        long intervalOps = 0;
        long[] failures = new long[Status.count()];
        List<IntervalSnapshot.Op> worstFirst = new ArrayList<>();
        for (IntervalSnapshot.Op op : s.operations()) {
            intervalOps += op.operations();
            for (int i = 0; i < failures.length; i++) {
                Status status = Status.byOrdinal(i);
                failures[i] += status.isOk() ? 0 : op.statusCount(status);
            }
            if (op.operations() > 0) {
                worstFirst.add(op);
            }
        }
        worstFirst.sort((a, b) -> Long.compare(p99(b), p99(a))); // stable: ties keep the run's order

        Parts p = new Parts();
        p.elapsed = elapsed(s.endNs() - s.runStartNs(), s.intervalNs(), s.partial());
        p.phase = s.phase() == null ? null : "phase " + s.phase().name();
        p.rate = s.partial() ? grouped.format(intervalOps) + (intervalOps == 1 ? " op" : " ops") + " in the final " + duration(s.lengthNs())
                : rate(intervalOps / (Math.max(1, s.lengthNs()) / 1e9)) + "/s"
                + (throttled ? " of " + rate(target) + "/s" : "");
        for (IntervalSnapshot.Op op : worstFirst) {
            p.ops.add(op(op, throttled));
        }
        p.errors = errors(failures);
        p.breakdown = breakdown(failures);
        p.behind = s.behindNs() >= StatusLineSink.BEHIND_REPORT_NS ? "behind " + duration(s.behindNs()) : null;
        p.counters.addAll(counters);
        p.note = harnessNote == null ? null : "[" + harnessNote + "]";
        return p.fit(width);
    }

    /** An operation type's successes' intended p99; above any latency when none succeeded (it failed throughout). */
    private static long p99(IntervalSnapshot.Op op) {
        return op.intended().getTotalCount() == 0 ? Long.MAX_VALUE : op.intended().getValueAtPercentile(99);
    }

    private static String op(IntervalSnapshot.Op op, boolean throttled) {
        Histogram intended = op.intended();
        if (intended.getTotalCount() == 0) {
            return op.name() + " all failed";
        }
        if (!throttled) {
            return op.name() + " p99 " + duration(op.service().getValueAtPercentile(99));
        }
        return op.name() + " p99 intended " + duration(intended.getValueAtPercentile(99))
                + " | service " + duration(op.service().getValueAtPercentile(99));
    }

    private String errors(long[] failures) {
        long n = 0;
        for (long f : failures) {
            n += f;
        }
        return "errors " + grouped.format(n);
    }

    /** {@code (TIMEOUT 18, ERROR 2)}: the failures by status, most first; null when none failed. */
    private String breakdown(long[] failures) {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < failures.length; i++) {
            if (failures[i] > 0) {
                order.add(i);
            }
        }
        if (order.isEmpty()) {
            return null;
        }
        order.sort((a, b) -> failures[b] != failures[a] ? Long.compare(failures[b], failures[a]) : Integer.compare(a, b));
        StringBuilder sb = new StringBuilder(" (");
        for (int i : order) {
            sb.append(sb.length() > 2 ? ", " : "").append(Status.byOrdinal(i).name()).append(' ')
                    .append(grouped.format(failures[i]));
        }
        return sb.append(')').toString();
    }

    /**
     * A duration in the unit its size calls for, at 3 significant digits without trailing zeros: {@code 850 ns},
     * {@code 19.9 us}, {@code 255 ms}, {@code 1.2 s}; whole seconds from 1000 s.
     */
    static String duration(long ns) {
        for (int u = 0; u < UNIT.length - 1; u++) {
            BigDecimal v = significant(ns / (double) UNIT_NS[u]);
            if (v.compareTo(BigDecimal.valueOf(1000)) < 0) {
                return v.toPlainString() + " " + UNIT[u];
            }
        }
        double seconds = ns / 1e9;
        return (seconds < 1000 ? significant(seconds).toPlainString() : Long.toString(Math.round(seconds))) + " s";
    }

    /** A rate in ops/s: whole and grouped from 100 ({@code 9,987}), else 3 significant digits ({@code 12.5}). */
    String rate(double opsPerSec) {
        if (opsPerSec >= 99.5) {
            return grouped.format(Math.round(opsPerSec));
        }
        return significant(opsPerSec).toPlainString();
    }

    private static BigDecimal significant(double v) {
        BigDecimal d = new BigDecimal(v).round(THREE).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0) : d;
    }

    /**
     * Time since the run's start, at the interval's resolution ({@code 12s}, {@code 12.3s} for 100 ms intervals),
     * in minutes and hours past them ({@code 2m05s}, {@code 1h02m05s}); a partial interval's to a tenth at least.
     */
    static String elapsed(long ns, long intervalNs, boolean partial) {
        int decimals = intervalNs % 1_000_000_000L == 0 ? 0 : intervalNs % 100_000_000L == 0 ? 1 : 2;
        if (partial) {
            decimals = Math.max(1, decimals);
        }
        long unitNs = decimals == 0 ? 1_000_000_000L : decimals == 1 ? 100_000_000L : 10_000_000L;
        long units = Math.max(0, ns) / unitNs; // truncated, as a clock shows it
        long perSecond = 1_000_000_000L / unitNs;
        long wholeSeconds = units / perSecond;
        String fraction = decimals == 0 ? "" : String.format(Locale.ROOT, ".%0" + decimals + "d", units % perSecond);
        long h = wholeSeconds / 3600;
        long m = wholeSeconds / 60 % 60;
        long sec = wholeSeconds % 60;
        if (h > 0) {
            return String.format(Locale.ROOT, "%dh%02dm%02d%ss", h, m, sec, fraction);
        }
        if (m > 0) {
            return String.format(Locale.ROOT, "%dm%02d%ss", m, sec, fraction);
        }
        return sec + fraction + "s";
    }

    /** The parts of one line, and which of them still show. */
    private static final class Parts {
        String elapsed;
        String phase;
        String rate;
        final List<String> ops = new ArrayList<>();
        String errors;
        String breakdown;
        String behind;
        final List<String> counters = new ArrayList<>();
        String note;
        int shownOps;
        int shownCounters;
        boolean more = true;

        /** Leaves out the least important parts until the line fits in {@code width}, or only the essentials remain. */
        String fit(int width) {
            shownOps = ops.size();
            shownCounters = counters.size();
            String line = render();
            while (line.codePointCount(0, line.length()) > width && dropOne()) {
                line = render();
            }
            return line;
        }

        private boolean dropOne() {
            if (shownOps > 1) {
                shownOps--;
            } else if (shownCounters > 0) {
                shownCounters--;
            } else if (breakdown != null) {
                breakdown = null;
            } else if (phase != null) {
                phase = null;
            } else if (note != null) {
                note = null;
            } else if (behind != null) {
                behind = null;
            } else if (more && shownOps < ops.size()) {
                more = false;
            } else {
                return false;
            }
            return true;
        }

        private String render() {
            StringBuilder sb = new StringBuilder(160).append(elapsed);
            if (phase != null) {
                sb.append(GAP).append(phase);
            }
            sb.append(GAP).append(rate);
            for (int i = 0; i < shownOps; i++) {
                sb.append(GAP).append(ops.get(i));
            }
            int hidden = ops.size() - shownOps;
            if (more && hidden > 0) {
                sb.append(GAP).append('+').append(hidden).append(hidden == 1 ? " op type" : " op types");
            }
            sb.append(GAP).append(errors);
            if (breakdown != null) {
                sb.append(breakdown);
            }
            if (behind != null) {
                sb.append(GAP).append(behind);
            }
            for (int i = 0; i < shownCounters; i++) {
                sb.append(i == 0 ? GAP : ", ").append(counters.get(i));
            }
            if (note != null) {
                sb.append(GAP).append(note);
            }
            return sb.toString();
        }
    }
}
