package io.loadgen.core.diagnosis;

import io.loadgen.core.time.Durations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.loadgen.core.diagnosis.Figures.duration;
import static io.loadgen.core.diagnosis.Figures.ms;
import static io.loadgen.core.diagnosis.Figures.percent;
import static io.loadgen.core.diagnosis.Figures.rate;

/**
 * Judges a run's {@link Evidence}: which causes shaped its numbers, most important first, and the headline.
 * A pure function of the evidence, so each branch is tested with exact inputs, and the same judge serves
 * {@code run}, {@code sweep} and any search. Stateless; any thread.
 *
 * <h2>How the causes are found</h2>
 * The question is what made intended p99 (the latency users see) what it was. Each completed operation's
 * intended latency is its wait before it started plus its service time; the wait is queueing behind earlier
 * operations (the target's latency, or too few operations in flight for the rate) plus the harness's own delay
 * ({@link Evidence#harnessDelay()}: its lag, carried through a backlog). So:
 * <ol>
 * <li>{@link CauseCode#TARGET_FAILING}: the failed share is above {@link Evidence#maxErrorRate()}.</li>
 * <li>{@link CauseCode#HARNESS_SATURATED}: the workers were behind schedule at least half their time
 *     ({@link #BEHIND_MOST}) and the harness's own work between operations took at least
 *     {@link #HARNESS_SHARE_LIMIT} of it: the generator, not the target, set the pace.</li>
 * <li>{@link CauseCode#HARNESS_STALLED}: the harness's part of intended p99 or p99.9 ({@link #harnessPartNs}:
 *     intended there minus what it would read without the harness's delay of each operation) is at least
 *     {@link #MATERIAL_SHARE} of it. Blame is proportional: it comes first when it is at least {@link #MAJOR_SHARE} of
 *     one, after the target's causes otherwise. A hiccup of a sleeping thread is never this evidence: only the
 *     workers' own lateness is.</li>
 * <li>Operations queued behind the target when intended p99 less the harness's delay of each operation exceeds
 *     service p99 by at least {@link #MATERIAL_SHARE} of intended p99 (the wait the harness did not cause), or
 *     the run ended with a backlog of more than one operation per in-flight slot (a run that keeps up has at
 *     most the one each slot was about to issue). Then, by Little's law, the in-flight needed to carry the rate
 *     is rate x service mean: {@link CauseCode#CONCURRENCY_LIMITED} when that is more than threads x in-flight.
 *     {@link CauseCode#TARGET_STALLED} when the slowest service time is at least {@link #STALL_FACTOR} medians
 *     and longer than any delay of the harness's and than any stall of the machine the hiccup meter saw (a
 *     stall of the whole machine shows in service time too, and is not the target's).
 *     {@link CauseCode#TARGET_SLOW} otherwise, and also when concurrency ran short but the target's median rose
 *     above {@link #FLAT_FACTOR} times its fastest answer: its latency grew under load, so it, not the client's
 *     concurrency, is the likelier limit (both are said, that one first).</li>
 * <li>{@link CauseCode#MACHINE_NOISE}: the hiccup meter saw a stall of at least {@link #MATERIAL_SHARE} of
 *     intended p99 while no cause blames the harness: context, never blame.</li>
 * <li>{@link CauseCode#OK} when nothing above was found.</li>
 * </ol>
 */
public final class Diagnoser {
    /**
     * The share of a reported percentile at which a part of it (the harness's delay, queueing, a hiccup) is
     * named: 10%. Percentiles are printed to three significant digits; a part of a tenth or more changes the
     * leading digits, so the number is no longer the target's alone. A smaller part is within what two runs
     * of one target differ by at p99.
     */
    public static final double MATERIAL_SHARE = 0.10;
    /** The share of a percentile from which the harness's delay is the larger part of it, so the first cause: half. */
    public static final double MAJOR_SHARE = 0.5;
    /**
     * How many medians a service time must reach to be a stall of the target, not its usual latency: 10. An
     * exponential service time (M/M/1, the long tail a healthy store comes near) has its p99.9 at
     * ln(1000)/ln(2), about ten medians; a slowest operation beyond that which also made others queue is the
     * target having stopped.
     */
    public static final double STALL_FACTOR = 10;
    /**
     * How far the target's median may sit above its fastest answer for its latency to count as flat under
     * load: twice. A target whose latency doubled under the load was itself filling up (its queue, not the
     * client's concurrency, was growing); one that answered near its fastest had room for more in flight.
     */
    public static final double FLAT_FACTOR = 2;
    /** The share of the workers' time behind schedule from which the harness may be the one that set the pace: half. */
    public static final double BEHIND_MOST = 0.5;
    /**
     * The harness's own share of the workers' time, while behind, from which it could not issue this fast:
     * 25%. At a quarter of each cycle the harness's own cost (recording, choosing the next operation, the
     * clock) caps the rate at four times what the operations alone allow, and is no longer negligible beside
     * them; a slow target keeps its workers behind too, but the time is then the target's and the share small.
     */
    public static final double HARNESS_SHARE_LIMIT = 0.25;
    /** The failed share above which a run fails unless told otherwise ({@code --max-error-rate}): 10%. */
    public static final double DEFAULT_MAX_ERROR_RATE = 0.10;

    private Diagnoser() {
    }

    /** The causes, most important first, and the headline. */
    public static Diagnosis diagnose(Evidence e) {
        List<Cause> causes = new ArrayList<>();
        if (e.completed() > 0 && e.failedShare() > e.maxErrorRate()) {
            causes.add(failing(e));
        }
        boolean saturated = e.throttled() && e.behindShare() >= BEHIND_MOST && e.harnessShare() >= HARNESS_SHARE_LIMIT;
        if (saturated) {
            causes.add(saturated(e));
        }
        double harnessPart = harnessPart(e);
        Cause stalled = harnessPart >= MATERIAL_SHARE ? harnessStalled(e) : null;
        if (stalled != null && harnessPart >= MAJOR_SHARE) {
            causes.add(stalled);
        }
        if (!saturated && queued(e)) {
            targetCauses(e, causes);
        }
        if (stalled != null && harnessPart < MAJOR_SHARE) {
            causes.add(stalled);
        }
        if (causes.isEmpty()) {
            causes.add(ok(e));
        }
        if (stalled == null && !saturated && e.intended().count() > 0 && e.hiccupMaxNs() > 0
                && e.hiccupMaxNs() >= MATERIAL_SHARE * e.intended().p99Ns()) {
            causes.add(noise(e));
        }
        return new Diagnosis(causes, Headline.of(e, causes.get(0)));
    }

    /**
     * The percentiles blame is weighed at: p99 and p99.9, each only where at least {@link #ABOVE_PERCENTILE}
     * operations lie above it (p99 from 1,000 successes, p99.9 from 10,000); a shorter run blames nothing.
     * Not the max: one operation a busy machine delayed is the max of every long run, and says nothing of the
     * distribution a user reads; with fewer than ten operations above it a percentile is one of the few
     * slowest, as fickle as the max.
     */
    private static final double[] BLAMED_PERCENTILES = {99, 99.9};
    /** How many operations must lie above a percentile for blame to be weighed at it: 10. */
    static final int ABOVE_PERCENTILE = 10;

    /** The percentiles blame is weighed at for a run of {@code n} successes (see {@link #BLAMED_PERCENTILES}). */
    static double[] blamedPercentiles(long n) {
        List<Double> at = new ArrayList<>();
        for (double p : BLAMED_PERCENTILES) {
            if (n * (100 - p) / 100 >= ABOVE_PERCENTILE - 1e-9) {
                at.add(p);
            }
        }
        double[] out = new double[at.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = at.get(i);
        }
        return out;
    }

    /**
     * The larger share of the reported intended p99 or p99.9 (the successes') that is the harness's
     * ({@link #harnessPartNs}); 0 when nothing succeeded (no reported latency to distort).
     */
    static double harnessPart(Evidence e) {
        double part = 0;
        for (double p : blamedPercentiles(e.reportedIntended().count())) {
            part = Math.max(part, share(e, harnessPartNs(e, p), p));
        }
        return part;
    }

    private static double share(Evidence e, long partNs, double p) {
        long intended = e.reportedIntended().at(p);
        return intended <= 0 ? 0 : Math.min(1.0, (double) partNs / intended);
    }

    /**
     * The harness's part of the reported intended percentile {@code p}: intended at {@code p} minus the same
     * percentile of the successes' intended latency less the harness's own delay of each
     * ({@link Evidence#undelayed()}). The delay of each operation is an upper bound of what the harness caused
     * it (its lag, and no more of the backlog than it carried), so this is the most of the percentile the
     * harness can explain: what it would read had the harness been on time for every operation.
     */
    static long harnessPartNs(Evidence e, double p) {
        if (!e.throttled() || e.undelayed().count() == 0 || e.reportedIntended().count() == 0) {
            return 0;
        }
        return Math.max(0, e.reportedIntended().at(p) - e.undelayed().at(p));
    }

    /**
     * Whether operations waited behind others, materially, through no fault of the harness: the successes'
     * intended p99 less the harness's delay exceeds their service p99 by {@link #MATERIAL_SHARE} of intended p99
     * (with no success: every operation's intended less service less the harness's delay, at p99); or the run
     * ended with a backlog of more than one operation per in-flight slot.
     */
    static boolean queued(Evidence e) {
        if (!e.throttled()) {
            return false;
        }
        if (e.unissued() > e.slots()) {
            return true;
        }
        if (e.reportedIntended().count() > 0 && e.undelayed().count() > 0) {
            return e.undelayed().p99Ns() - e.reportedService().p99Ns() >= MATERIAL_SHARE * e.reportedIntended().p99Ns();
        }
        long queueingNs = e.intended().p99Ns() - e.service().p99Ns() - e.harnessDelay().p99Ns();
        return e.intended().count() > 0 && queueingNs >= MATERIAL_SHARE * e.intended().p99Ns();
    }

    /** In-flight needed by Little's law: rate x service mean, rounded up. */
    static long inFlightNeeded(Evidence e) {
        return inFlightNeeded(e.targetOpsPerSec(), e.service().meanNs());
    }

    /**
     * Little's law: how many operations must be in flight to carry {@code opsPerSec} when each takes
     * {@code serviceMeanNs} on average, rounded up.
     */
    public static long inFlightNeeded(double opsPerSec, long serviceMeanNs) {
        return (long) Math.ceil(opsPerSec * serviceMeanNs / 1e9);
    }

    /**
     * The flag that raises the in-flight to {@code needed}, with its value and the present one: an async driver's
     * {@code --max-in-flight} (per thread), a blocking driver's {@code --threads} (each of its threads has one
     * operation in flight, whatever its connections).
     */
    public static String concurrencyFlag(boolean async, int threads, int inFlightPerThread, long needed) {
        long perThread = (long) Math.ceil((double) needed / threads);
        return async ? "--max-in-flight " + perThread + " (per thread; now " + inFlightPerThread + ")"
                : "--threads " + needed + " (now " + threads + ")";
    }

    private static void targetCauses(Evidence e, List<Cause> causes) {
        long needed = inFlightNeeded(e);
        boolean shortOfConcurrency = needed > e.slots() && e.service().count() > 0;
        boolean stall = e.service().count() > 0 && e.service().maxNs() >= STALL_FACTOR * Math.max(1, e.service().p50Ns())
                && e.service().maxNs() > e.harnessDelay().maxNs() && e.service().maxNs() > e.hiccupMaxNs();
        boolean flat = e.service().p50Ns() <= FLAT_FACTOR * Math.max(1, e.service().minNs());
        if (stall) {
            causes.add(targetStalled(e));
        }
        if (shortOfConcurrency && flat) {
            causes.add(concurrency(e, needed, false));
        } else if (shortOfConcurrency) {
            causes.add(targetSlow(e, true));
            causes.add(concurrency(e, needed, true));
        } else if (!stall) {
            causes.add(targetSlow(e, false));
        }
    }

    private static Cause failing(Evidence e) {
        Map<String, Number> f = new LinkedHashMap<>();
        f.put("failed", e.failed());
        f.put("completed", e.completed());
        f.put("failed_share", e.failedShare());
        f.put("max_error_rate", e.maxErrorRate());
        String top = e.failures().isEmpty() ? "ERROR" : e.failures().get(0).status();
        StringBuilder by = new StringBuilder();
        for (Evidence.StatusCount s : e.failures()) {
            by.append(by.length() == 0 ? "" : ", ").append(Figures.count(s.count())).append(' ').append(s.status());
        }
        String text = e.target() + " failed " + Figures.count(e.failed()) + " of " + Figures.count(e.completed())
                + " " + Figures.noun(e.completed(), "operation") + " (" + percent(e.failedShare()) + ", above --max-error-rate " + percent(e.maxErrorRate())
                + "): " + by + "; most were " + top
                + (e.sampleFailure() != null ? ", e.g. \"" + e.sampleFailure() + "\"" : "");
        return new Cause(CauseCode.TARGET_FAILING, text, f);
    }

    private static Cause saturated(Evidence e) {
        double canIssue = e.behindShare() > 0 ? e.achievedOpsPerSec() / e.behindShare() : e.achievedOpsPerSec();
        Map<String, Number> f = new LinkedHashMap<>();
        f.put("harness_share", e.harnessShare());
        f.put("behind_share", e.behindShare());
        f.put("target_ops_per_sec", e.targetOpsPerSec());
        f.put("can_issue_ops_per_sec", Math.round(canIssue));
        String text = "the load generator could not issue this fast: its own work between operations took "
                + percent(e.harnessShare()) + " of the workers' time, behind schedule; here it issues about "
                + rate(canIssue) + " ops/s of the " + rate(e.targetOpsPerSec()) + " asked (more --threads, or a lower"
                + " --target)";
        return new Cause(CauseCode.HARNESS_SATURATED, text, f);
    }

    private static Cause harnessStalled(Evidence e) {
        double p = 99;
        double worst = -1;
        for (double q : blamedPercentiles(e.reportedIntended().count())) {
            double part = share(e, harnessPartNs(e, q), q);
            if (part > worst) {
                worst = part;
                p = q;
            }
        }
        long delay = harnessPartNs(e, p);
        long intended = e.reportedIntended().at(p);
        String label = p >= 99.9 ? "p99.9" : "p99";
        boolean gc = e.gcPauseMaxNs() >= MAJOR_SHARE * e.harnessDelay().maxNs();
        Map<String, Number> f = new LinkedHashMap<>();
        f.put("harness_part_" + figureLabel(p) + "_ms", ms(delay));
        f.put("intended_" + figureLabel(p) + "_ms", ms(intended));
        f.put("share", worst);
        f.put("harness_delay_max_ms", ms(e.harnessDelay().maxNs()));
        f.put("gc_pause_max_ms", ms(e.gcPauseMaxNs()));
        String why = gc ? "its own GC paused it, longest " + duration(e.gcPauseMaxNs())
                : "not its GC: its threads were not scheduled on time";
        String text = "the load generator itself stalled, up to " + duration(e.harnessDelay().maxNs()) + " (" + why
                + "); its own delay can explain at most " + duration(delay) + " of intended " + label + " = "
                + duration(intended) + " (" + percent(share(e, delay, p)) + ")" + wakeUps(e) + atStart(e);
        return new Cause(CauseCode.HARNESS_STALLED, text, f);
    }

    /**
     * When even the median operation was delayed materially (the harness's delay p50 a tenth or more of intended
     * p50): the workers' wake-up from their wait is slow on this machine, a matter of the wait strategy, not a
     * stall. Else nothing.
     */
    private static String wakeUps(Evidence e) {
        if (e.harnessDelay().p50Ns() < MATERIAL_SHARE * e.reportedIntended().p50Ns() || e.harnessDelay().p50Ns() == 0) {
            return "";
        }
        return "; even the median operation started " + duration(e.harnessDelay().p50Ns()) + " late (of intended p50 "
                + duration(e.reportedIntended().p50Ns()) + "): the workers wake slowly from their wait here; --wait spin"
                + " (a core per thread) or --wait hybrid wakes them sooner";
    }

    /**
     * When the harness's longest delay came in the measured time's first interval: that is the start, where the
     * workers' code is still being compiled and loaded and the JVM's own threads compete for the cores, and a
     * warm-up leaves it out. Else nothing.
     */
    private static String atStart(Evidence e) {
        if (e.delayMaxAtNs() < 0 || e.delayMaxAtNs() - e.warmupNs() >= e.intervalNs()) {
            return "";
        }
        long warmupNs = Math.max(2 * e.intervalNs(), 2_000_000_000L);
        return "; the longest came in the run's first " + duration(e.intervalNs()) + ", as the JVM compiled and"
                + " loaded the workers' code: --warmup " + Durations.format(Duration.ofNanos(warmupNs))
                + " leaves the start out of the summary";
    }

    private static String figureLabel(double p) {
        return p >= 99.9 ? "p99_9" : "p99";
    }

    private static Cause targetStalled(Evidence e) {
        Map<String, Number> f = new LinkedHashMap<>();
        f.put("service_max_ms", ms(e.service().maxNs()));
        f.put("service_p50_ms", ms(e.service().p50Ns()));
        f.put("intended_p99_ms", ms(e.intended().p99Ns()));
        f.put("service_p99_ms", ms(e.service().p99Ns()));
        String text = e.target() + " stalled: it stopped answering for up to " + duration(e.service().maxNs())
                + " (service max; its median is " + duration(e.service().p50Ns()) + "), and operations due meanwhile"
                + " waited: intended p99 " + duration(e.intended().p99Ns()) + " against service p99 "
                + duration(e.service().p99Ns());
        return new Cause(CauseCode.TARGET_STALLED, text, f);
    }

    /**
     * Whether the run fell short of its rate: a backlog left at the end of more than one operation per in-flight
     * slot, or fewer operations done than offered by more than that many.
     */
    static boolean fellShort(Evidence e) {
        double offered = e.targetOpsPerSec() * e.measuredNs() / 1e9;
        return e.unissued() > e.slots() || offered - e.completed() > Math.max(1, e.slots());
    }

    private static Cause targetSlow(Evidence e, boolean rose) {
        Map<String, Number> f = new LinkedHashMap<>();
        f.put("target_ops_per_sec", e.targetOpsPerSec());
        f.put("achieved_ops_per_sec", e.achievedOpsPerSec());
        f.put("intended_p99_ms", ms(e.intended().p99Ns()));
        f.put("service_p99_ms", ms(e.service().p99Ns()));
        f.put("service_p50_ms", ms(e.service().p50Ns()));
        f.put("service_min_ms", ms(e.service().minNs()));
        f.put("unissued", e.unissued());
        String text = (fellShort(e) ? e.target() + " could not keep up: " + rate(e.targetOpsPerSec()) + " ops/s offered, "
                + rate(e.achievedOpsPerSec()) + " ops/s done; operations queued behind its latency"
                : e.target() + "'s latency made operations queue behind each other at " + rate(e.targetOpsPerSec())
                + " ops/s") + ": intended p99 "
                + duration(e.intended().p99Ns()) + " against service p99 " + duration(e.service().p99Ns())
                + (rose ? "; its latency rose under load (service p50 " + duration(e.service().p50Ns())
                + ", fastest " + duration(e.service().minNs()) + ")" : "");
        return new Cause(CauseCode.TARGET_SLOW, text, f);
    }

    private static Cause concurrency(Evidence e, long needed, boolean secondary) {
        double carries = e.service().meanNs() > 0 ? e.slots() * 1e9 / e.service().meanNs() : 0;
        String flag = concurrencyFlag(e.async(), e.threads(), e.inFlightPerThread(), needed);
        Map<String, Number> f = new LinkedHashMap<>();
        f.put("in_flight", e.slots());
        f.put("in_flight_needed", needed);
        f.put("service_mean_ms", ms(e.service().meanNs()));
        f.put("carries_ops_per_sec", Math.round(carries));
        f.put("target_ops_per_sec", e.targetOpsPerSec());
        String text = (secondary ? "if " + e.target() + " has spare capacity, too little concurrency also held the rate: "
                : "too little concurrency for the rate: ") + inFlight(e.slots()) + " can carry at most " + rate(carries)
                + " ops/s at " + e.target() + "'s service mean of " + duration(e.service().meanNs()) + "; "
                + rate(e.targetOpsPerSec()) + " ops/s needs " + needed + " (Little's law): " + flag;
        return new Cause(CauseCode.CONCURRENCY_LIMITED, text, f);
    }

    /** {@code 1 operation in flight}, {@code 8 operations in flight}. */
    static String inFlight(long n) {
        return n + (n == 1 ? " operation" : " operations") + " in flight";
    }

    private static Cause noise(Evidence e) {
        Map<String, Number> f = new LinkedHashMap<>();
        f.put("hiccup_max_ms", ms(e.hiccupMaxNs()));
        f.put("harness_delay_max_ms", ms(e.harnessDelay().maxNs()));
        String text = "the platform stalled a sleeping thread of the harness for up to "
                + duration(e.hiccupMaxNs()) + ", but no worker was delayed materially by it"
                + (e.throttled() ? " (the harness's own delay of any operation: at most "
                + duration(e.harnessDelay().maxNs()) + ")" : "") + "; context, not a cause";
        return new Cause(CauseCode.MACHINE_NOISE, text, f);
    }

    private static Cause ok(Evidence e) {
        Map<String, Number> f = new LinkedHashMap<>();
        f.put("achieved_ops_per_sec", e.achievedOpsPerSec());
        f.put("intended_p99_ms", ms(e.intended().p99Ns()));
        f.put("service_p99_ms", ms(e.service().p99Ns()));
        String text = e.throttled()
                ? e.target() + " kept up and the harness was on time: the latencies are the target's"
                : e.target() + " ran unthrottled (no schedule): intended = service, so no queueing can show";
        return new Cause(CauseCode.OK, text, f);
    }
}
