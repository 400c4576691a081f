package io.loadgen.core.summary;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether the load generator itself, rather than the target, shaped a run's numbers: one word,
 * {@value #HEALTHY} or {@value #BEHIND}, the reasons, and one line for a person, e.g.
 * <pre>
 * harness healthy: lag p99 12 us, hiccup max 0.3 ms, no GC pause
 * the load generator itself fell behind (lag p99 38 ms; 3 GC pauses, max 41 ms): latencies up to about 41 ms may be the harness's, not the target's
 * </pre>
 * Judged at the end of a run from the harness's own measurements ({@link Measured}) against fixed limits
 * (the README's "Harness health" lists them); {@link #judge} is a pure function, so every branch is
 * tested with exact inputs. Immutable.
 *
 * <p>Lag alone cannot be the judge. Lag is measured from when an operation could have started: its
 * intended start, or, when the worker was behind, the moment it became free. So a harness too slow to
 * issue at the rate asked for shows a tiny lag (the few dozen ns between two operations) while the run
 * falls seconds behind. The {@link Reason#CAPACITY} test catches that: the share of the workers' time
 * the harness itself spent between operations that were already overdue. A slow target keeps the
 * workers behind too, but then the time is the target's, the harness's share stays small, and the
 * verdict stays healthy and says the target was the one behind.
 *
 * @param healthy whether no limit was crossed
 * @param reasons the limits crossed, in {@link Reason} order; empty when healthy
 * @param text    the verdict for a person, one line
 */
public record HarnessVerdict(boolean healthy, List<Reason> reasons, String text) {
    /** The verdict's word when no limit was crossed. */
    public static final String HEALTHY = "healthy";
    /** The verdict's word when the harness fell behind. */
    public static final String BEHIND = "behind";

    /** The scheduler's own delay, p99, above which the harness fell behind: 1 ms. */
    public static final long LAG_P99_LIMIT_NS = 1_000_000L;
    /** The longest hiccup (platform stall seen by the hiccup meter) above which it did: 10 ms. */
    public static final long HICCUP_MAX_LIMIT_NS = 10_000_000L;
    /** The longest GC pause of the harness's JVM above which it did: 10 ms. */
    public static final long GC_PAUSE_MAX_LIMIT_NS = 10_000_000L;
    /** The harness's own share of the workers' time, while behind schedule, above which it could not issue fast enough: 25%. */
    public static final double HARNESS_SHARE_LIMIT = 0.25;
    /** The share of the workers' time behind schedule from which a healthy verdict says who was behind: 1%. */
    public static final double BEHIND_MENTION = 0.01;

    private static final MathContext THREE = new MathContext(3);

    public HarnessVerdict {
        reasons = List.copyOf(reasons);
    }

    /** What a limit was crossed by. */
    public enum Reason {
        /** The harness's own work between overdue operations took too much of the workers' time. */
        CAPACITY,
        /** The scheduler woke workers late: lag p99 over its limit. */
        LAG,
        /** The platform stalled the harness's process: hiccup max over its limit. */
        HICCUP,
        /** The harness's JVM paused for GC longer than the limit. */
        GC;

        /** The reason's name in JSON: {@code capacity}, {@code lag}, {@code hiccup}, {@code gc}. */
        public String key() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * What the harness measured about itself over the measured time (after the warm-up).
     *
     * @param throttled      whether the run had a schedule (else there is no lag and nothing is behind)
     * @param lagP99Ns       the scheduler's lag, p99 (ignored when unthrottled)
     * @param hiccupMaxNs    the longest hiccup, or -1 when not measured
     * @param gcPauses       the harness's GC pauses
     * @param gcPauseTotalNs their total length
     * @param gcPauseMaxNs   the longest of them
     * @param behindShare    the share of the workers' time spent on operations issued behind schedule, 0..1
     * @param harnessShare   the share of the workers' time the harness itself spent between such operations
     *                       (from one's completion to the next one's start), 0..1; at most {@code behindShare}
     * @param intendedMaxNs  the worst intended latency of any operation type: how far behind the run fell
     */
    public record Measured(boolean throttled, long lagP99Ns, long hiccupMaxNs, long gcPauses, long gcPauseTotalNs,
                           long gcPauseMaxNs, double behindShare, double harnessShare, long intendedMaxNs) {
    }

    /** The verdict's word: {@value #HEALTHY} or {@value #BEHIND}. */
    public String status() {
        return healthy ? HEALTHY : BEHIND;
    }

    /** Judges the measurements against the limits. */
    public static HarnessVerdict judge(Measured m) {
        List<Reason> reasons = new ArrayList<>();
        List<String> crossed = new ArrayList<>();
        long upToNs = 0;
        if (m.throttled() && m.harnessShare() > HARNESS_SHARE_LIMIT) {
            reasons.add(Reason.CAPACITY);
            crossed.add("it cannot issue this fast: its own work between operations took " + percent(m.harnessShare())
                    + " of the workers' time, behind schedule");
            upToNs = Math.max(upToNs, m.intendedMaxNs());
        }
        if (m.throttled() && m.lagP99Ns() > LAG_P99_LIMIT_NS) {
            reasons.add(Reason.LAG);
            crossed.add(lag(m));
            upToNs = Math.max(upToNs, m.lagP99Ns());
        }
        if (m.hiccupMaxNs() > HICCUP_MAX_LIMIT_NS) {
            reasons.add(Reason.HICCUP);
            crossed.add(hiccup(m));
            upToNs = Math.max(upToNs, m.hiccupMaxNs());
        }
        if (m.gcPauseMaxNs() > GC_PAUSE_MAX_LIMIT_NS) {
            reasons.add(Reason.GC);
            crossed.add(gc(m));
            upToNs = Math.max(upToNs, m.gcPauseMaxNs());
        }
        if (reasons.isEmpty()) {
            return new HarnessVerdict(true, reasons, healthyText(m));
        }
        String text = "the load generator itself fell behind (" + String.join("; ", crossed) + ")"
                + (upToNs > 0 ? ": latencies up to about " + duration(upToNs) + " may be the harness's, not the target's"
                : ": latencies may be the harness's, not the target's");
        return new HarnessVerdict(false, reasons, text);
    }

    private static String healthyText(Measured m) {
        List<String> parts = new ArrayList<>();
        parts.add(m.throttled() ? lag(m) : "no schedule, so no lag");
        parts.add(m.hiccupMaxNs() < 0 ? "hiccups not measured" : hiccup(m));
        parts.add(gc(m));
        String text = "harness healthy: " + String.join(", ", parts);
        if (m.throttled() && m.behindShare() >= BEHIND_MENTION) {
            text += "; the workers spent " + percent(m.behindShare()) + " of their time behind schedule, waiting on the"
                    + " target (the harness's own share: " + percent(m.harnessShare()) + ")";
        }
        return text;
    }

    private static String lag(Measured m) {
        return "lag p99 " + duration(m.lagP99Ns());
    }

    private static String hiccup(Measured m) {
        return "hiccup max " + duration(m.hiccupMaxNs());
    }

    private static String gc(Measured m) {
        if (m.gcPauses() == 0) {
            return "no GC pause";
        }
        return m.gcPauses() == 1 ? "1 GC pause of " + duration(m.gcPauseMaxNs())
                : m.gcPauses() + " GC pauses, max " + duration(m.gcPauseMaxNs()) + ", total " + duration(m.gcPauseTotalNs());
    }

    /** A duration for a person, three significant digits in the largest fitting unit: {@code 120 ns}, {@code 12.3 us}, {@code 41 ms}, {@code 1.41 s}. */
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

    /** A share as a percentage to two significant digits (at least one decimal below 1%), e.g. {@code 62%}, {@code 0.03%}. */
    public static String percent(double share) {
        double p = share * 100;
        if (p == 0) {
            return "0%";
        }
        return new BigDecimal(p).round(new MathContext(2)).stripTrailingZeros().toPlainString() + "%";
    }

    private static String significant(double v) {
        return new BigDecimal(v).round(THREE).stripTrailingZeros().toPlainString();
    }
}
