package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.schedule.Arrival;
import io.loadgen.core.wait.WaitStrategy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.Callable;

/** {@code loadgen run}: one run of a driver at a target rate; parses options, hands over to {@link RunReporter}. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a driver at a target rate and report latency from each operation's intended start "
                + "(intended) next to its service time (service) and the after-the-fact correction (corrected).",
                "Status goes to stderr every interval; the summary goes to stdout."})
final class RunCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Option(names = {"--driver", "-db"}, required = true, paramLabel = "NAME",
            description = "The system under test: mockdb, stw-mockdb, noop, ... ('loadgen drivers' lists them).")
    String driver;

    @Option(names = {"--target", "-target"}, paramLabel = "OPS",
            description = "Total intended rate in operations/s, split evenly over the threads. "
                    + "Without it the run is unthrottled and no correction is possible.")
    Double target;

    @Option(names = {"--threads", "-threads"}, paramLabel = "N", defaultValue = "1",
            description = "Worker threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--duration", paramLabel = "TIME", converter = DurationConverter.class,
            description = "How long to issue operations, e.g. 60s (default: 10s unless --operations is given).")
    Duration duration;

    @Option(names = "--operations", paramLabel = "N",
            description = "Total operations over all threads; the run ends at this count or --duration, first.")
    Long operations;

    @Option(names = "--warmup", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "0s",
            description = "Leave the first TIME out of the summary (it stays in the interval log). Default: ${DEFAULT-VALUE}.")
    Duration warmup;

    @Option(names = "--operation", paramLabel = "TYPE",
            description = "The operation type to issue, e.g. INSERT or READ (default: the driver's first; "
                    + "'loadgen drivers' lists each driver's). Key numbers run 0, 1, 2, ... across all threads.")
    String operation;

    @Option(names = "--max-in-flight", paramLabel = "N", defaultValue = "1024",
            description = "Async drivers: most operations in flight per thread; when reached the thread waits and "
                    + "the wait counts in intended. Default: ${DEFAULT-VALUE}.")
    int maxInFlight;

    @Option(names = "--arrival", paramLabel = "uniform|poisson", defaultValue = "uniform",
            description = "Spacing of intended starts: evenly (uniform) or exponential gaps with the same mean (poisson). "
                    + "Default: ${DEFAULT-VALUE}.")
    Arrival arrival;

    @Option(names = "--wait", paramLabel = "park|spin|hybrid", defaultValue = "park",
            description = "How a worker waits for its next intended start: park (sleep), spin (burn a core), "
                    + "hybrid (park, then spin the last 100us). Default: ${DEFAULT-VALUE}.")
    WaitStrategy waitStrategy;

    @Option(names = "--interval", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "1s",
            description = "Status line and interval-log period. Default: ${DEFAULT-VALUE}.")
    Duration interval;

    @Option(names = "--hlog", paramLabel = "FILE",
            description = "Write a compressed HdrHistogram interval log (tags READ.intended, READ.service, harness.lag).")
    Path hlog;

    @Mixin
    ReportOptions report;

    @Option(names = "-p", paramLabel = "KEY=VALUE", mapFallbackValue = "",
            description = "A driver property, e.g. -p mockdb.delay=4ms (overrides -P files).")
    Map<String, String> properties = new LinkedHashMap<>();

    @Option(names = "-P", paramLabel = "FILE", description = "A properties file of driver properties (YCSB style); repeatable.")
    List<Path> propertyFiles = new ArrayList<>();


    RunCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        RunOptions options = RunOptions.builder(driver)
                .properties(allProperties())
                .target(target)
                .threads(threads)
                .duration(duration)
                .operations(operations)
                .warmup(warmup)
                .arrival(arrival)
                .waitStrategy(waitStrategy)
                .interval(interval)
                .hlog(hlog)
                .seed(report.seedOrRandom())
                .operation(operation)
                .maxInFlight(maxInFlight)
                .build();
        return new RunReporter(io, report).run(options, null);
    }

    private Map<String, String> allProperties() {
        Map<String, String> all = new LinkedHashMap<>();
        for (Path file : propertyFiles) {
            all.putAll(load(file));
        }
        all.putAll(properties);
        return all;
    }

    static Map<String, String> load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (NoSuchFileException e) {
            throw new BadInputException("-P " + file + ": no such file; give the path of a .properties file");
        } catch (IOException e) {
            throw new BadInputException("-P " + file + ": cannot read it (" + e.getMessage() + ")", e);
        }
        Map<String, String> m = new LinkedHashMap<>();
        for (String k : p.stringPropertyNames()) {
            m.put(k, p.getProperty(k).trim());
        }
        return m;
    }
}
