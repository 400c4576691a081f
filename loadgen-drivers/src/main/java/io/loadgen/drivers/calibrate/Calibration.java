package io.loadgen.drivers.calibrate;

import io.loadgen.core.calibrate.GroundTruth;
import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.wait.TimerFloor;
import io.loadgen.drivers.ping.PingProtocol;
import io.loadgen.drivers.ping.PingServer;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code loadgen calibrate}: runs scenarios whose answers are known analytically ({@link GroundTruth}) through
 * the real harness and drivers on this machine, and compares each measured figure with its analytic value
 * within a tolerance derived for it; also measures the machine's timer floor ({@link TimerFloor}), the hiccups
 * seen meanwhile and the highest rate one worker keeps its schedule at. Each scenario's run is also judged by
 * its diagnosis: a cause blaming the harness fails it, as does a primary cause the scenario does not produce.
 *
 * <p>Every run has a fixed length, so the whole calibration takes {@link #plannedNs} plus each run's start
 * (about 0.1 s each): about 25 s. {@link #run()} on the calling thread; {@link #stop()} from any thread (a
 * signal): the scenario under way ends without a verdict, the rest are skipped, and the report holds those done.
 *
 * <p>Tolerances add, per checked figure, the deviations its derivation admits: the wake-up budget
 * {@link TimerFloor#WAKE_BUDGET_NS} per thread wake-up the latency passes through, the spacing of the
 * schedule (one gap), HdrHistogram's precision (3 significant digits: 0.1% of the value), and what each
 * scenario adds (said at each). A machine whose wake-ups are later than the budget, or that stalls, fails.
 */
public final class Calibration {
    private static final double MS = 1e6;
    /** HdrHistogram's 3 significant digits: a recorded value lies within 0.1% of the true one. */
    static final double HISTOGRAM_PRECISION = 1e-3;
    private static final double WAKE_MS = TimerFloor.WAKE_BUDGET_NS / MS;
    /**
     * A hand-off between threads across loopback (a write, an event loop's wake-up on readable data, an unpark of
     * the issuer): 0.75 ms. It is a wake-up by another thread, not a timed park, so the timer's budget
     * ({@link #WAKE_MS}) does not bound it: a thread woken on this shared 2-core VM is scheduled late by the hiccup
     * meter's p99, 0.43-1.66 ms over 15 idle calibrations here. With 250 us a hand-off, the freeze's p99 failed
     * 1 idle calibration in 15 (+1.42 % against 0.94 %: 6.7 ms over its 3 round trips, 0.56 ms a hand-off), with no
     * stall of the machine to blame; 0.75 ms covers that. Starvation delays a hand-off by a CFS slice or more
     * (3-24 ms), so a starved freeze still fails.
     */
    private static final double HANDOFF_MS = 0.75;

    /** The scenarios, in the order they run; {@link #key()} is the name {@code --only} takes. */
    public enum Scenario {
        BACKLOG(3_000),
        PAUSE(2_500),
        MD1(10_000),
        FREEZE(2_500 + WARM_PING_MS);

        private final long plannedMs;

        Scenario(long plannedMs) {
            this.plannedMs = plannedMs;
        }

        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The scenario {@code key} names, or null. */
        public static Scenario ofKey(String key) {
            for (Scenario s : values()) {
                if (s.key().equals(key.trim().toLowerCase(java.util.Locale.ROOT))) {
                    return s;
                }
            }
            return null;
        }

        /** {@code backlog, pause, md1, freeze}. */
        public static String keys() {
            return String.join(", ", java.util.Arrays.stream(values()).map(Scenario::key).toList());
        }
    }

    /**
     * One figure of a scenario against its analytic value.
     *
     * @param tolerance the largest |error| that passes, as a share of the analytic value
     * @param diagnosis the run's causes, primary first (their keys)
     * @param verdict   why the diagnosis fails the scenario, or null when it does not
     * @param hiccupMaxMs the longest stall the hiccup meter saw during the scenario's run (an independent
     *                  witness of the machine), or -1 when it did not measure
     * @param stallShiftMs the most the machine's stalls during the run, as the hiccup meter saw them, can have
     *                  moved this figure ({@link #stallShiftMs}); 0 when none was seen
     */
    public record Check(String scenario, String quantity, double analyticMs, double measuredMs, double tolerance,
                        List<String> diagnosis, String verdict, double hiccupMaxMs, double stallShiftMs) {
        /** (measured - analytic) / analytic. */
        public double error() {
            return (measuredMs - analyticMs) / analyticMs;
        }

        public boolean pass() {
            return Math.abs(error()) <= tolerance && verdict == null;
        }

        /** Why it fails, e.g. {@code intended p99.9 412 ms, analytic 298 ms, error +38% > 10%}; null when it passes. */
        public String failure() {
            if (pass()) {
                return null;
            }
            String why = Math.abs(error()) > tolerance
                    ? quantity + " " + ms(measuredMs) + " ms, analytic " + ms(analyticMs) + " ms, error "
                    + percent(error(), true) + " > " + percent(tolerance, false) + (verdict == null ? "" : "; " + verdict)
                    : verdict;
            return why + (!machineStalled() ? "" : "; the machine itself stalled meanwhile, for up to "
                    + ms(hiccupMaxMs) + " ms at a time (hiccup meter), "
                    + (stallsExplain() ? "enough to explain it" : "and the workers were late for their starts"));
        }

        /**
         * Whether this figure failed on a machine that was not idle: the hiccup meter (a thread of its own, apart
         * from the workers) saw it stall, and either those stalls can move the figure as far as it erred beyond its
         * allowance ({@link #stallShiftMs}), or the run's workers were themselves measured late for their starts
         * (the diagnosis blames the harness: the stalls hit the workers harder than the meter's one thread, as
         * CPU starvation does). Then the machine, not the tool, is what the figure cannot be trusted on. False for
         * a figure that passed.
         */
        public boolean machineStalled() {
            return !pass() && stallShiftMs > 0 && (stallsExplain() || diagnosis.stream()
                    .map(CauseCode::ofKey).anyMatch(c -> c != null && c.blamesHarness()));
        }

        private boolean stallsExplain() {
            return stallShiftMs + tolerance * analyticMs >= Math.abs(measuredMs - analyticMs);
        }
    }

    /**
     * What a calibration found.
     *
     * @param timerFloor        park overshoots, ns
     * @param adaptiveMarginNs  the margin the adaptive waiter would learn from them
     * @param hiccups           the hiccup meter's stalls over every run, ns
     * @param maxOneWorkerOpsPerSec the highest rate tested at which one worker kept its schedule
     *                          ({@link #keptSchedule}); null when not searched, 0 when none of them
     * @param interrupted       whether {@link #stop()} cut it short
     */
    public record Report(List<Check> checks, Histogram timerFloor, long adaptiveMarginNs, Histogram hiccups,
                         Double maxOneWorkerOpsPerSec, boolean interrupted, long elapsedNs) {
        public boolean pass() {
            return !checks.isEmpty() && checks.stream().allMatch(Check::pass);
        }
    }

    /** The rates the one-worker search tries, in order, until one fails: noop, one thread, 0.3 s a try. */
    static final double[] SEARCH_RATES = {10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 2_000_000,
            5_000_000};
    static final long SEARCH_RUN_MS = 300;
    /** Tries a rate gets before the search stops at it. */
    static final int SEARCH_TRIES = 3;
    /** The search's tries in all: its length is at most this many of {@link #SEARCH_RUN_MS}. */
    static final int SEARCH_RUNS = 12;
    /** Each park of the timer floor's sample: 2,000 of 0.1 ms, about 0.3 s. */
    static final int TIMER_PARKS = 2_000;
    /** A short unmeasured run before the first scenario (and before the ping one): classes loaded, JIT warm. */
    static final long WARM_RUN_MS = 300;
    /** The ping scenario's unmeasured run: two intervals of 0.5 s, a 0.1 s freeze at the first one's end. */
    static final long WARM_PING_MS = 800;
    /** The freeze scenario's pipelining: operations one connection may have in flight. */
    static final int FREEZE_IN_FLIGHT = 16;

    private final Set<Scenario> scenarios;
    private final boolean searchRate;
    private final PrintStream progress;
    private final boolean verbose;
    private final AtomicReference<LoadRun> current = new AtomicReference<>();
    private volatile boolean stopped;
    private final Histogram hiccups = Histograms.newHistogram();

    /**
     * @param scenarios  which to run (in {@link Scenario}'s order)
     * @param searchRate whether to search the highest rate one worker keeps (3.9 s at most)
     * @param progress   where a line per scenario goes as it starts (stderr), or null
     * @param verbose    also each run's diagnosis headline
     */
    public Calibration(Set<Scenario> scenarios, boolean searchRate, PrintStream progress, boolean verbose) {
        this.scenarios = scenarios.isEmpty() ? EnumSet.noneOf(Scenario.class) : EnumSet.copyOf(scenarios);
        this.searchRate = searchRate;
        this.progress = progress;
        this.verbose = verbose;
    }

    /** The planned length of the runs, without their starts: fixed by construction. */
    public static long plannedNs(Set<Scenario> scenarios, boolean searchRate) {
        long ms = TIMER_PARKS * 15L / 100 + WARM_RUN_MS;
        for (Scenario s : scenarios) {
            ms += s.plannedMs;
        }
        if (searchRate) {
            ms += WARM_RUN_MS + SEARCH_RUNS * SEARCH_RUN_MS;
        }
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }

    /** Ends the calibration early: the run under way stops, no further one starts. Any thread. */
    public void stop() {
        stopped = true;
        LoadRun run = current.get();
        if (run != null) {
            run.stop("interrupted");
        }
    }

    /** Runs the calibration; its report, also when stopped (the scenarios done). */
    public Report run() throws Exception {
        long start = System.nanoTime();
        say("timer floor: " + TIMER_PARKS + " parks of " + TimerFloor.PARK_NS / 1000 + " us");
        TimerFloor floor = TimerFloor.measure(TIMER_PARKS);
        List<Check> checks = new ArrayList<>();
        if (!scenarios.isEmpty()) {
            // Unmeasured: the workers' code compiled before anything is judged (md1's settings: its operations
            // are the shortest, so a cold start would weigh most there).
            run(RunOptions.builder("mockdb").property("mockdb.capacity", "500").target(250.0).threads(16)
                    .arrival(Arrival.POISSON).duration(Duration.ofMillis(WARM_RUN_MS)).seed(1).build(), null);
        }
        for (Scenario s : scenarios) {
            if (stopped) {
                break;
            }
            List<Check> done = switch (s) {
                case BACKLOG -> backlog();
                case PAUSE -> pause();
                case MD1 -> md1();
                case FREEZE -> freeze();
            };
            if (!stopped) {
                checks.addAll(done);
            }
        }
        Double maxRate = searchRate && !stopped ? maxOneWorkerRate() : null;
        return new Report(checks, floor.overshoots(), floor.adaptiveMarginNs(), hiccups,
                stopped ? null : maxRate, stopped, System.nanoTime() - start);
    }

    /**
     * 1. A store that cannot keep up: mockdb serving C = 500 ops/s one at a time (2 ms a turn), asked for
     * R = 1000 ops/s by 8 blocking threads for 3 s. Eight threads keep the store busy: seven turns, 14 ms, are
     * queued ahead of each re-arriving thread, so even a stall of the whole machine up to 14 ms idles nothing
     * (the store's turns are computed, not slept; four threads left it idle, and every later operation late, on
     * the 10 ms stalls this shared VM has under load). So the k-th operation served completes at (k + 1)/C while
     * intended at about k/R: intended latency (k + 1)/C - k/R, linear in k ({@link GroundTruth#backlogPercentile}),
     * ~0.75 s at p50 and ~1.49 s at p99, n counted (~1500).
     *
     * <p>Tolerance: the threads' schedules are offset within one thread's gap (8/R) and served round-robin, so
     * each operation's intended start is within 8/R of k/R; the store may idle at the start for as long, before
     * the backlog forms: 2 x 8/R = 16 ms. Plus one turn less one gap (a percentile's rank), a wake-up budget (the
     * completion is recorded when its thread wakes) and 0.1% of the value.
     *
     * <p>Diagnosis: the store's latency grows with load (service p50 is 8 turns, its fastest one), so
     * target_slow; concurrency_limited may lead or follow (1000 ops/s x 16 ms needs 16 in flight, 8 are there),
     * as DiagnosisScenariosTest's same store finds.
     */
    private List<Check> backlog() throws Exception {
        double c = 500;
        double r = 1000;
        int threads = 8;
        say("backlog: a store serving " + (int) c + " ops/s asked for " + (int) r + " ops/s, "
                + Scenario.BACKLOG.plannedMs / 1000.0 + " s");
        RunResult result = run(RunOptions.builder("mockdb").property("mockdb.capacity", Integer.toString((int) c))
                .target(r).threads(threads).duration(Duration.ofMillis(Scenario.BACKLOG.plannedMs)).seed(31).build(),
                null);
        long n = result.operations().get(0).count();
        Histogram intended = result.operations().get(0).histogram(View.INTENDED);
        String verdict = judge(result.diagnosis(), EnumSet.of(CauseCode.TARGET_SLOW, CauseCode.CONCURRENCY_LIMITED));
        List<Check> checks = new ArrayList<>();
        for (double q : new double[]{0.50, 0.99}) {
            double analytic = GroundTruth.backlogPercentile(q, n, 1000 / c, 1000 / r);
            double allowMs = 2 * threads * 1000 / r + (1000 / c - 1000 / r) + WAKE_MS + HISTOGRAM_PRECISION * analytic;
            checks.add(check(Scenario.BACKLOG, "intended " + p(q), analytic,
                    intended.getValueAtPercentile(q * 100) / MS, allowMs, result, verdict));
        }
        return checks;
    }

    /**
     * 2. A store that pauses: mockdb answering at once (no delay) but stopping for P = 500 ms every 1.5 s from
     * when it opens, asked for R = 1000 ops/s by 4 threads for 2.5 s: one pause, ~1.45 to ~1.95 s into the
     * run. An operation intended x into the pause completes at its end, P - x: the paused share f = P / run
     * time (~0.2), and {@link GroundTruth#pausePercentile}: p99 = P (1 - 0.01/f) ~ 475 ms, p99.9 ~ 497.5 ms.
     *
     * <p>Tolerance: one gap (1/R: the intended starts are that far apart), a wake-up budget (every thread wakes
     * at the pause's end), 1 ms for the backlog of R P / 4 = 125 operations a thread drains after it (the top
     * percentiles are the first due, so first served: a few of the ~10 us each), and 0.1% of the value.
     * Diagnosis: target_stalled (the slowest answer is P, the median microseconds).
     */
    private List<Check> pause() throws Exception {
        double r = 1000;
        double pauseMs = 500;
        say("pause: a store stopping " + (int) pauseMs + " ms every 1.5 s, at " + (int) r + " ops/s, "
                + Scenario.PAUSE.plannedMs / 1000.0 + " s");
        RunResult result = run(RunOptions.builder("mockdb").property("mockdb.pause.every", "1500ms")
                .property("mockdb.pause.length", (int) pauseMs + "ms").target(r).threads(4)
                .duration(Duration.ofMillis(Scenario.PAUSE.plannedMs)).seed(32).build(), null);
        long pauses = result.driverStats().get("pauses").longValue();
        String verdict = judge(result.diagnosis(), EnumSet.of(CauseCode.TARGET_STALLED));
        if (pauses != 1) {
            verdict = (verdict == null ? "" : verdict + "; ") + pauses + " pauses began in the run, not 1 (the"
                    + " driver took more than 1 s to open and start)";
        }
        double f = pauses * pauseMs * MS / result.runTimeNs();
        return stalled(Scenario.PAUSE, result, pauseMs, f, 1000 / r + WAKE_MS + 1.0, verdict, 0.99, 0.999);
    }

    /** The p99 and p99.9 checks of a stall of {@code stallMs} covering a share {@code f} of the run. */
    private static List<Check> stalled(Scenario s, RunResult result, double stallMs, double f, double allowMs,
                                       String verdict, double... quantiles) {
        Histogram intended = result.operations().get(0).histogram(View.INTENDED);
        List<Check> checks = new ArrayList<>();
        for (double q : quantiles) {
            double analytic = GroundTruth.pausePercentile(q, stallMs, f);
            checks.add(check(s, "intended " + p(q), analytic, intended.getValueAtPercentile(q * 100) / MS,
                    allowMs + HISTOGRAM_PRECISION * analytic, result, verdict));
        }
        return checks;
    }

    /**
     * 3. An M/D/1 queue: Poisson arrivals at lambda = 250 ops/s (16 threads, each a Poisson process of a
     * sixteenth: their sum is Poisson) into mockdb of capacity mu = 500, which serves one at a time in arrival
     * order for exactly S = 1/mu = 2 ms: rho = 0.5, mean sojourn S + rho S / (2 (1 - rho)) = 3 ms
     * ({@link GroundTruth#md1MeanSojourn}), measured as the intended latency's mean over 10 s (n ~ 2500).
     *
     * <p>The store, not the client, is the queue: a thread blocks while its operation is in the store, so its
     * next one, due on average 64 ms later, finds it still busy with probability ~ lambda/16 x 3 ms = 5%; that
     * one is issued when the store hands back the previous, at a departure. The store serves every operation for
     * the same S and never idles while one waits, so the departure times, and the mean of (departure - intended
     * arrival), are those of the queue in arrival order whatever the order (up to a wake-up each).
     *
     * <p>Tolerance: three standard errors of the mean of n correlated sojourns, 3 S sqrt(4 / n) (the asymptotic
     * variance of the mean, {@link GroundTruth#MD1_MEAN_ASYMPTOTIC_VARIANCE_BOUND}: 4 S^2 / n bounds the 3.4
     * S^2 / n the simulation gives; it holds the Poisson counts' variance too), ~0.24 ms, plus a wake-up budget
     * (each completion is its thread's wake-up) and 0.1%: ~16%. Uniform arrivals instead (D/D/1, no queueing)
     * would read 2 ms, -33%. Diagnosis: ok (no queue in the client), or target_slow.
     */
    private List<Check> md1() throws Exception {
        double mu = 500;
        double lambda = 250;
        say("md1: Poisson arrivals at " + (int) lambda + " ops/s into a store serving " + (int) mu
                + " ops/s one at a time, " + Scenario.MD1.plannedMs / 1000.0 + " s");
        RunResult result = run(RunOptions.builder("mockdb").property("mockdb.capacity", Integer.toString((int) mu))
                .target(lambda).threads(16).arrival(Arrival.POISSON)
                .duration(Duration.ofMillis(Scenario.MD1.plannedMs)).seed(33).build(), null);
        Histogram intended = result.operations().get(0).histogram(View.INTENDED);
        long n = Math.max(1, intended.getTotalCount());
        double analytic = GroundTruth.md1MeanSojourn(lambda / 1000, mu / 1000); // rates per ms: a time in ms
        double sMs = 1000 / mu;
        double allowMs = 3 * sMs * Math.sqrt(GroundTruth.MD1_MEAN_ASYMPTOTIC_VARIANCE_BOUND / n) + WAKE_MS
                + HISTOGRAM_PRECISION * analytic;
        String verdict = judge(result.diagnosis(), EnumSet.of(CauseCode.OK, CauseCode.TARGET_SLOW));
        // A stall of D holds the ~lambda D operations due during it up to D each, and at rho = 0.5 the backlog it
        // leaves drains in about D more, delaying as many again: the mean moves by at most 2 lambda D^2 / n, so the
        // stalls together by at most 2 lambda D_max T / n (T their total, D_max the longest).
        Histogram hiccups = result.health().hiccups();
        double longestMs = hiccups == null ? 0 : hiccups.getMaxValue() / MS;
        double stallShiftMs = 2 * lambda / 1000 * longestMs * stalledMs(result) / n;
        return List.of(check(Scenario.MD1, "intended mean", analytic, intended.getMean() / MS, allowMs, result, verdict,
                stallShiftMs));
    }

    /**
     * 4. A frozen server over real sockets: the ping driver (one thread, one TCP connection over loopback,
     * pipelining up to 16 in flight) at R = 1000 ops/s for 2.5 s against an in-process {@link PingServer} that
     * echoes at once, frozen once, 1 s into the run (at the end of its second 0.5 s interval), for F = 500 ms ({@link PingServer#stall}: its event loop
     * reads and answers nothing; the kernel buffers what arrives). F is the span the server really stalled, by
     * its own clock. As for a pause, an operation due x into the freeze is answered at its end, F - x later:
     * {@link GroundTruth#pausePercentile} with f = F / run time. A 0.8 s unmeasured run with a 0.1 s freeze first loads both ends' code, a drain's too.
     *
     * <p>Up to {@link #FREEZE_IN_FLIGHT} (16) operations are in flight, so those due during the freeze beyond the
     * first 16 wait in the issuer and are sent as replies free slots: the q-th percentile's operation, due x =
     * (1 - q) F / f into the freeze, has R x operations ahead of it (25 at p99, 2.5 at p99.9), drained 16 a round
     * trip. It completes 1 + ceil(R x / 16) round trips after the freeze ends (the first brings the replies of
     * those in flight), each through four hand-offs between threads (the issuer's write, the server loop's
     * wake-up, its echo, the client loop's wake-up), {@link #HANDOFF_MS} each: 3 round trips, 9 ms, at p99; 2,
     * 6 ms, at p99.9. Only 16 of ~2,500 operations (0.6%) are held in the server, so service p99 stays a round trip.
     *
     * <p>Tolerance: one gap (1/R), those round trips, and 0.1%. Diagnosis: target_stalled.
     */
    private List<Check> freeze() throws Exception {
        double r = 1000;
        Duration freeze = Duration.ofMillis(500);
        say("freeze: a ping server over loopback frozen for " + freeze.toMillis() + " ms, at " + (int) r
                + " ops/s, 2.5 s");
        try (PingServer server = PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", 0),
                Duration.ZERO)) {
            RunOptions.Builder b = RunOptions.builder("ping").property("ping.port", Integer.toString(server.port()))
                    .property("ping.pipelining", "true").maxInFlight(FREEZE_IN_FLIGHT).target(r).threads(1).seed(34)
                    .interval(Duration.ofMillis(500));
            // Unmeasured, with a short freeze of its own: the code paths of a backlog (operations held back by
            // the in-flight bound, then drained) run cold only here, not in the measured drain.
            run(b.duration(Duration.ofMillis(WARM_PING_MS)).build(), s -> {
                if (s.endNs() - s.runStartNs() < WARM_PING_MS * 1_000_000L) {
                    server.stall(Duration.ofMillis(100));
                }
            });
            if (stopped) {
                return List.of();
            }
            AtomicReference<Future<Long>> stall = new AtomicReference<>();
            int[] intervals = {0};
            RunResult result = run(b.duration(Duration.ofMillis(2_500)).build(), s -> {
                if (++intervals[0] == 2) {
                    stall.set(server.stall(freeze));
                }
            });
            if (stall.get() == null) {
                return stopped ? List.of() : List.of(new Check(Scenario.FREEZE.key(), "intended p99", 1, 0, 0,
                        keys(result.diagnosis()), "the server was never frozen (the run ended first)", -1, 0));
            }
            double frozenMs = stall.get().get(10, TimeUnit.SECONDS) / MS;
            double f = frozenMs * MS / result.runTimeNs();
            String verdict = judge(result.diagnosis(), EnumSet.of(CauseCode.TARGET_STALLED));
            List<Check> checks = new ArrayList<>();
            for (double q : new double[]{0.99, 0.999}) {
                // The operations due before the q-th percentile's: R x, x = (1 - q) / f x F into the freeze.
                double ahead = r / 1000 * (1 - q) / f * frozenMs;
                double roundTrips = 1 + Math.ceil(ahead / FREEZE_IN_FLIGHT);
                checks.addAll(stalled(Scenario.FREEZE, result, frozenMs, f, 1000 / r + roundTrips * 4 * HANDOFF_MS,
                        verdict, q));
            }
            return checks;
        }
    }

    /**
     * The highest rate one worker keeps its schedule at: the noop driver (an operation takes ~100 ns) on one
     * thread at each of {@link #SEARCH_RATES} in turn for 0.3 s ({@link #keptSchedule}), until one misses three
     * tries in a row. A rate is kept when one try keeps it: a machine stall of a few ms (this shared VM has them
     * every few seconds under load) spoils one 0.3 s try, not three, while a rate beyond what the worker can
     * issue fails every try. At most {@link #SEARCH_RUNS} tries in all, so the search's length is fixed.
     */
    private double maxOneWorkerRate() throws Exception {
        say("one worker's schedule: noop at 10k to 5M ops/s, 0.3 s a try, until a rate fails three tries");
        // Unmeasured first: a cold JVM's first 0.3 s of noop is late by its compiling alone.
        run(RunOptions.builder("noop").target(SEARCH_RATES[0]).threads(1).duration(Duration.ofMillis(WARM_RUN_MS))
                .seed(35).build(), null);
        double best = 0;
        int runs = 0;
        for (double rate : SEARCH_RATES) {
            boolean kept = false;
            for (int attempt = 0; attempt < SEARCH_TRIES && !kept && runs < SEARCH_RUNS && !stopped; attempt++) {
                runs++;
                kept = keptSchedule(run(RunOptions.builder("noop").target(rate).threads(1)
                        .duration(Duration.ofMillis(SEARCH_RUN_MS)).seed(35 + attempt).build(), null));
            }
            if (!kept) {
                break;
            }
            best = rate;
        }
        return best;
    }

    /**
     * One worker kept its schedule when its operations' intended latency, for noop its start's lateness (how
     * late the harness issued it, any backlog it carried included), stays within one wake-up budget
     * ({@link TimerFloor#WAKE_BUDGET_NS}, 0.25 ms) at p99, and it left nothing unissued.
     */
    static boolean keptSchedule(RunResult result) {
        Histogram intended = result.operations().get(0).histogram(View.INTENDED);
        return intended.getTotalCount() > 0 && result.unissuedOps() == 0
                && intended.getValueAtPercentile(99) <= TimerFloor.WAKE_BUDGET_NS;
    }

    private RunResult run(RunOptions options, io.loadgen.core.run.IntervalSink sink) throws Exception {
        LoadRun run = new LoadRun(options, DriverRegistry.find(options.driver()), null);
        if (sink != null) {
            run.addSink(sink);
        }
        current.set(run);
        if (stopped) {
            run.stop("interrupted"); // a stop between two runs: this one ends at once
        }
        try {
            RunResult result = run.run();
            if (result.health().hiccups() != null) {
                hiccups.add(result.health().hiccups());
            }
            if (verbose && progress != null && result.diagnosis() != null) {
                progress.println("loadgen calibrate:   " + options.driver() + ": " + result.diagnosis().headline());
            }
            return result;
        } finally {
            current.set(null);
        }
    }

    /**
     * Why the diagnosis fails the scenario: a cause blaming the harness (the harness was not to be trusted on
     * this machine during the run), or a primary cause the scenario cannot produce; null when it passes.
     */
    static String judge(Diagnosis d, Set<CauseCode> expected) {
        for (Cause c : d.causes()) {
            if (c.code().blamesHarness()) {
                return "the diagnosis blames the harness: " + c.code().key() + " (" + c.text() + ")";
            }
        }
        if (!expected.contains(d.primary().code())) {
            return "diagnosed " + d.primary().code().key() + ", expected "
                    + String.join(" or ", expected.stream().map(CauseCode::key).toList());
        }
        return null;
    }

    /** A percentile's check: the machine's stalls can have moved it by at most their total ({@link #stalledMs}). */
    private static Check check(Scenario s, String quantity, double analyticMs, double measuredMs, double allowMs,
                               RunResult result, String verdict) {
        return check(s, quantity, analyticMs, measuredMs, allowMs, result, verdict, stalledMs(result));
    }

    private static Check check(Scenario s, String quantity, double analyticMs, double measuredMs, double allowMs,
                               RunResult result, String verdict, double stallShiftMs) {
        Histogram hiccups = result.health().hiccups();
        return new Check(s.key(), quantity, analyticMs, measuredMs, allowMs / analyticMs, keys(result.diagnosis()),
                verdict, hiccups == null ? -1 : hiccups.getMaxValue() / MS, stallShiftMs);
    }

    /** The hiccup meter's sleep: a stall of D shows as the corrected values D, D - 5 ms, D - 10 ms, ... */
    static final double HICCUP_RESOLUTION_MS = 5;

    /**
     * How long the machine stalled during the run, in all, as the hiccup meter saw it: each stall of D records
     * about D / 5 ms values of 5 ms or more (HdrHistogram's expected-interval correction), so the count of such
     * values times 5 ms is the stalls' total. No latency can have grown by more: a stall delays what is due
     * during it by at most its length, and a store it idled (all workers held) shifts what follows by as much.
     */
    static double stalledMs(RunResult result) {
        Histogram h = result.health().hiccups();
        if (h == null || h.getMaxValue() < HICCUP_RESOLUTION_MS * MS) {
            return 0;
        }
        return HICCUP_RESOLUTION_MS * h.getCountBetweenValues((long) (HICCUP_RESOLUTION_MS * MS), h.getMaxValue());
    }

    private static List<String> keys(Diagnosis d) {
        return d == null ? List.of() : d.causes().stream().map(c -> c.code().key()).toList();
    }

    private void say(String line) {
        if (progress != null) {
            progress.println("loadgen calibrate: " + line);
        }
    }

    private static String p(double q) {
        String s = new java.math.BigDecimal(q * 100).round(new java.math.MathContext(3)).stripTrailingZeros()
                .toPlainString();
        return "p" + s;
    }

    /** A latency in ms for a person: three significant digits, at least whole ms. */
    public static String ms(double ms) {
        return ms >= 100 ? Long.toString(Math.round(ms))
                : new java.math.BigDecimal(ms).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** A share as a percentage, signed when asked: two decimals below 1% ({@code 0.52%}), else two digits ({@code +38%}). */
    public static String percent(double share, boolean signed) {
        double abs = Math.abs(share);
        String s = abs < 0.01 ? String.format(java.util.Locale.ROOT, "%.2f%%", abs * 100)
                : io.loadgen.core.diagnosis.Figures.percent(abs);
        return signed ? (share < 0 ? "-" : "+") + s : s;
    }
}
