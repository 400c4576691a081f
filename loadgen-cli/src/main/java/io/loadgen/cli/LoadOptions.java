package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.schedule.RateProfile;
import io.loadgen.core.shard.Shard;
import io.loadgen.core.workload.CoreWorkloadPlan;
import io.loadgen.core.workload.OperationPlan;
import io.loadgen.core.workload.WorkloadOptions;
import io.loadgen.core.workload.YcsbClientProperties;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.wait.WaitStrategy;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The workload options {@code run} and {@code sweep} share: what to run against, how, with which
 * properties; everything but the rate, the length and the output. A new workload option belongs
 * here, so every command that runs load gets it. The {@code order} values keep {@code run --help}
 * in its documented order around {@link RunCommand}'s own options. Main thread.
 */
final class LoadOptions {
    private static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
    /** Kubernetes' Indexed Job sets it in each pod: the pod's index, 0 .. completions - 1. */
    static final String INDEX_ENV = "JOB_COMPLETION_INDEX";
    /** The shard count when the index comes from {@link #INDEX_ENV} and {@code --shards} is not given. */
    static final String COUNT_ENV = "LOADGEN_SHARDS";

    @Option(names = {"--driver", "-db"}, paramLabel = "NAME", order = 10,
            description = "The system under test: mockdb, stw-mockdb, noop, ... ('loadgen drivers' lists them); "
                    + "required, unless a --phases file names it or run's URL argument (http).")
    String driver;

    @Option(names = {"--threads", "-threads"}, paramLabel = "N", order = 30,
            description = "Worker threads (default: the workload's threadcount, or 1). With --shard, --threads is "
                    + "this shard's own, while a workload's threadcount is the whole run's and is split as its "
                    + "target is.")
    Integer threads;

    @Option(names = "--shard", paramLabel = "I/N", order = 32,
            description = "Run shard I (from 0) of N load generators sharing the run: 1/N of the target rate (every"
                    + " phase's), of the operation count and, for load, of the keys (insertstart/insertcount as YCSB"
                    + " splits them), so N shards on N machines add up exactly to the whole; --threads stays per"
                    + " shard. Default: from JOB_COMPLETION_INDEX (set in a Kubernetes Indexed Job's pods) and"
                    + " --shards.")
    String shard;

    @Option(names = "--shards", paramLabel = "N", order = 33,
            description = "The shard count N when the index comes from JOB_COMPLETION_INDEX (default: the"
                    + " LOADGEN_SHARDS environment variable).")
    Integer shards;

    @Option(names = "-c", paramLabel = "N", order = 31,
            description = "Connections, as wrk2's and redis-benchmark's -c: sets the driver's connection count "
                    + "(DRIVER.connections: http.connections, redis.connections, memcached.connections, ping.connections), and"
                    + " so the operations in flight, one per connection (--max-in-flight overrides); a driver without one "
                    + "refuses it: use --threads.")
    Integer connections;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "0s", order = 60,
            description = "Leave the first TIME out of the summary (it stays in the interval log). Default: ${DEFAULT-VALUE}.")
    Duration warmup;

    @Option(names = "--max-error-rate", paramLabel = "SHARE", converter = ShareConverter.class, order = 65,
            description = "The failed share of the operations above which the run failed: it exits 1 and its headline"
                    + " names the top status with a sample message, e.g. 0.05 or 5%%. Default: 10%%; 1 (100%%) disables it.")
    Double maxErrorRate;

    @Option(names = "--operation", paramLabel = "TYPE", order = 70,
            description = "The operation type to issue, e.g. INSERT or READ (default: the driver's first; "
                    + "'loadgen drivers' lists each driver's). Key numbers run 0, 1, 2, ... across all threads.")
    String operation;

    @Option(names = "--max-in-flight", paramLabel = "N", order = 80,
            description = "Async drivers: most operations in flight per thread (pipelining); when reached the thread "
                    + "waits and the wait counts in intended. Default: the driver's: 1 for most, so --threads N means "
                    + "N operations in flight at most, as YCSB's threads do; for http, redis and ping, the thread's "
                    + "share of the connections, one in flight on each, so -c N is the concurrency, as wrk's and "
                    + "redis-benchmark's -c.")
    Integer maxInFlight;

    @Option(names = "--cold-start", order = 81,
            description = "Measure from a cold start: do not warm the driver up (connections, JIT) before the first "
                    + "intended start.")
    boolean coldStart;

    @Option(names = "--arrival", paramLabel = "uniform|poisson", defaultValue = "uniform", order = 90,
            description = "Spacing of intended starts: evenly (uniform) or exponential gaps with the same mean (poisson). "
                    + "Default: ${DEFAULT-VALUE}.")
    Arrival arrival;

    @Option(names = "--wait", paramLabel = "adaptive|park|spin|hybrid", defaultValue = "adaptive", order = 100,
            description = "How a worker waits for its next intended start: adaptive (park until a margin learned "
                    + "from the wake-ups' lateness, then spin), park (sleep), spin (burn a core), "
                    + "hybrid (park, then spin the last 100us). Default: ${DEFAULT-VALUE}.")
    WaitStrategy waitStrategy;

    @Option(names = "--interval", paramLabel = "TIME", converter = DurationConverter.class, order = 110,
            description = "Status line and interval-log period, at least 10ms. Default: the workload's "
                    + "status.interval (YCSB's, in seconds), else 1s.")
    Duration interval;

    @Option(names = "-p", paramLabel = "KEY=VALUE", mapFallbackValue = "", order = 200,
            description = "A workload or driver property, e.g. -p mockdb.delay=4ms or -p recordcount=1000 "
                    + "(overrides -P files).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "-H", paramLabel = "'NAME: VALUE'", order = 201,
            description = "A request header, as wrk's and curl's -H (repeatable): the http driver's http.headers,"
                    + " e.g. -H 'Authorization: Bearer abc'.")
    List<String> headers = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "TIME", order = 202,
            description = "How long an operation may go unanswered before it completes with TIMEOUT, as wrk's"
                    + " --timeout: the driver's DRIVER.timeout (http.timeout, redis.timeout, memcached.timeout, ping.timeout).")
    String timeout;

    @Option(names = "-P", paramLabel = "FILE", order = 210, converter = PropertiesFileConverter.class,
            description = "A properties file (YCSB style): a workload such as workloads/workloada, driver properties, "
                    + "or both; repeatable (redis-benchmark's -P, its pipeline, is --max-in-flight here).")
    List<Path> propertyFiles = new ArrayList<>();

    @Option(names = "-t", order = 220,
            description = "YCSB's transaction-phase flag: 'run' and 'sweep' are that phase, so it changes nothing"
                    + " (wrk's -t, its threads, is --threads here).")
    boolean ycsbTransactions;

    @Option(names = "-load", order = 221, description = "YCSB's load-phase flag: 'load' is that phase, so it changes "
            + "nothing there (elsewhere it is refused: use 'loadgen load').")
    boolean ycsbLoad;

    /** YCSB's status flag: YCSB's status line ({@code --status ycsb}); an explicit {@code --status} wins. */
    @Option(names = "-s", order = 222,
            description = "YCSB's status flag: YCSB's status line, as --status ycsb (a status line is printed every"
                    + " --interval anyway; -q hides it).")
    boolean ycsbStatus;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** {@code run}'s URL argument, the http driver's {@code http.url}; null when not given. */
    String url;

    private Map<String, String> all;
    private YcsbClientProperties.Translation ycsb;
    private boolean warned;
    /** Which -P file each property came from (absent: -p, or a phases file, which names itself). */
    private final Map<String, Path> fileOf = new LinkedHashMap<>();
    private Map<String, String> base = Map.of();
    private Integer defaultThreads;
    private WorkloadOptions workload;
    private Shard resolvedShard;
    private boolean splitKeys;

    /** Properties and a thread count from a phased YAML workload: under -P and -p, and under --threads. */
    void defaults(Map<String, String> properties, int threads) {
        this.base = properties;
        this.defaultThreads = threads;
        this.all = null;
    }

    /**
     * A builder holding every workload option; the caller adds rate, length, log and seed, then builds.
     * Properties that are YCSB workload properties ({@code recordcount}, {@code readproportion}, ...) make a
     * workload ({@link #workload()}); the rest go to the driver, which rejects any it does not know.
     */
    RunOptions.Builder builder() {
        Map<String, String> props = properties();
        warnOfNoEffect();
        workload = WorkloadOptions.hasWorkloadKeys(props) ? workload(props) : null;
        if (workload != null && resolvedShard != null) {
            props = shardOf(props);
            workload = workload(props);
        }
        int n = threads != null ? threads : wholeRunThreads();
        return RunOptions.builder(driver)
                .properties(workload != null ? WorkloadOptions.remaining(props) : props)
                .effectiveProperties(props)
                .threads(n)
                .warmup(warmup)
                .arrival(arrival)
                .waitStrategy(waitStrategy)
                .interval(interval != null ? interval : ycsb.statusInterval().orElse(DEFAULT_INTERVAL))
                .operation(operation)
                .maxInFlight(maxInFlight)
                .maxErrorRate(maxErrorRate)
                .coldStart(coldStart)
                .shard(resolvedShard);
    }

    /**
     * The threads when {@code --threads} is not given: the workload's {@code threadcount} or a phases file's
     * {@code threads}, else 1. Like the workload's {@code target} and {@code operationcount} they describe the
     * whole run, so a shard takes its part of them (at least one thread); {@code --threads} is this process's own.
     */
    private int wholeRunThreads() {
        int total = workload != null && workload.threadCount().isPresent() ? workload.threadCount().getAsInt()
                : defaultThreads != null ? defaultThreads : 1;
        return resolvedShard == null ? total : (int) Math.max(1, resolvedShard.share(total));
    }

    /**
     * The rate to run at: the command line's, else the workload file's {@code target}, else none; a shard's part of
     * it when sharded. After {@link #builder}.
     */
    Double rate(Double commandLine) {
        Double total = commandLine != null || workload == null || workload.target().isEmpty() ? commandLine
                : Double.valueOf(workload.target().getAsDouble());
        if (total == null || resolvedShard == null) {
            return total;
        }
        return resolvedShard.rate(total);
    }

    /** A phased workload's rates, or a shard's part of them when sharded. After {@link #shard}. */
    RateProfile rates(RateProfile total) {
        return resolvedShard == null ? total : resolvedShard.rates(total);
    }

    /** {@code --operations}: the total, or a shard's part of it when sharded. After {@link #shard}. */
    Long operations(Long total) {
        if (total == null || resolvedShard == null) {
            return total;
        }
        return share("--operations " + total, total);
    }

    /**
     * Which shard this run is, from {@code --shard I/N}, else from {@code JOB_COMPLETION_INDEX} with {@code --shards}
     * or {@code LOADGEN_SHARDS} in {@code env}; null for a whole run. {@code keys}: the shard also takes its slice of
     * the key range ({@code load}). Call first in a command, before {@link #builder}.
     *
     * @throws BadInputException for an index not below the count, a count below 1, or an index without a count
     */
    Shard shard(Map<String, String> env, boolean keys) {
        splitKeys = keys;
        String index = env.get(INDEX_ENV);
        String count = env.get(COUNT_ENV);
        if (shard != null) {
            resolvedShard = Shard.parse(shard);
            if (shards != null && shards != resolvedShard.count()) {
                throw new BadInputException("--shard " + shard + " and --shards " + shards + " disagree on the count;"
                        + " give one of them");
            }
        } else if (index != null) {
            String n = shards != null ? shards.toString() : count;
            if (n == null) {
                throw new BadInputException(INDEX_ENV + "=" + index + " is set (a Kubernetes Indexed Job) but not the"
                        + " shard count: give --shards N or set " + COUNT_ENV + "=N (the Job's completions)");
            }
            try {
                resolvedShard = new Shard(envNumber(INDEX_ENV, index), shards != null ? shards : envNumber(COUNT_ENV, n));
            } catch (BadInputException e) {
                throw new BadInputException(INDEX_ENV + "=" + index + " with " + n + " shard(s): " + e.getMessage(), e);
            }
        } else if (shards != null || count != null) {
            throw new BadInputException((shards != null ? "--shards " + shards : COUNT_ENV + "=" + count)
                    + " gives a shard count but no index: give --shard I/N, or run where " + INDEX_ENV
                    + " is set (a Kubernetes Indexed Job)");
        }
        return resolvedShard;
    }

    /**
     * One line on stderr naming this shard's part of the run: its rate, operation count and, for {@code load}, its
     * keys. Nothing for a whole run. After {@link #builder}.
     */
    void announceShard(RunOptions options) {
        announceShard(options.rateProfile() != null ? "phases, mean " + opsPerSec(options.targetOpsPerSec())
                : options.throttled() ? opsPerSec(options.targetOpsPerSec()) : "unthrottled", options.operations());
    }

    /** The same for a sweep: {@code target} names the shard's rates. */
    void announceShard(String target, long operations) {
        if (resolvedShard == null) {
            return;
        }
        String keys = splitKeys && workload != null ? ", keys [" + workload.insertStart() + ", "
                + (workload.insertStart() + workload.insertCount()) + ")" : "";
        command.commandLine().getErr().println("loadgen: shard " + resolvedShard.index() + " of "
                + resolvedShard.count() + ": target " + target + ", operations "
                + (operations == 0 ? "unbounded" : Long.toString(operations)) + keys);
    }

    /** A rate for the shard's line, e.g. {@code 2500 ops/s} or {@code 833.333 ops/s}. */
    static String opsPerSec(double rate) {
        return (rate == Math.rint(rate) ? Long.toString((long) rate) : String.format(Locale.ROOT, "%.3f", rate))
                + " ops/s";
    }

    /** This shard's part of {@code workload}'s {@code operationcount} and, for {@code load}, of its keys. */
    private Map<String, String> shardOf(Map<String, String> props) {
        Map<String, String> p = new LinkedHashMap<>(props);
        if (workload.operationCount() > 0) {
            p.put("operationcount", Long.toString(share("operationcount " + workload.operationCount(),
                    workload.operationCount())));
        }
        if (splitKeys) {
            long count = share("insertcount " + workload.insertCount(), workload.insertCount());
            p.put("insertstart", Long.toString(resolvedShard.start(workload.insertStart(), workload.insertCount())));
            p.put("insertcount", Long.toString(count));
        }
        return p;
    }

    /** The shard's part of {@code total}; refused when some shard would get none (0 would mean no limit). */
    private long share(String what, long total) {
        if (total > 0 && total < resolvedShard.count()) {
            throw new BadInputException(what + " is fewer than the " + resolvedShard.count() + " shards, so some"
                    + " would get none; give at least one per shard, or fewer shards");
        }
        return resolvedShard.share(total);
    }

    private static int envNumber(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new BadInputException("environment variable " + name + "='" + Limits.quote(value)
                    + "' is not a whole number; set it to one, or give --shard I/N");
        }
    }

    /** The YCSB workload the properties describe, or null when they are all driver properties. After {@link #builder}. */
    WorkloadOptions workload() {
        return workload;
    }

    /**
     * What the run issues: the workload's mix when there is a workload and no {@code --operation}, else
     * null (the single {@code --operation}, or the driver's first). After {@link #builder}.
     */
    OperationPlan plan() {
        return workload != null && operation == null ? CoreWorkloadPlan.run(CoreWorkloadPlan.Config.of(workload)) : null;
    }

    /** A phased workload's properties, then -P files in order, then -p on top. */
    Map<String, String> properties() {
        if (all == null) {
            all = new LinkedHashMap<>(base);
            fileOf.clear();
            for (Path file : propertyFiles) {
                Map<String, String> loaded = load(file);
                all.putAll(loaded);
                loaded.keySet().forEach(k -> fileOf.put(k, file));
            }
            for (Map.Entry<String, String> e : properties.entrySet()) {
                if (e.getKey().isBlank()) {
                    throw new BadInputException("-p '" + Limits.quote(e.getKey() + "=" + e.getValue())
                            + "' has no property name; write -p KEY=VALUE, e.g. -p recordcount=1000");
                }
            }
            all.putAll(properties);
            properties.keySet().forEach(fileOf::remove);
            if (connections != null) {
                all.put(flagKey("-c", connections.toString(), "connections", "connection count", "; leave out -c and give --threads N for"
                        + " N operations in flight"), connections.toString());
            }
            if (url != null) {
                all.put(flagKey(url, url, "url", "URL", ""), url);
            }
            if (!headers.isEmpty()) {
                String joined = headers(headers);
                all.put(flagKey("-H", joined, "headers", "headers", "; only the http driver sends them"), joined);
            }
            if (timeout != null) {
                all.put(flagKey("--timeout", timeout, "timeout", "timeout",
                        "; its own properties ('loadgen drivers') may hold one under another name"),
                        timeout);
            }
            ycsb = YcsbClientProperties.translate(all, passesPropertiesThrough());
            all = new LinkedHashMap<>(ycsb.properties());
        }
        return all;
    }

    /** Whether the driver hands every property on (ycsb, to its binding): then YCSB's keys are not translated. */
    private boolean passesPropertiesThrough() {
        return driver != null && DriverRegistry.all().stream()
                .anyMatch(p -> p.name().equals(driver) && p.passesPropertiesThrough());
    }

    /**
     * Where an operation count that a {@code -P} file set comes from, e.g. {@code operationcount=1000 from
     * workloads/workloadc}; null when no file set {@code key} (it came from {@code -p} or nowhere). After
     * {@link #builder}.
     */
    String fromFile(String key) {
        Path file = fileOf.get(key);
        return file == null || all == null || !all.containsKey(key) ? null : key + "=" + all.get(key) + " from " + file;
    }

    /**
     * Refuses YCSB's {@code -load} flag outside {@code loadgen load} and {@code -t} inside it: each names the
     * other phase. Call first thing in a command.
     */
    void checkYcsbPhase(boolean loadCommand) {
        if (ycsbLoad && !loadCommand) {
            throw new BadInputException("-load is YCSB's load phase: run 'loadgen load' with the same options instead");
        }
        if (ycsbTransactions && loadCommand) {
            throw new BadInputException("-t is YCSB's transaction phase: run 'loadgen run' with the same options"
                    + " instead");
        }
    }

    /**
     * The driver: {@code --driver}, else the one a workload file names ({@code fromFile}); bad input when neither
     * does. Call before anything uses the driver.
     */
    void requireDriver(java.util.Optional<String> fromFile) {
        if (driver == null) {
            driver = fromFile.orElseThrow(() -> new BadInputException("Missing required option: '--driver=NAME'; name"
                    + " the system under test ('loadgen drivers' lists them)"));
        }
    }

    /** One line on stderr, once, naming YCSB's properties that were given and do nothing here. */
    private void warnOfNoEffect() {
        if (warned || ycsb.noEffect().isEmpty()) {
            return;
        }
        warned = true;
        command.commandLine().getErr().println("loadgen: warning: ignoring YCSB properties that have no effect here: "
                + String.join(", ", ycsb.noEffect()) + " (loadgen always records HdrHistograms and prints its own"
                + " summary)");
    }

    /**
     * The driver property a wrk-style flag sets, {@code DRIVER.SUFFIX} ({@code -c}: {@code http.connections},
     * {@code --timeout}: {@code redis.timeout}, {@code -H}: {@code http.headers}); bad input when the driver has
     * none ({@code otherwise} says what to do instead) or when {@code -p} gives the same property another value.
     */
    private String flagKey(String flag, String value, String suffix, String what, String otherwise) {
        String key = driver + "." + suffix;
        boolean has = DriverRegistry.find(driver).properties().stream().anyMatch(s -> s.name().equals(key));
        if (!has) {
            throw new BadInputException(flag + ": driver " + driver + " has no " + what + " (no property " + key + ")"
                    + otherwise);
        }
        String given = properties.get(key);
        if (given != null && !given.equals(value)) {
            throw new BadInputException(flag + (flag.equals(value) ? "" : " " + value) + " and -p " + key + "="
                    + given + " disagree; give one of them");
        }
        return key;
    }

    /** {@code -H}'s headers as {@code http.headers} writes them: {@code Name: value} joined by {@code |}. */
    private static String headers(List<String> given) {
        for (String h : given) {
            if (h.indexOf(':') <= 0 || h.contains("|")) {
                throw new BadInputException("-H '" + Limits.quote(h) + "' is not one 'Name: value' header; give one"
                        + " -H per header, e.g. -H 'Accept: text/plain' -H 'X-Id: 7'");
            }
        }
        return String.join("|", given);
    }

    /**
     * {@code -P FILE}, YCSB's properties file. A number that is no file is redis-benchmark's {@code -P}, its
     * pipeline depth: said so, with loadgen's way to ask for it.
     */
    static final class PropertiesFileConverter implements picocli.CommandLine.ITypeConverter<Path> {
        @Override
        public Path convert(String value) {
            Path file = Path.of(value);
            if (value.matches("\\d+") && !Files.exists(file)) {
                throw new picocli.CommandLine.TypeConversionException("no file '" + value + "': it reads a properties"
                        + " file here (YCSB's -P); for redis-benchmark's pipeline of " + value + " write"
                        + " --max-in-flight " + value + " (operations in flight per thread; with -c, " + value
                        + " x the thread's connections)");
            }
            return file;
        }
    }

    /**
     * The workload the properties describe; a bad value that came from a -P file is named with that file,
     * so "property recordcount must be ..." says where to fix it.
     */
    private WorkloadOptions workload(Map<String, String> props) {
        try {
            return WorkloadOptions.from(props);
        } catch (BadInputException e) {
            for (Map.Entry<String, Path> source : fileOf.entrySet()) {
                if (e.getMessage().startsWith("property " + source.getKey() + " ")
                        || e.getMessage().startsWith("property " + source.getKey() + ":")) {
                    throw new BadInputException("-P " + source.getValue() + ": " + e.getMessage(), e);
                }
            }
            throw e;
        }
    }

    static Map<String, String> load(Path file) {
        Properties p = new Properties();
        // Properties.load(InputStream) reads ISO-8859-1 (and unicode escapes), as YCSB reads its files; a
        // Reader over UTF-8 failed on a Latin-1 byte with "Input length = 1".
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            p.load(in);
        } catch (NoSuchFileException e) {
            throw new BadInputException("-P " + file + ": no such file; give the path of a .properties file");
        } catch (IOException e) {
            throw new BadInputException("-P " + file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : p.stringPropertyNames()) {
            if (k.isBlank() || k.chars().anyMatch(Character::isISOControl)) {
                throw new BadInputException("-P " + file + ": not a properties file (a key is empty or holds control"
                        + " characters: binary?); give a text file of KEY=VALUE lines");
            }
            m.put(k, p.getProperty(k).trim());
        }
        return m;
    }
}
