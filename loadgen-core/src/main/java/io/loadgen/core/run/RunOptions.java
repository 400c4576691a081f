package io.loadgen.core.run;

import io.loadgen.core.diagnosis.Diagnoser;
import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.schedule.RateProfile;
import io.loadgen.core.shard.Shard;
import io.loadgen.core.time.Durations;
import io.loadgen.core.wait.WaitStrategy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A run's settings, validated and defaulted in one place ({@link Builder#build()}), then immutable.
 * Built on the main thread; safe to share.
 *
 * <p>Defaults: 1 thread, unthrottled, 10 s when neither a duration nor an operation count is
 * given, no warm-up, uniform arrivals, park waiting, 1 s intervals, the human status line 120 wide.
 */
public final class RunOptions {
    /** The run length used when neither {@code --duration} nor {@code --operations} is given. */
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(10);
    /**
     * {@link #maxInFlight()} when {@code --max-in-flight} is not given: the driver's own default
     * ({@code AsyncDriver#defaultInFlightPerIssuer}): one for most, as a YCSB thread has, so pipelining is asked
     * for; its connections per thread for a driver whose connection count is the user's concurrency (http, redis,
     * ping: wrk's and redis-benchmark's {@code -c}).
     */
    public static final int DRIVER_DEFAULT_IN_FLIGHT = 0;
    /**
     * The furthest a {@code --start-at} may be from now, ahead or past: more is likelier a typo (a wrong day) than
     * a plan, and a day's backlog to catch up is no measurement.
     */
    public static final Duration MAX_START_AHEAD = Duration.ofHours(24);
    /** The status line's width when the terminal's ({@code COLUMNS}) is not known. */
    public static final int DEFAULT_STATUS_WIDTH = 120;

    private final String driver;
    private final Map<String, String> properties;
    private final Map<String, String> effectiveProperties;
    private double targetOpsPerSec;
    private final int threads;
    private final Duration duration;
    private final long operations;
    private final Duration warmup;
    private final Arrival arrival;
    private final WaitStrategy waitStrategy;
    private final Duration interval;
    private final Path hlog;
    private final Path rateFile;
    private final Path trace;
    private final long seed;
    private final String operation;
    private final int maxInFlight;
    private final double maxErrorRate;
    private final RateProfile rateProfile;
    private final boolean coldStart;
    private final Shard shard;
    private final long startAtMs;
    private final LateStart lateStart;
    private final StatusFormat statusFormat;
    private final int statusWidth;

    private RunOptions(Builder b, Duration duration) {
        this.driver = b.driver;
        this.properties = Map.copyOf(b.properties);
        this.effectiveProperties = Map.copyOf(b.effectiveProperties != null ? b.effectiveProperties : b.properties);
        this.targetOpsPerSec = b.targetOpsPerSec == null ? 0.0 : b.targetOpsPerSec;
        this.threads = b.threads;
        this.duration = duration;
        this.operations = b.operations == null ? 0 : b.operations;
        this.warmup = b.warmup;
        this.arrival = b.arrival;
        this.waitStrategy = b.waitStrategy;
        this.interval = b.interval;
        this.hlog = b.hlog;
        this.rateFile = b.rateFile;
        this.trace = b.trace;
        this.seed = b.seed;
        this.operation = b.operation;
        this.maxInFlight = b.maxInFlight == null ? DRIVER_DEFAULT_IN_FLIGHT : b.maxInFlight;
        this.maxErrorRate = b.maxErrorRate == null ? Diagnoser.DEFAULT_MAX_ERROR_RATE
                : b.maxErrorRate;
        this.rateProfile = b.rateProfile;
        this.coldStart = b.coldStart;
        this.shard = b.shard;
        this.startAtMs = b.startAtMs == null ? 0 : b.startAtMs;
        this.lateStart = b.lateStart;
        this.statusFormat = b.statusFormat;
        this.statusWidth = b.statusWidth;
        if (rateProfile != null) {
            this.targetOpsPerSec = rateProfile.meanOpsPerSec();
        }
    }

    public static Builder builder(String driver) {
        return new Builder(driver);
    }

    public String driver() {
        return driver;
    }

    /** Driver properties as given ({@code -p} / {@code -P}); validated by the driver's specs at open. */
    public Map<String, String> properties() {
        return properties;
    }

    /** The total intended rate over all workers, or 0 when unthrottled (no schedule). */
    /**
     * Every property the run was given, workload and driver, after -P files and -p overrides: what the JSON
     * summary reports ({@link io.loadgen.core.summary.RunInfo}). The driver's alone when no workload was split off.
     */
    public Map<String, String> effectiveProperties() {
        return effectiveProperties;
    }

    public double targetOpsPerSec() {
        return targetOpsPerSec;
    }

    public boolean throttled() {
        return targetOpsPerSec > 0;
    }

    public int threads() {
        return threads;
    }

    /** How long the run issues operations; {@link Duration#ZERO} when only an operation count bounds it. */
    public Duration duration() {
        return duration;
    }

    /** Total operations over all workers, or 0 for no limit. */
    public long operations() {
        return operations;
    }

    public Duration warmup() {
        return warmup;
    }

    public Arrival arrival() {
        return arrival;
    }

    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    public Duration interval() {
        return interval;
    }

    /** Where the interval log goes, or null for none. */
    public Path hlog() {
        return hlog;
    }

    /** A file holding the target rate, read every interval to change it while the run goes on; null for none. */
    public Path rateFile() {
        return rateFile;
    }

    /** Where the per-operation trace goes ({@code --trace}), or null for none. */
    public Path trace() {
        return trace;
    }

    public long seed() {
        return seed;
    }

    /** The operation type to issue, e.g. {@code INSERT}; null for the driver's first (its default). */
    public String operation() {
        return operation;
    }

    /** A rate that changes over the run (phases), or null for the constant {@link #targetOpsPerSec()}. */
    public RateProfile rateProfile() {
        return rateProfile;
    }

    /**
     * True when the driver is not warmed up before the first intended start, so a cold start (connecting,
     * class loading, a cold JIT) is measured as the first operations' latency. Default false.
     */
    public boolean coldStart() {
        return coldStart;
    }

    /**
     * Which shard of a sharded run this is, or null when the run is whole. Its rate, operation count and key range
     * are already this shard's part (the caller divided them); the shard is named in the interval log's header
     * and the JSON summary, so the shards' logs can be merged.
     */
    public Shard shard() {
        return shard;
    }

    /**
     * The wall-clock instant of the run's first intended start (its t0), in ms since the epoch, so runs on several
     * machines line up; 0 when the run starts as soon as it is ready.
     */
    public long startAtMs() {
        return startAtMs;
    }

    /** What the run does when it is ready only after {@link #startAtMs()}. */
    public LateStart lateStart() {
        return lateStart;
    }

    /** How the status line reads: {@link StatusFormat#HUMAN} (the default) or YCSB's. */
    public StatusFormat statusFormat() {
        return statusFormat;
    }

    /** The most characters a {@link StatusFormat#HUMAN} status line takes (the terminal's width). */
    public int statusWidth() {
        return statusWidth;
    }

    /**
     * The most operations an async driver may have in flight per issuer thread, or
     * {@link #DRIVER_DEFAULT_IN_FLIGHT} (0) when the driver's own default applies.
     */
    public int maxInFlight() {
        return maxInFlight;
    }

    /**
     * The failed share of the operations above which the run failed ({@code --max-error-rate}): its diagnosis
     * names {@code target_failing} and the command exits 1. Default 10%; 1 disables.
     */
    public double maxErrorRate() {
        return maxErrorRate;
    }

    /** Each worker's intended gap between operations: threads / target, in ns; 0 when unthrottled. */
    public double workerIntervalNs() {
        return throttled() ? threads * 1e9 / targetOpsPerSec : 0.0;
    }

    /** How many operations worker {@code w} may issue, splitting {@link #operations()} evenly; MAX_VALUE when unlimited. */
    public long operationsFor(int worker) {
        if (operations == 0) {
            return Long.MAX_VALUE;
        }
        return operations / threads + (worker < operations % threads ? 1 : 0);
    }

    /** One line describing the run, for logs and headers. */
    public String describe() {
        return "driver=" + driver
                + " target=" + (rateProfile != null ? "phases(mean " + fmt(Math.round(targetOpsPerSec)) + "ops/s)"
                : throttled() ? fmt(targetOpsPerSec) + "ops/s" : "unthrottled")
                + " threads=" + threads
                + " duration=" + (duration.isZero() ? "-" : Durations.format(duration))
                + " operations=" + (operations == 0 ? "-" : Long.toString(operations))
                + " warmup=" + Durations.format(warmup)
                + " arrival=" + arrival.name().toLowerCase()
                + " wait=" + waitStrategy.name().toLowerCase()
                + " interval=" + Durations.format(interval)
                + (operation != null ? " operation=" + operation : "")
                + (maxInFlight == DRIVER_DEFAULT_IN_FLIGHT ? "" : " max-in-flight=" + maxInFlight)
                + (coldStart ? " cold-start" : "")
                + (shard != null ? " shard=" + shard : "")
                + (startAtMs != 0 ? " start-at=" + Instant.ofEpochMilli(startAtMs) : "")
                + " seed=" + seed;
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }

    /** Collects settings; {@link #build()} validates them all and names the option to fix. Main thread. */
    public static final class Builder {
        private final String driver;
        private final Map<String, String> properties = new LinkedHashMap<>();
        private Map<String, String> effectiveProperties;
        private Double targetOpsPerSec;
        private int threads = 1;
        private Duration duration;
        private Long operations;
        private Duration warmup = Duration.ZERO;
        private Arrival arrival = Arrival.UNIFORM;
        private WaitStrategy waitStrategy = WaitStrategy.ADAPTIVE;
        private Duration interval = Duration.ofSeconds(1);
        private Path hlog;
        private Path rateFile;
        private Path trace;
        private long seed = System.nanoTime();
        private String operation;
        private Integer maxInFlight;
        private Double maxErrorRate;
        private RateProfile rateProfile;
        private boolean coldStart;
        private Shard shard;
        private Long startAtMs;
        private LateStart lateStart = LateStart.CATCH_UP;
        private StatusFormat statusFormat = StatusFormat.HUMAN;
        private int statusWidth = DEFAULT_STATUS_WIDTH;

        private Builder(String driver) {
            this.driver = Objects.requireNonNull(driver, "driver");
        }

        public Builder property(String key, String value) {
            properties.put(key, value);
            return this;
        }

        public Builder properties(Map<String, String> values) {
            properties.putAll(values);
            return this;
        }

        /** The total intended rate; null for unthrottled. */
        /** Every property as given, workload ones included, for the summary; default: the driver's ({@link #properties}). */
        public Builder effectiveProperties(Map<String, String> values) {
            effectiveProperties = new LinkedHashMap<>(values);
            return this;
        }

        public Builder target(Double opsPerSec) {
            this.targetOpsPerSec = opsPerSec;
            return this;
        }

        public Builder threads(int n) {
            this.threads = n;
            return this;
        }

        public Builder duration(Duration d) {
            this.duration = d;
            return this;
        }

        public Builder operations(Long n) {
            this.operations = n;
            return this;
        }

        public Builder warmup(Duration d) {
            this.warmup = Objects.requireNonNull(d, "warmup");
            return this;
        }

        public Builder arrival(Arrival a) {
            this.arrival = Objects.requireNonNull(a, "arrival");
            return this;
        }

        public Builder waitStrategy(WaitStrategy w) {
            this.waitStrategy = Objects.requireNonNull(w, "wait");
            return this;
        }

        public Builder interval(Duration d) {
            this.interval = Objects.requireNonNull(d, "interval");
            return this;
        }

        /** {@code --rate-file}: a file holding the rate, read every interval; null for none. */
        public Builder rateFile(Path p) {
            this.rateFile = p;
            return this;
        }

        public Builder hlog(Path p) {
            this.hlog = p;
            return this;
        }

        /** Writes every operation's times, type and status to {@code p} ({@code --trace}); null for none. */
        public Builder trace(Path p) {
            this.trace = p;
            return this;
        }

        public Builder seed(long s) {
            this.seed = s;
            return this;
        }

        /** The operation type to issue; null for the driver's default. */
        public Builder operation(String type) {
            this.operation = type;
            return this;
        }

        /** Phases: the rate follows this profile, and the run lasts its total unless --duration cuts it short. */
        public Builder rateProfile(RateProfile profile) {
            this.rateProfile = profile;
            return this;
        }

        /** Measure from a cold start: skip the driver's warm-up before the first intended start. */
        public Builder coldStart(boolean cold) {
            this.coldStart = cold;
            return this;
        }

        /** This run is shard {@code s} of a sharded run (its rate and counts already divided); null for a whole run. */
        public Builder shard(Shard s) {
            this.shard = s;
            return this;
        }

        /** The wall-clock instant of the first intended start, in epoch ms; null to start as soon as ready. */
        public Builder startAt(Long epochMs) {
            this.startAtMs = epochMs;
            return this;
        }

        /** What to do when ready only after {@link #startAt}; default {@link LateStart#CATCH_UP}. */
        public Builder lateStart(LateStart policy) {
            this.lateStart = Objects.requireNonNull(policy, "lateStart");
            return this;
        }

        /** How the status line reads; default {@link StatusFormat#HUMAN}. */
        public Builder status(StatusFormat format) {
            this.statusFormat = Objects.requireNonNull(format, "status");
            return this;
        }

        /** The most characters a human status line takes (the terminal's {@code COLUMNS}); default 120. */
        public Builder statusWidth(int columns) {
            if (columns < 1) {
                throw new IllegalArgumentException("status width must be positive: " + columns);
            }
            this.statusWidth = columns;
            return this;
        }

        /** The in-flight bound per issuer thread ({@code --max-in-flight}); null for the driver's default. */
        public Builder maxInFlight(Integer n) {
            this.maxInFlight = n;
            return this;
        }

        /** The failed share above which the run failed ({@code --max-error-rate}, 0..1); null for 10%. */
        public Builder maxErrorRate(Double share) {
            this.maxErrorRate = share;
            return this;
        }

        /**
         * Validates every setting.
         *
         * @throws BadInputException naming the option and the fix
         */
        public RunOptions build() {
            if (threads < 1) {
                throw new BadInputException("--threads must be at least 1 (got " + threads + ")");
            }
            if (targetOpsPerSec != null) {
                io.loadgen.core.schedule.Rates.checkTarget(targetOpsPerSec, "--target",
                        "leave --target out for an unthrottled run");
            }
            if (operations != null && operations < 1) {
                throw new BadInputException("--operations must be at least 1 (got " + operations + ")");
            }
            if (operations != null && operations > Limits.MAX_OPERATIONS) {
                throw new BadInputException("--operations " + operations + " is above the limit of "
                        + Limits.MAX_OPERATIONS + " (2^53, the largest count a double holds exactly); give fewer,"
                        + " or bound the run by --duration");
            }
            if (duration != null && (duration.isNegative() || duration.isZero())) {
                throw new BadInputException("--duration must be positive (got " + Durations.format(duration) + ")");
            }
            if (duration != null && duration.compareTo(Duration.ofNanos(Limits.MAX_DURATION_NS)) > 0) {
                throw new BadInputException("--duration " + Durations.format(duration) + " is above the limit of"
                        + " 366 days (8784h); give a shorter one");
            }
            if (interval.isNegative() || interval.isZero()) {
                throw new BadInputException("--interval must be positive (got " + Durations.format(interval) + ")");
            }
            if (interval.compareTo(Duration.ofNanos(Limits.MIN_INTERVAL_NS)) < 0) {
                throw new BadInputException("--interval " + Durations.format(interval) + " is below the minimum of"
                        + " 10ms (shorter, the sampler's own work disturbs the run); give 10ms or more");
            }
            if (maxInFlight != null && maxInFlight > Limits.MAX_IN_FLIGHT) {
                throw new BadInputException("--max-in-flight " + maxInFlight + " is above the limit of "
                        + Limits.MAX_IN_FLIGHT + " per thread; give a lower one");
            }
            if (maxErrorRate != null && !(maxErrorRate >= 0 && maxErrorRate <= 1)) {
                throw new BadInputException("--max-error-rate must be a share from 0 to 1, e.g. 0.05 or 5% (got "
                        + maxErrorRate + "); 1 disables it");
            }
            if (maxInFlight != null && maxInFlight < 1) {
                throw new BadInputException("--max-in-flight must be at least 1 (got " + maxInFlight + ")");
            }
            if (startAtMs != null && startAtMs <= 0) {
                throw new BadInputException("--start-at must be after 1970-01-01T00:00:00Z (got " + startAtMs
                        + "); give epoch milliseconds or an ISO-8601 instant such as 2026-11-25T18:00:00Z");
            }
            long now = System.currentTimeMillis();
            if (startAtMs != null && Math.abs(startAtMs - now) > MAX_START_AHEAD.toMillis()) {
                throw new BadInputException("--start-at " + Instant.ofEpochMilli(startAtMs) + " is more than 24h"
                        + " from now (" + Instant.ofEpochMilli(now) + "), likely a typo; give an instant within 24"
                        + " hours of now");
            }
            if (warmup.isNegative()) {
                throw new BadInputException("--warmup must not be negative");
            }
            if (rateProfile != null && targetOpsPerSec != null) {
                throw new BadInputException("--phases sets the rate over time; leave out --target");
            }
            if (rateProfile != null && !(rateProfile.meanOpsPerSec() > 0)) {
                throw new BadInputException("--phases: every phase has rate 0; give at least one a positive rate");
            }
            checkRateFile();
            Duration d = duration != null ? duration
                    : rateProfile != null ? Duration.ofNanos(rateProfile.totalDurationNs())
                    : operations != null ? Duration.ZERO : DEFAULT_DURATION;
            if (!d.isZero() && warmup.compareTo(d) >= 0) {
                throw new BadInputException("--warmup (" + Durations.format(warmup) + ") must be shorter than --duration ("
                        + Durations.format(d) + ")");
            }
            if (!warmup.isZero() && operations != null && targetOpsPerSec != null && rateProfile == null
                    && warmup.toNanos() >= operations / targetOpsPerSec * 1e9) {
                // A count-bounded run at a fixed rate ends when its schedule does: a warm-up as long would leave
                // out every operation (the run would then report them all, ignoring --warmup).
                throw new BadInputException("--warmup " + Durations.format(warmup) + " would leave out "
                        + (operations == 1 ? "the 1 operation" : "all " + operations + " operations") + ": at --target " + io.loadgen.core.diagnosis.Figures.rate(targetOpsPerSec) + "/s they take "
                        + Durations.format(Duration.ofNanos((long) (operations / targetOpsPerSec * 1e9)))
                        + "; give more --operations or a shorter --warmup");
            }
            return new RunOptions(this, d);
        }

        /** {@code --rate-file} changes a schedule: it needs one of its own (a fixed --target) and an existing file. */
        private void checkRateFile() {
            if (rateFile == null) {
                return;
            }
            if (rateProfile != null) {
                throw new BadInputException("--rate-file changes a fixed --target, but --phases sets the rate over"
                        + " time; leave out one of them");
            }
            if (targetOpsPerSec == null) {
                throw new BadInputException("--rate-file changes the target rate of a throttled run, and this run has"
                        + " no --target (unthrottled: no schedule to change); give --target OPS as the starting rate");
            }
            if (!java.nio.file.Files.isRegularFile(rateFile) || !java.nio.file.Files.isReadable(rateFile)) {
                throw new BadInputException("--rate-file " + rateFile + " is not a readable file; create it with the"
                        + " starting rate, e.g. echo " + (targetOpsPerSec == Math.rint(targetOpsPerSec)
                        ? Long.toString(targetOpsPerSec.longValue()) : targetOpsPerSec.toString()) + " > " + rateFile);
            }
        }
    }
}
