package io.loadgen.core.summary;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/**
 * The expected interval the {@code corrected} view is computed with, and the concurrency it came from;
 * or, when no interval is right for the run, why the view is not applicable. Immutable; built once per
 * run (or per summed interval log) on the main thread.
 *
 * <h2>The rule</h2>
 * HdrHistogram's {@code copyCorrectedForCoordinatedOmission(interval)} assumes one serial caller that
 * meant to issue a request every {@code interval}: a sample of {@code v} stands for the requests that
 * caller held back while it waited, and it adds {@code v - interval, v - 2 interval, ...} (down to
 * {@code interval}) for them. A loadgen thread is such a caller only when it has one operation in flight:
 * <ul>
 *   <li>A blocking worker (M = 1) intends an operation every {@code threads / target}. A slow call
 *   holds back everything due while it runs: the serial caller the correction assumes.</li>
 *   <li>An async issuer with M in-flight slots holds back nothing until all M are taken. In a stall it
 *   keeps issuing on schedule for M intervals, then waits. Its M stalled operations, started one
 *   interval apart, act as M serial callers, each of which meant to issue every
 *   {@code M * threads / target}. With that interval the M samples' synthetic values interleave into
 *   one per scheduled operation, the held-back ones. With {@code threads / target} each of the M
 *   samples would stand for every held-back operation, counting them M times over.</li>
 * </ul>
 * So the expected interval is {@code threads * M / target}, with M the per-thread bound the run
 * applies ({@code min(--max-in-flight, driver.maxInFlight() / threads)}; 1 for a blocking driver).
 *
 * <p>The view is not applicable, and not printed, when: the run has no {@code --target} (no schedule);
 * the rate changes over the run ({@code --phases}: no one interval); or the interval is at least the
 * measured run time, so no operation could have held the issuer back long enough to be corrected.
 *
 * <p>Two limits, whatever the interval: loadgen never drops a late operation but issues it once free,
 * so the held-back operations are in {@code service} too (with their short service times) and the
 * corrected count exceeds {@code intended}'s by about as many; and an async issuer's slow operation is
 * corrected as if every slot had been as slow, though others may have flowed past it.
 *
 * @param expectedIntervalNs the interval the correction uses, {@code threads * M / target} in ns; 0 when
 *                           the run has no single rate
 * @param threads            worker or issuer threads
 * @param inFlightPerThread  M: operations one thread may have in flight (1 for blocking drivers); 0 when
 *                           the run has no single rate
 * @param targetOpsPerSec    the run's total intended rate, or 0
 * @param notApplicable      why the view is not computed, in one line; null when it is
 */
public record CorrectedBasis(long expectedIntervalNs, int threads, int inFlightPerThread, double targetOpsPerSec,
                             String notApplicable) {

    /** Why an unthrottled run has no corrected view. */
    public static final String NO_SCHEDULE = "the run has no --target, so no schedule to correct against";
    /** Why a run whose rate was changed while it went on has no corrected view. */
    public static final String RATE_CHANGED = "the target rate was changed while the run went on, so no one"
            + " expected interval fits it";
    /** Why a phased run has no corrected view. */
    public static final String PHASED = "the rate changes over the run (--phases), so no one expected interval"
            + " fits it";

    /**
     * The basis for a run at a steady {@code targetOpsPerSec} over {@code threads}, each with at most
     * {@code inFlightPerThread} operations in flight, measured for {@code runTimeNs}.
     */
    public static CorrectedBasis of(double targetOpsPerSec, int threads, int inFlightPerThread, long runTimeNs) {
        if (!(targetOpsPerSec > 0) || threads < 1 || inFlightPerThread < 1) {
            return notApplicable(NO_SCHEDULE);
        }
        double intervalNs = (double) threads * inFlightPerThread * 1e9 / targetOpsPerSec;
        long interval = intervalNs >= Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, Math.round(intervalNs));
        CorrectedBasis basis = new CorrectedBasis(interval, threads, inFlightPerThread, targetOpsPerSec, null);
        if (interval < runTimeNs) {
            return basis;
        }
        return new CorrectedBasis(interval, threads, inFlightPerThread, targetOpsPerSec,
                "the expected interval " + basis.formula() + " is not shorter than the measured run ("
                        + millis(runTimeNs) + "): the correction could add nothing within the run");
    }

    /** The basis of a run with a known per-thread interval (e.g. summed logs), for a serial caller (M = 1). */
    public static CorrectedBasis serial(long expectedIntervalNs) {
        return expectedIntervalNs > 0 ? new CorrectedBasis(expectedIntervalNs, 0, 1, 0, null)
                : notApplicable(NO_SCHEDULE);
    }

    /** A run with no corrected view, for {@code why}. */
    public static CorrectedBasis notApplicable(String why) {
        return new CorrectedBasis(0, 0, 0, 0, why);
    }

    public boolean applicable() {
        return notApplicable == null;
    }

    /** {@code service} corrected with the expected interval; a plain copy when the view is not applicable. */
    public Histogram correct(Histogram service) {
        return applicable() ? service.copyCorrectedForCoordinatedOmission(expectedIntervalNs) : service.copy();
    }

    /**
     * One line on how the view was computed or why it was not, e.g.
     * {@code corrected: service repaired for an expected interval of 32.000 ms = 1 thread x 64 in flight
     * / 2000 ops/s} or {@code corrected: not applicable: the run has no --target, ...}.
     */
    public String describe() {
        return applicable() ? "corrected: service repaired afterwards for an expected interval of " + formula()
                : "corrected: not applicable: " + notApplicable;
    }

    /** {@code 32.000 ms = 1 thread x 64 in flight / 2000 ops/s}; just the interval when the rest is unknown. */
    private String formula() {
        String interval = millis(expectedIntervalNs);
        if (threads < 1 || !(targetOpsPerSec > 0)) {
            return interval;
        }
        return interval + " = " + threads + (threads == 1 ? " thread" : " threads") + " x " + inFlightPerThread
                + " in flight / " + rate(targetOpsPerSec) + " ops/s";
    }

    private static String millis(long ns) {
        return String.format(Locale.ROOT, "%.3f ms", ns / 1e6);
    }

    private static String rate(double opsPerSec) {
        return opsPerSec == Math.rint(opsPerSec) ? Long.toString((long) opsPerSec)
                : String.format(Locale.ROOT, "%.3f", opsPerSec);
    }
}
