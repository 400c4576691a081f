package io.loadgen.bench;

import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.IntervalLog;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Writes a synthetic but loadgen-shaped interval log, for benchmarking log readers ({@code loadgen
 * report} against HdrHistogram's {@code HistogramLogProcessor}: {@code bench/report-vs-hlp.sh}).
 *
 * <p>The log is written through loadgen's own {@link IntervalLog} (the same header comments, log format
 * version, StartTime, BaseTime and legend, relative timestamps, max column in ms) into histograms from
 * {@link Histograms#newHistogram()} (1 ns to 1 h, 3 significant digits), one line per tag per interval,
 * in the order the interval sampler writes them. Six tags: {@code READ.intended}, {@code READ.service},
 * {@code UPDATE.intended}, {@code UPDATE.service}, {@code INSERT.intended}, {@code harness.lag}.
 *
 * <p>The model, per one-second interval: each operation type runs on a fixed-rate schedule (READ
 * 2,000/s, UPDATE 1,500/s, INSERT 1,000/s, so 4,500 lag values); service times are log-normal (READ
 * median 350 µs, UPDATE 700 µs, INSERT 900 µs), one in a thousand gets an extra 1–10 ms; the scheduler
 * adds a small log-normal lag (median 15 µs, rare 0.5–5 ms hiccups). About one interval in thirty holds
 * a store stall of 5–250 ms: operations intended during it start when it ends, so their intended latency
 * includes the wait while their service time does not. Intended = service + lag + queueing, never less
 * than service. The interval boundaries drift by a millisecond or two as a real sampler's do.
 * Deterministic for a given seed.
 *
 * <p>Run: {@code java -cp bench/target/benchmarks.jar io.loadgen.bench.SyntheticIntervalLog PATH
 * [SECONDS=3600] [SEED=42]}. Writes PATH.tmp and renames it, so a killed run leaves no partial PATH.
 */
public final class SyntheticIntervalLog {
    /** 2025-11-22T03:46:07.123Z: a fixed StartTime keeps the log byte-identical from run to run. */
    static final long START_MS = 1_763_783_167_123L;

    private static final long MS = 1_000_000L;
    private static final long SEC = 1_000_000_000L;

    /** One operation type: its rate and its service-time body. */
    private record Op(String name, int perSecond, double medianNs, double sigma) {
    }

    private static final Op[] OPS = {
            new Op("READ", 2000, 350_000, 0.45),
            new Op("UPDATE", 1500, 700_000, 0.50),
            new Op("INSERT", 1000, 900_000, 0.55),
    };

    private final SplittableRandom random;
    private final Histogram[] intended = new Histogram[OPS.length];
    private final Histogram[] service = new Histogram[OPS.length];
    private final Histogram lag = Histograms.newHistogram();

    private SyntheticIntervalLog(long seed) {
        this.random = new SplittableRandom(seed);
        for (int o = 0; o < OPS.length; o++) {
            intended[o] = Histograms.newHistogram();
            service[o] = Histograms.newHistogram();
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 3) {
            System.err.println("usage: SyntheticIntervalLog PATH [SECONDS=3600] [SEED=42]");
            System.exit(2);
        }
        Path path = Path.of(args[0]);
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 3600;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 42L;
        long t0 = System.nanoTime();
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        new SyntheticIntervalLog(seed).write(tmp, seconds);
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        System.err.printf("wrote %s: %d intervals x 6 tags, %d bytes, in %.1f s%n", path, seconds,
                Files.size(path), (System.nanoTime() - t0) / 1e9);
    }

    private void write(Path path, int seconds) throws IOException {
        try (IntervalLog log = IntervalLog.open(path)) {
            log.writeHeader(START_MS, List.of(
                    "loadgen interval log: latencies in nanoseconds; the max column is in milliseconds",
                    "run: driver=synthetic target=4500ops/s threads=16 duration=" + seconds + "s operations=-"
                            + " warmup=0s arrival=fixed wait=park interval=1s seed=42",
                    "properties: {}",
                    "operations: READ UPDATE INSERT; tags per operation OP: OP.intended = completion - intended"
                            + " start (what users see); OP.service = completion - actual start (what a synchronous"
                            + " tool reports); harness.lag = actual start - max(intended start, worker free)"
                            + " (the scheduler's own delay; queueing is in intended)"));
            long startMs = START_MS;
            for (int s = 1; s <= seconds; s++) {
                long endMs = START_MS + s * 1000L + random.nextInt(3); // a sampler wakes a little late
                interval();
                for (int o = 0; o < OPS.length; o++) {
                    emit(log, intended[o], OPS[o].name + ".intended", startMs, endMs);
                    if (o < 2) { // six tags: INSERT's service view is left out
                        emit(log, service[o], OPS[o].name + ".service", startMs, endMs);
                    }
                }
                emit(log, lag, "harness.lag", startMs, endMs);
                log.flush();
                startMs = endMs;
            }
        }
    }

    private static void emit(IntervalLog log, Histogram h, String tag, long startMs, long endMs) {
        h.setTag(tag);
        h.setStartTimeStamp(startMs);
        h.setEndTimeStamp(endMs);
        log.write(h);
    }

    /** Fills the histograms with one second of operations. */
    private void interval() {
        for (int o = 0; o < OPS.length; o++) {
            intended[o].reset();
            service[o].reset();
        }
        lag.reset();
        long stallStart = Long.MAX_VALUE;
        long stallEnd = Long.MAX_VALUE;
        if (random.nextInt(30) == 0) {
            stallStart = random.nextLong(SEC);
            stallEnd = stallStart + Math.min(250 * MS, 5 * MS + (long) (8 * MS * Math.exp(random.nextGaussian())));
        }
        for (int o = 0; o < OPS.length; o++) {
            Op op = OPS[o];
            long gap = SEC / op.perSecond;
            double mu = Math.log(op.medianNs);
            for (int i = 0; i < op.perSecond; i++) {
                long intendedStart = i * gap;
                long serviceNs = (long) Math.exp(mu + op.sigma * random.nextGaussian());
                if (random.nextInt(1000) == 0) {
                    serviceNs += MS + random.nextLong(9 * MS);
                }
                long lagNs = (long) (15_000 * Math.exp(0.8 * random.nextGaussian()));
                if (random.nextInt(2000) == 0) {
                    lagNs += MS / 2 + random.nextLong(9 * MS / 2);
                }
                long queuedNs = 0;
                if (intendedStart >= stallStart && intendedStart < stallEnd) {
                    queuedNs = stallEnd - intendedStart; // waits for the store to come back
                } else if (intendedStart < stallStart && intendedStart + serviceNs > stallStart) {
                    serviceNs += stallEnd - stallStart; // in flight when the store stalled
                }
                service[o].recordValue(Histograms.clamp(serviceNs));
                intended[o].recordValue(Histograms.clamp(serviceNs + lagNs + queuedNs));
                lag.recordValue(Histograms.clamp(lagNs));
            }
        }
    }
}
