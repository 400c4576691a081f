package io.loadgen.core.run;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.Secrets;
import io.loadgen.core.StopSignal;
import io.loadgen.core.diagnosis.Diagnoser;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.diagnosis.Evidence;
import io.loadgen.core.diagnosis.Figures;
import io.loadgen.core.diagnosis.Latencies;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.RunEvents;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.IntervalLog;
import io.loadgen.core.record.RunId;
import io.loadgen.core.record.View;
import io.loadgen.core.record.WorkerRecorders;
import io.loadgen.core.schedule.ChangeableSchedule;
import io.loadgen.core.schedule.PhasedSchedule;
import io.loadgen.core.schedule.RateControl;
import io.loadgen.core.schedule.Schedule;
import io.loadgen.core.summary.CorrectedBasis;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunInfo;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.summary.YcsbClientStats;
import io.loadgen.core.time.Durations;
import io.loadgen.core.trace.TraceSummary;
import io.loadgen.core.trace.TraceWriter;
import io.loadgen.core.time.NanoClock;
import io.loadgen.core.workload.OperationPlan;
import io.loadgen.core.workload.WorkloadOptions;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Runs one load: opens the driver, starts the workers on their schedules and the interval aggregator,
 * waits for the end (duration, operation count or {@link #stop}), and returns what was measured.
 *
 * <p>{@link #run()} is called once, on the thread that owns the run (it blocks); {@link #stop(String)}
 * may be called from any thread, e.g. a signal handler, and the run still returns its full result.
 * <pre><code>
 * RunOptions options = RunOptions.builder("mockdb").property("mockdb.delay", "4ms")
 *         .target(1000.0).duration(Duration.ofSeconds(10)).build();
 * RunResult result = new LoadRun(options, provider, System.err).run();
 * </code></pre>
 */
public final class LoadRun {
    /** Workers start this long after they are created, so all are ready at the run's t0. */
    static final long START_LEAD_NS = TimeUnit.MILLISECONDS.toNanos(20);

    /** The most a driver's {@link Driver#warmUp} may take before the run's clock starts. */
    static final long WARM_UP_BUDGET_NS = TimeUnit.SECONDS.toNanos(1);

    /** How long one sleep waiting for {@code --start-at} lasts at most, so a stop is seen soon. */
    private static final long START_WAIT_SLICE_MS = 100;

    /** How far away a run without a duration puts its end: far, yet wrap-safe against any nanoTime of the run. */
    static final long NO_END_NS = 1L << 62;

    private final RunOptions options;
    /** This run's identity, in its log's header and its JSON ({@link RunId}); drawn once the driver is open. */
    private String runId;
    private final DriverProvider provider;
    private final PrintStream status;
    private PrintStream warnings;
    private final NanoClock clock;
    private final OperationPlan plan;
    private final StopSignal stop = new StopSignal();
    private IntervalListener intervalListener;
    private final List<IntervalSink> sinks = new ArrayList<>();
    private LiveMetrics live;
    private IOException intervalLogFailure;
    private IOException traceFailure;
    private TraceSummary traceSummary;
    private DriverProperties properties;
    private long driverCloseNs = -1;
    private volatile List<YcsbClientStats.Collector> gcAtStart = List.of();
    /** Set when the schedule starts (the driver open and warm): from then on a stop ends with a report. */
    private volatile boolean started;
    private volatile boolean waitingForStart;
    private RateControl rateControl;
    /** Where the measured window starts, on the run's clock (t0 + warm-up); set when the schedule starts. */
    private long measureStartNs;

    /**
     * @param status where the status line goes every interval (stderr), or null for none
     */
    public LoadRun(RunOptions options, DriverProvider provider, PrintStream status) {
        this(options, provider, status, NanoClock.SYSTEM);
    }

    /**
     * A run whose operations come from {@code plan} (e.g. a YCSB workload's mix) rather than the single
     * {@code --operation}.
     */
    public LoadRun(RunOptions options, DriverProvider provider, OperationPlan plan, PrintStream status) {
        this(options, provider, plan, status, NanoClock.SYSTEM);
    }

    LoadRun(RunOptions options, DriverProvider provider, PrintStream status, NanoClock clock) {
        this(options, provider, null, status, clock);
    }

    LoadRun(RunOptions options, DriverProvider provider, OperationPlan plan, PrintStream status, NanoClock clock) {
        this.options = options;
        this.provider = provider;
        this.plan = plan;
        this.status = status;
        this.warnings = status;
        this.clock = clock;
        this.rateControl = rateControl(options, clock);
    }

    /** What may change this run's rate while it goes on: a schedule to change, or the reason there is none. */
    private static RateControl rateControl(RunOptions options, NanoClock clock) {
        if (!options.throttled()) {
            return RateControl.refusing("the run is unthrottled (no --target): it has no schedule whose rate could"
                    + " change; start it with --target OPS");
        }
        if (options.rateProfile() != null) {
            return RateControl.refusing("the rate follows --phases; a phased run's rate cannot be changed while it"
                    + " runs");
        }
        return new RateControl(options.targetOpsPerSec(), options.threads(),
                options.shard() == null ? 1 : options.shard().count(), options.interval().toNanos(), clock);
    }

    /**
     * Changes this run's target rate while it goes on ({@code PUT /rate}, {@code --rate-file}): see
     * {@link RateControl#requestRate(String)}. Available from construction; requests are taken once the schedule
     * starts and refused after the end. Any thread.
     */
    public RateControl rateControl() {
        return rateControl;
    }

    /**
     * This run's rate is set by {@code owner} (findmax, sweep: a step of theirs), so nothing may change it while it
     * goes on: its {@link #rateControl()} refuses every request, saying so, and its schedules skip the check. Call
     * before {@link #run()}. Returns this run.
     */
    public LoadRun rateOwnedBy(String owner) {
        this.rateControl = RateControl.refusing(owner + " sets the rate of each of its steps itself, so it cannot be"
                + " changed while a step runs");
        return this;
    }

    /**
     * Where the run's warnings go that must show even without a status line (a late {@code --start-at}), e.g.
     * stderr under {@code -q}; default: the status stream, or nowhere without one. Call before {@link #run()}.
     * Returns this run.
     */
    public LoadRun warnTo(PrintStream stream) {
        this.warnings = stream;
        return this;
    }

    /**
     * Hands every closed interval's histograms to {@code listener} on the aggregator thread (e.g. live
     * gates); call before {@link #run()}. Returns this run.
     */
    public LoadRun onInterval(IntervalListener listener) {
        this.intervalListener = listener;
        return this;
    }

    /**
     * Adds one more output of the run's intervals (a chart feed, a metrics exporter): {@code sink} gets every
     * interval's read-only {@link IntervalSnapshot} on the aggregator thread, after the interval log, the
     * totals and the interval listener, before the status line. One that throws is logged and dropped. Call
     * before {@link #run()}. Returns this run.
     */
    public LoadRun addSink(IntervalSink sink) {
        sinks.add(sink);
        return this;
    }

    /**
     * Publishes every closed interval to {@code live} for a live monitor (the {@code --metrics} endpoint): its
     * percentiles, counts, rates, the harness's health and the interval's diagnosis, with the run's driver, shard and
     * id ({@link LiveMetrics}). Computed on the aggregator thread, after the harness's health; the run's counts in
     * {@code live} start at zero. Call before {@link #run()}. Returns this run.
     */
    public LoadRun publishTo(LiveMetrics live) {
        this.live = live;
        return this;
    }

    /**
     * Whether the schedule has started: the driver is open and warm, and a stop now ends the run with its report.
     * Before it (the driver still connecting, say) a stop has nothing measured to report. Any thread.
     */
    public boolean started() {
        return started;
    }

    /**
     * Whether the driver is open and warm and the run waits for {@code --start-at}: a stop now ends the run at once
     * with an empty report (nothing was issued), the interval log its header only. Any thread.
     */
    public boolean waitingForStart() {
        return waitingForStart;
    }

    /** Ends the run early: workers stop issuing, the last interval is sampled and logged. Any thread. */
    public void stop(String reason) {
        stop.stop(reason);
    }

    /**
     * Runs to the end and returns the result (also after {@link #stop}).
     *
     * @throws BadInputException for a property the driver rejects or an unwritable interval log
     */
    public RunResult run() throws Exception {
        DriverProperties properties = properties();
        OperationPlan plan = this.plan != null ? this.plan : driverPlan();
        checkMemory(plan.operations().size(), 0);
        if (options.startAtMs() != 0) {
            lateNs(); // a run that may not start late is refused before it opens anything
        }
        RunEvents events = new RunEvents();
        // The driver opens first: a property it rejects (or a server it cannot reach) leaves no empty log behind.
        Driver driver = provider.open(properties,
                new DriverContext(options.threads(), options.seed(), plan.recordShape(), events,
                        options.effectiveProperties()));
        IntervalLog log = null;
        TraceWriter trace = null;
        try (GcPauseEvents gc = GcPauseEvents.listen(events)) {
            log = openLog();
            trace = openTrace();
            if (!options.coldStart()) {
                driver.warmUp(WARM_UP_BUDGET_NS); // before t0: a cold start is not the target's latency
            }
            return runWith(driver, plan, log, trace, properties, events);
        } finally {
            try {
                if (trace != null) {
                    finishTrace(trace); // done already unless the run failed: then what it traced is still flushed
                }
                if (log != null) {
                    log.close();
                    intervalLogFailure = log.failure();
                }
            } finally {
                long closing = clock.nanoTime();
                driver.close();
                driverCloseNs = clock.nanoTime() - closing;
            }
        }
    }

    /**
     * How long the driver took to close (connections, event loops) after the run: YCSB's {@code [CLEANUP]}.
     * -1 before {@link #run()} has closed it. Main thread, after {@link #run()}.
     */
    public long driverCloseNs() {
        return driverCloseNs;
    }

    /**
     * Why the interval log is incomplete: the first write that failed (a full disk), or null when every
     * interval was written. The run itself goes on after such a failure, so its summary is still right.
     * Main thread, after {@link #run()}.
     */
    public IOException intervalLogFailure() {
        return intervalLogFailure;
    }

    /**
     * Why the trace is incomplete: the first write that failed (a full disk), or null when every row was written.
     * Main thread, after {@link #run()}.
     */
    public IOException traceFailure() {
        return traceFailure;
    }

    /** What {@code --trace} wrote (rows, dropped rows, bytes), or null without one. Main thread, after {@link #run()}. */
    public TraceSummary traceSummary() {
        return traceSummary;
    }

    private TraceWriter openTrace() {
        return openOutput(options.trace(), "the trace", "--trace", TraceWriter::open);
    }

    /** Stops the trace's writer once it has written every row, and keeps what it wrote for the result. Once. */
    private void finishTrace(TraceWriter trace) {
        if (traceSummary == null) {
            traceSummary = trace.finish();
            traceFailure = trace.failure();
        }
    }

    private IntervalLog openLog() {
        return openOutput(options.hlog(), "the interval log", "--hlog", IntervalLog::open);
    }

    /** Opens a file {@code path} for writing. */
    @FunctionalInterface
    private interface Opener<T> {
        T open(Path path) throws IOException;
    }

    /** An output of the run opened, or null without one; one that cannot be created is bad input naming its option. */
    private static <T> T openOutput(Path path, String what, String option, Opener<T> opener) {
        if (path == null) {
            return null;
        }
        try {
            return opener.open(path);
        } catch (IOException e) {
            throw new BadInputException("cannot write " + what + " " + path + " (" + e.getMessage()
                    + "); choose a writable path for " + option, e);
        }
    }

    private RunResult runWith(Driver driver, OperationPlan plan, IntervalLog log, TraceWriter trace,
                              DriverProperties properties, RunEvents events) throws InterruptedException {
        String[] ops = plan.operations().toArray(new String[0]);
        int[] driverIndex = driverIndexes(ops);
        int threads = options.threads();
        boolean async = driver instanceof AsyncDriver;
        int maxInFlight = async ? maxInFlightPerIssuer((AsyncDriver) driver) : 0;
        checkMemory(ops.length, maxInFlight);
        WorkerRecorders[] recorders = new WorkerRecorders[threads];
        LoadThread[] loops = new LoadThread[threads];
        SchedulePosition position = new SchedulePosition(threads);
        SplittableRandom planSeeds = new SplittableRandom(options.seed() ^ 0x9E3779B97F4A7C15L);
        for (int w = 0; w < threads; w++) {
            recorders[w] = new WorkerRecorders(ops.length, async, !options.throttled(),
                    trace == null ? null : trace.ring(w, threads, async));
            LoadThread.Setup setup = new LoadThread.Setup(w, recorders[w], options.waitStrategy(), clock, stop,
                    position, options.operationsFor(w), plan.forThread(w, threads, planSeeds.split()), ops, driverIndex);
            loops[w] = async ? asyncIssuer(setup, (AsyncDriver) driver, maxInFlight) : new Worker(setup, driver);
        }
        CountDownLatch done = new CountDownLatch(threads);
        RunTotals totals = new RunTotals(ops.length);
        // The platform's stalls happen in real time: a run on a test's manual clock has no hiccup meter.
        HiccupMeter hiccups = clock == NanoClock.SYSTEM ? HiccupMeter.start(clock) : null;
        HarnessHealth health = new HarnessHealth(hiccups, loops);
        runId = RunId.of(options.shard(), options.startAtMs(), schedule());
        IntervalAggregator aggregator = new IntervalAggregator(
                aggregatorSetup(ops, recorders, loops, position, done, log, events, driver, totals, health));
        if (!options.throttled() && status != null) {
            status.println("loadgen: no --target, so operations have no intended start times: intended = service,"
                    + " and no coordinated-omission correction is possible. Give --target OPS to measure what users see.");
        }
        if (!options.coldStart() && clock == NanoClock.SYSTEM) {
            // The recorders just preallocated (about 100 KB per histogram, several per thread) would otherwise be
            // copied by the first young collections inside the measured window: tens of ms of the harness's own
            // pauses in its first seconds. Collect them now, before t0 (the pause is not the run's).
            System.gc();
        }
        gcAtStart = YcsbClientStats.collectorsNow();
        long[] gcBefore = gcTotals(gcAtStart);

        // Everything is built (and its classes loaded); only now fix the start, a little ahead of the threads.
        long t0Ns;
        long t0Ms;
        if (options.startAtMs() == 0) {
            t0Ns = clock.nanoTime() + START_LEAD_NS;
            t0Ms = System.currentTimeMillis() + TimeUnit.NANOSECONDS.toMillis(START_LEAD_NS);
        } else {
            waitingForStart = true;
            long aheadNs = untilStartAtNs(); // waits first: the clock is read after the wait, not before
            t0Ns = clock.nanoTime() + aheadNs;
            t0Ms = options.startAtMs();
            if (stop.isStopped() && aheadNs > 0) {
                // Stopped before the start: nothing was issued. The log gets its header and no interval (an interval
                // from now to a start still ahead would have a negative length), the report says nothing ran.
                if (log != null) {
                    log.writeHeader(t0Ms, headerComments(ops, properties, driver));
                }
                if (warnings != null) {
                    warnings.println("loadgen: stopped (" + stop.reason() + ") before --start-at "
                            + Instant.ofEpochMilli(options.startAtMs()) + ": nothing was issued or measured, and the"
                            + " interval log holds its header only");
                }
                if (hiccups != null) {
                    hiccups.stop();
                }
                if (trace != null) {
                    finishTrace(trace); // its header only: nothing was issued
                }
                return result(ops, loops, totals, driver, gcBefore, health, t0Ms);
            }
        }
        // Without a duration the end is 2^62 ns (146 years) away, not Long.MAX_VALUE: times compare wrap-safely.
        long endNs = t0Ns + (options.duration().isZero() ? NO_END_NS : options.duration().toNanos());
        if (log != null) {
            log.writeHeader(t0Ms, headerComments(ops, properties, driver));
        }
        SplittableRandom seeds = new SplittableRandom(options.seed());
        for (LoadThread w : loops) {
            w.arm(schedule(t0Ns, seeds.split()), endNs);
        }
        measureStartNs = t0Ns + options.warmup().toNanos();
        if (rateControl.changeable()) {
            rateControl.start(t0Ns);
        }
        if (trace != null) {
            trace.start(t0Ns, ops);
        }
        Thread samplerThread = new Thread(aggregator.arm(t0Ns, t0Ms), "loadgen-sampler");
        samplerThread.setDaemon(true);
        samplerThread.start();
        started = true;
        for (int w = 0; w < threads; w++) {
            loops[w].start((async ? "loadgen-issuer-" : "loadgen-worker-") + w, done);
        }
        try {
            done.await();
            rateControl.end();
            samplerThread.join();
        } finally {
            rateControl.end();
            if (hiccups != null) {
                hiccups.stop();
            }
        }
        if (trace != null) {
            finishTrace(trace); // the workers and their completions are done: every row is in the rings
        }
        if (aggregator.failure() != null) {
            throw new IllegalStateException("interval aggregator failed", aggregator.failure());
        }
        RunResult result = result(ops, loops, totals, driver, gcBefore, health, t0Ms);
        if (log != null) {
            log.writeRunEnd(result.stopReason(), aggregator.lastEndMs() - t0Ms); // the sampler has ended: ours now
        }
        return result;
    }

    /**
     * Waits until {@link #START_LEAD_NS} before {@code --start-at} (or a stop), then returns how far ahead the
     * instant still is, in ns: negative when the run is ready only after it, which {@link #lateNs} reports or
     * refuses. The wall clock places the instant (it is what other machines share); the wait ends early on a
     * stop, so Ctrl-C during it ends the run at once.
     */
    private long untilStartAtNs() throws InterruptedException {
        long lateNs = lateNs();
        if (lateNs > 0) {
            if (warnings != null) {
                warnings.println("loadgen: warning: started " + lateness(lateNs) + " after --start-at "
                        + Instant.ofEpochMilli(options.startAtMs()) + "; catching up: the operations due since then"
                        + " are issued late and their waits count in intended (--late-start refuse refuses instead)");
            }
            return -lateNs;
        }
        if (status != null && -lateNs > TimeUnit.SECONDS.toNanos(1)) {
            status.println("loadgen: waiting " + Durations.format(Duration.ofMillis(TimeUnit.NANOSECONDS.toMillis(-lateNs)))
                    + " for --start-at " + Instant.ofEpochMilli(options.startAtMs()) + " (the driver is open and warm)");
        }
        long aheadNs;
        while ((aheadNs = -lateNs()) > START_LEAD_NS && !stop.isStopped()) {
            Thread.sleep(Math.min(START_WAIT_SLICE_MS, TimeUnit.NANOSECONDS.toMillis(aheadNs - START_LEAD_NS) + 1));
        }
        return aheadNs;
    }

    /**
     * How long ago {@code --start-at} was, in ns (negative: still ahead), by the wall clock.
     *
     * @throws BadInputException when it has passed and {@link LateStart#REFUSE} was asked for
     */
    private long lateNs() {
        Instant now = Instant.now();
        long lateNs = Duration.between(Instant.ofEpochMilli(options.startAtMs()), now).toNanos();
        if (lateNs > 0 && options.lateStart() == LateStart.REFUSE) {
            throw new BadInputException("--start-at " + Instant.ofEpochMilli(options.startAtMs()) + " passed "
                    + lateness(lateNs) + " ago (now " + now
                    + ") and --late-start is refuse; give a later --start-at, or --late-start catch-up to start"
                    + " late and catch up");
        }
        return lateNs;
    }

    /** How late, to the ms, for a message: at least 1ms, so a late start never reads as "0s late". */
    private static String lateness(long lateNs) {
        return Durations.format(Duration.ofMillis(Math.max(1, TimeUnit.NANOSECONDS.toMillis(lateNs))));
    }

    /**
     * Refuses a run whose preallocated state would not fit in {@link Limits#heapBudgetBytes()}: each thread's
     * recorders ({@link WorkerRecorders#bytesPerThread}) and in-flight slots. Before anything is allocated, so
     * too many threads is one line, not an OutOfMemoryError.
     */
    private void checkMemory(int opTypes, int inFlightPerThread) {
        long perThread = WorkerRecorders.bytesPerThread(opTypes) + (long) inFlightPerThread * Limits.BYTES_PER_IN_FLIGHT_SLOT
                + (options.trace() == null ? 0 : TraceWriter.bytesPerThread(options.threads()));
        long budget = Limits.heapBudgetBytes();
        long fit = budget / perThread;
        if (options.threads() > fit) {
            throw new BadInputException(Figures.plural(options.threads(), "thread") + " need about "
                    + Limits.bytes(perThread * options.threads()) + " of preallocated histograms"
                    + (inFlightPerThread > 0 ? " and in-flight slots" : "")
                    + (options.trace() == null ? "" : " and --trace rings") + " (" + Limits.bytes(perThread)
                    + " per thread for " + opTypes + " operation type" + (opTypes == 1 ? "" : "s")
                    + "), more than half this JVM's maximum heap (" + Limits.bytes(Limits.maxHeapBytes())
                    + "): at most " + Figures.plural(fit, "thread") + (fit == 1 ? " fits" : " fit")
                    + "; lower --threads (or the workload's threadcount)"
                    + (inFlightPerThread > 1 ? " or --max-in-flight" : "")
                    + ", or give a larger heap, e.g. LOADGEN_JAVA_OPTS=-Xmx8g");
        }
    }

    /** The driver's properties, checked against what it declares (once). */
    private DriverProperties properties() {
        if (properties == null) {
            properties = DriverProperties.of(provider, options.properties(), WorkloadOptions::didYouMean);
        }
        return properties;
    }

    /** The operation types the driver has with this run's properties. */
    private List<String> supported() {
        return provider.operations(properties());
    }

    /**
     * Without a workload: the single {@code --operation}, else the driver's own mix when it has one, else its
     * first type.
     */
    private OperationPlan driverPlan() {
        double[] weights = options.operation() == null ? provider.operationWeights(properties()) : null;
        return weights != null ? OperationPlan.weighted(supported(), weights) : OperationPlan.fixed(operationName());
    }

    /** Each run type's index in the driver's operations; a type the driver lacks is bad input. */
    private int[] driverIndexes(String[] ops) {
        List<String> supported = supported();
        int[] index = new int[ops.length];
        for (int i = 0; i < ops.length; i++) {
            index[i] = supported.indexOf(ops[i]);
            if (index[i] < 0) {
                throw new BadInputException("driver " + provider.name() + " has no operation '" + ops[i]
                        + "'; it has " + String.join(", ", supported));
            }
        }
        return index;
    }

    /**
     * The operation types this run will issue, in order: the plan's, or the single {@code --operation}
     * (the driver's first by default).
     *
     * @throws BadInputException for an {@code --operation} the driver does not have
     */
    public List<String> operations() {
        return plan != null ? plan.operations() : driverPlan().operations();
    }

    private String operationName() {
        List<String> supported = supported();
        if (options.operation() == null) {
            return supported.get(0);
        }
        String wanted = options.operation().trim();
        for (String type : supported) {
            if (type.equalsIgnoreCase(wanted)) {
                return type;
            }
        }
        throw new BadInputException("driver " + provider.name() + " has no operation '" + options.operation()
                + "'; choose one of: " + String.join(", ", supported));
    }

    /** An issuer on the driver's executor for it when the driver names one, else on a thread of its own. */
    private static LoadThread asyncIssuer(LoadThread.Setup setup, AsyncDriver driver, int maxInFlight) {
        java.util.concurrent.ScheduledExecutorService executor = driver.issuerExecutor(setup.index());
        return executor != null ? new EventLoopIssuer(setup, driver, maxInFlight, executor)
                : new AsyncIssuer(setup, driver, maxInFlight);
    }

    private int maxInFlightPerIssuer(AsyncDriver driver) {
        int driverShare = Math.max(1, driver.maxInFlight() / options.threads());
        int wanted = options.maxInFlight() == RunOptions.DRIVER_DEFAULT_IN_FLIGHT
                ? Math.max(1, driver.defaultInFlightPerIssuer()) : options.maxInFlight();
        return Math.min(wanted, driverShare);
    }

    private Schedule schedule(long t0Ns, SplittableRandom random) {
        if (!options.throttled()) {
            return null;
        }
        if (options.rateProfile() != null) {
            return new PhasedSchedule(t0Ns, options.rateProfile(), 1.0 / options.threads(), random.nextDouble());
        }
        double intervalNs = options.workerIntervalNs();
        long offsetNs = (long) (random.nextDouble() * intervalNs); // spread workers over one interval
        return new ChangeableSchedule(options.arrival().schedule(t0Ns + offsetNs, intervalNs, random), rateControl);
    }

    /**
     * The aggregator and its sinks, in the order they see each interval: the interval log, the totals, the
     * harness's health (whose hiccups are also a series of the snapshot), the live metrics ({@link #publishTo}), the interval listener and added sinks (guarded: one that throws is dropped), the status line, the report
     * of driver exceptions.
     */
    private IntervalAggregator.Builder aggregatorSetup(String[] ops, WorkerRecorders[] recorders, LoadThread[] workers,
                                                       SchedulePosition position, CountDownLatch done, IntervalLog log,
                                                       RunEvents events, Driver driver, RunTotals totals,
                                                       HarnessHealth health) {
        IntervalAggregator.Builder b = new IntervalAggregator.Builder();
        b.ops = ops;
        b.recorders = recorders;
        b.position = position;
        b.workersDone = done;
        b.events = events;
        b.clock = clock;
        b.throttled = options.throttled();
        b.warmupNs = options.warmup().toNanos();
        b.intervalNs = options.interval().toNanos();
        b.profile = options.rateProfile();
        if (options.operations() > 0 && options.throttled() && options.rateProfile() == null) {
            double spanNs = options.operations() / options.targetOpsPerSec() * 1e9;
            b.countSpanNs = (long) Math.min(spanNs, options.duration().isZero() ? Limits.MAX_DURATION_NS
                    : options.duration().toNanos());
        }
        b.stopped = stop::isStopped;
        b.rateControl = rateControl.changeable() ? rateControl : null;
        b.driverCounters = driver::liveStats;
        if (health.measuresHiccups()) {
            b.series.add(health);
        }
        if (log != null) {
            b.sinks.add(new IntervalLogSink(log));
        }
        b.sinks.add(totals);
        b.sinks.add(health);
        if (live != null) {
            LiveMetrics.RunLabels labels = new LiveMetrics.RunLabels(provider.name(),
                    options.shard() == null ? 0 : options.shard().index(), runId);
            b.sinks.add(new GuardedSink(new LiveMetricsSink(live, labels, ops.length, options, health,
                    inFlightPerThread(driver), driver instanceof AsyncDriver), "live metrics"));
        }
        if (intervalListener != null) {
            b.sinks.add(GuardedSink.of(intervalListener));
        }
        for (IntervalSink sink : sinks) {
            b.sinks.add(new GuardedSink(sink, "interval sink " + sink.getClass().getName()));
        }
        if (warnings != null && options.throttled()) {
            b.sinks.add(new LittlesLawCheck(warnings, provider.name(), options.targetOpsPerSec(), options.threads(),
                    inFlightPerThread(driver), driver instanceof AsyncDriver));
        }
        if (status != null) {
            b.sinks.add(StatusLineSink.of(options, status, provider.name(), health));
        }
        b.sinks.add(new DriverErrorReport(workers));
        if (options.rateFile() != null) {
            b.sinks.add(new RateFile(options.rateFile(), rateControl, warnings, status));
        }
        return b;
    }

    private RunResult result(String[] ops, LoadThread[] workers, RunTotals totals, Driver driver,
                             long[] gcBefore, HarnessHealth health, long t0Ms) {
        int inFlightPerThread = inFlightPerThread(driver);
        boolean async = driver instanceof AsyncDriver;
        List<OpResult> results = new ArrayList<>();
        // A changed rate's mean gap per thread, as a phased run's is its mean's: threads / the mean target.
        long expectedIntervalNs = rateControl.changed() ? (long) (options.threads() * 1e9 / targetOpsPerSec(issuingNs(totals)))
                : (long) options.workerIntervalNs();
        CorrectedBasis corrected = correctedBasis(driver, totals.measuredNs());
        for (int o = 0; o < ops.length; o++) {
            Map<View, Histogram> views = new EnumMap<>(View.class);
            Histogram service = totals.total(o, View.SERVICE);
            views.put(View.INTENDED, totals.total(o, View.INTENDED));
            views.put(View.SERVICE, service);
            views.put(View.CORRECTED, corrected.correct(service));
            long[] statuses = java.util.Arrays.copyOfRange(totals.statusCounts(), o * Status.count(),
                    (o + 1) * Status.count());
            Map<View, Histogram> failed = new EnumMap<>(View.class);
            failed.put(View.INTENDED, totals.failedTotal(o, View.INTENDED));
            failed.put(View.SERVICE, totals.failedTotal(o, View.SERVICE));
            results.add(new OpResult(ops[o], views, failed, statuses));
        }
        long unissued = 0;
        long issued = 0;
        long heldBack = 0;
        long inFlightAtEnd = 0;
        for (LoadThread w : workers) {
            unissued += w.unissued();
            issued += w.issued();
            heldBack += w.heldBack();
            inFlightAtEnd += w.inFlightAtEnd();
        }
        long[] gcAfter = gcTotals(YcsbClientStats.collectorsNow());
        Map<String, Number> harness = new LinkedHashMap<>();
        harness.put("max_in_flight_per_thread", inFlightPerThread);
        harness.put("max_concurrency", (long) options.threads() * inFlightPerThread);
        harness.put("gc_count", gcAfter[0] - gcBefore[0]);
        harness.put("gc_time_ms", gcAfter[1] - gcBefore[1]);
        if (async) {
            harness.put("held_back_by_max_in_flight", heldBack);
            harness.put("in_flight_at_end", inFlightAtEnd);
        }
        if (traceSummary != null) {
            harness.put("trace_rows", traceSummary.rows());
            harness.put("trace_dropped_rows", traceSummary.droppedRows());
            harness.put("trace_bytes", traceSummary.bytes());
            if (traceSummary.writerCpuNs() >= 0) {
                harness.put("trace_writer_cpu_ms", Figures.ms(traceSummary.writerCpuNs()));
            }
        }
        Histogram lag = options.throttled() ? totals.lag() : Histograms.newHistogram();
        if (totals.endedInWarmup() && !options.warmup().isZero() && warnings != null) {
            warnings.println("loadgen: warning: the run ended within its --warmup " + Durations.format(options.warmup())
                    + ", so nothing was left out: the summary counts every operation, the warm-up's too; give more"
                    + " --operations (or --duration) or a shorter --warmup");
        }
        Diagnosis diagnosis = Diagnoser.diagnose(evidence(ops, workers, totals, driver, health, unissued));
        return new RunResult(provider.name(), targetOpsPerSec(issuingNs(totals)), options.threads(), totals.measuredNs(),
                results, lag, expectedIntervalNs, unissued, driver.stats(), harness,
                stop.isStopped() ? stop.reason() : issued == options.operations() ? "operations" : "duration",
                corrected, health.report(totals.measuredNs(), options.throttled(), lag, diagnosis),
                new RunInfo(t0Ms, options.seed(), options.effectiveProperties(), options.shard(),
                        options.startAtMs() == 0 ? null : options.startAtMs(), runId), diagnosis);
    }

    /**
     * What the diagnosis judges: every completed operation's intended and service latency (successes and
     * failures together: a failure is an answer too), the harness's own delay of them, the failures by
     * status with one driver exception's message, the backlog left, the concurrency, and the harness's watch
     * on itself. Main thread, after the run.
     */
    private Evidence evidence(String[] ops, LoadThread[] workers, RunTotals totals, Driver driver,
                              HarnessHealth health, long unissued) {
        Histogram intended = Histograms.newHistogram();
        Histogram reported = Histograms.newHistogram();
        Histogram reportedService = Histograms.newHistogram();
        Histogram service = Histograms.newHistogram();
        long completed = 0;
        long[] byStatus = new long[Status.count()];
        for (int o = 0; o < ops.length; o++) {
            intended.add(totals.total(o, View.INTENDED));
            reported.add(totals.total(o, View.INTENDED));
            reportedService.add(totals.total(o, View.SERVICE));
            intended.add(totals.failedTotal(o, View.INTENDED));
            service.add(totals.total(o, View.SERVICE));
            service.add(totals.failedTotal(o, View.SERVICE));
            for (int k = 0; k < Status.count(); k++) {
                byStatus[k] += totals.statusCounts()[o * Status.count() + k];
            }
        }
        List<Evidence.StatusCount> failures = new ArrayList<>();
        long failed = 0;
        for (int k = 0; k < Status.count(); k++) {
            completed += byStatus[k];
            Status status = Status.byOrdinal(k);
            if (!status.isOk() && byStatus[k] > 0) {
                failed += byStatus[k];
                failures.add(new Evidence.StatusCount(status.name(), byStatus[k]));
            }
        }
        failures.sort((a, b) -> Long.compare(b.count(), a.count()));
        String sample = null;
        for (LoadThread w : workers) {
            if (sample == null && w.lastError() != null) {
                sample = DriverErrorReport.message(w.lastError());
            }
        }
        if (sample == null && failed > 0 && driver.lastFailure() != null) {
            sample = io.loadgen.core.Secrets.redact(driver.lastFailure());
        }
        double[] shares = health.shares(totals.measuredNs());
        Histogram hiccups = health.hiccups();
        long[] gc = health.gcPauses();
        long issuingNs = issuingNs(totals);
        return new Evidence(provider.name(), options.throttled(), targetOpsPerSec(issuingNs), issuingNs,
                completed, failed, failures, sample, unissued, options.threads(), inFlightPerThread(driver),
                driver instanceof AsyncDriver, Latencies.of(intended), Latencies.of(service),
                options.throttled() ? Latencies.of(totals.harnessDelay()) : Latencies.NONE,
                hiccups == null ? -1 : hiccups.getMaxValue(), gc[0], gc[1], shares[0], shares[1],
                options.maxErrorRate(), Latencies.of(reported), Latencies.of(reportedService),
                options.throttled() ? Latencies.of(totals.undelayed()) : Latencies.NONE, health.delayMaxAtNs(), options.interval().toNanos(),
                options.warmup().toNanos());
    }

    /**
     * The rate done is over the time operations were issued: a timed run's measured time also holds the wait for the
     * last ones in flight, which would understate a slow target's rate.
     */
    private long issuingNs(RunTotals totals) {
        return options.duration().isZero() || stop.isStopped() ? totals.measuredNs()
                : Math.min(totals.measuredNs(), Math.max(1, options.duration().minus(options.warmup()).toNanos()));
    }

    /**
     * The target the summary and the diagnosis judge by: {@code --target}, or, when it was changed while the run
     * went on, the mean target in force over the measured issuing time (the operations the schedules intended
     * there, per second), as a phased run reports its profile's mean.
     */
    private double targetOpsPerSec(long issuingNs) {
        return rateControl.changed() ? rateControl.meanOpsPerSec(measureStartNs, measureStartNs + issuingNs)
                : options.targetOpsPerSec();
    }

    /**
     * The corrected view's expected interval, threads x M / target, with M the operations one thread may
     * have in flight; or why no interval fits the run. The rule and its derivation: {@link CorrectedBasis}.
     */
    private CorrectedBasis correctedBasis(Driver driver, long runTimeNs) {
        if (!options.throttled()) {
            return CorrectedBasis.notApplicable(CorrectedBasis.NO_SCHEDULE);
        }
        if (options.rateProfile() != null) {
            return CorrectedBasis.notApplicable(CorrectedBasis.PHASED);
        }
        if (rateControl.changed()) {
            return CorrectedBasis.notApplicable(CorrectedBasis.RATE_CHANGED);
        }
        return CorrectedBasis.of(options.targetOpsPerSec(), options.threads(), inFlightPerThread(driver), runTimeNs);
    }

    /** M: how many operations one thread may have in flight; 1 for a blocking driver's worker. */
    private int inFlightPerThread(Driver driver) {
        return driver instanceof AsyncDriver async ? maxInFlightPerIssuer(async) : 1;
    }

    private List<String> headerComments(String[] ops, DriverProperties properties, Driver driver) {
        List<String> c = new ArrayList<>();
        c.add("loadgen interval log: latencies in nanoseconds; the max column is in milliseconds");
        c.add("run: " + options.describe() + " in_flight_per_thread=" + inFlightPerThread(driver));
        c.add("properties: " + properties);
        c.add(IntervalLog.RUN_ID + ": " + runId);
        if (options.shard() != null) {
            c.add("shard: index=" + options.shard().index() + " count=" + options.shard().count() + " start_at="
                    + (options.startAtMs() == 0 ? "-" : Long.toString(options.startAtMs())));
        }
        c.add("operations: " + String.join(" ", ops) + "; tags per operation OP: OP.intended = completion - intended"
                + " start (what users see); OP.service = completion - actual start (what a synchronous tool reports);"
                + " both of operations that returned OK; OP.failed.intended and OP.failed.service = the same of"
                + " operations that did not (every interval, empty or not)"
                + (options.throttled() ? "; harness.lag = actual start - max(intended start, worker free)"
                + " (the scheduler's own delay; queueing is in intended)" : "")
                + "; harness.hiccup = how late a thread sleeping 1 ms at a time woke, beyond its quickest wake-up"
                + " (the platform's stalls, as jHiccup measures them)"
                + "; OP.status = how many operations ended with each status, recorded as the value "
                + io.loadgen.core.record.StatusTags.legend() + " (not a latency)");
        c.add("events: lines #[event: kind=KIND source=SOURCE start=SEC length_ms=MS] mark pauses: the driver's"
                + " (e.g. kind=stop-the-world) and the harness's own GC (kind=gc source=harness); SEC is relative to"
                + " the StartTime, as the interval timestamps are"
                + (rateControl.changeable() ? "; kind=rate-change ... rate_ops_s=R marks where the target rate changed"
                + " to R ops/s (this log's part when sharded), source=rate-file or who asked" : ""));
        c.replaceAll(Secrets::redact); // the log is often kept as a CI artifact
        return c;
    }

    /** What every shard of this run shares beyond its count and start, for its id: its rate, duration, warm-up. */
    private String schedule() {
        return "target=" + options.targetOpsPerSec() + " duration=" + options.duration() + " warmup=" + options.warmup();
    }

    /**
     * The JVM's collectors' totals when the run started (after the driver's warm-up and the collection before t0),
     * for the YCSB lines that count the run's collections; empty before {@link #run()} starts the clock.
     */
    public List<YcsbClientStats.Collector> gcAtStart() {
        return gcAtStart;
    }

    private static long[] gcTotals(List<YcsbClientStats.Collector> collectors) {
        long count = 0;
        long timeMs = 0;
        for (YcsbClientStats.Collector c : collectors) {
            count += c.count();
            timeMs += c.timeMs();
        }
        return new long[]{count, timeMs};
    }
}
