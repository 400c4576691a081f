package io.loadgen.drivers.groundtruth;

import io.loadgen.core.compare.CompareOptions;
import io.loadgen.core.compare.CompareRow;
import io.loadgen.core.compare.RunComparison;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.gate.InputPolicy;
import io.loadgen.core.gate.RunIntervals;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code loadgen compare}'s verdicts on real runs whose answer is known: two runs of one configuration are
 * {@code same}, and a store 10 % slower is {@code slower}, in at least 19 of 20 pairs.
 *
 * <p><b>The runs.</b> mockdb with {@code mockdb.delay=5ms} and {@code mockdb.randomize=true}: each operation takes
 * a delay uniform in [0, d] (d = 5 ms) plus the timer's overshoot e (tens of µs). The slower store has d = 5.5 ms,
 * so its every percentile q is 1.1 q d + e against q d + e: 10 % higher, less the overshoot's share, e.g. p50
 * (2.5 ms) +9.6 % with e = 0.1 ms. 10,000 ops/s over 80 threads: each thread's operations are 8 ms apart, more than
 * the slower store's longest 5.5 ms, so no thread falls behind and intended latency is the delay (plus the
 * harness's own lag). Each run is 1.2 s with its first 0.2 s left out as warm-up (thread start, the JIT), so it
 * measures 1 s = 10,000 operations in 20 intervals of 50 ms (the bootstrap needs 8). Triple i runs baseline A_i,
 * its twin B_i (same settings, another seed) and the slower C_i at once, so the machine's load falls on all three
 * alike; pairs are (A_i, B_i) and (A_i, C_i).
 *
 * <p><b>Why 19 of 20.</b> With 10,000 operations the p50 of a uniform delay has a standard error of
 * sqrt(0.25 / 10,000) d = 0.005 d, 1 % of p50, so the change between two runs has sd 1.4 % (p90 0.5 %, p99 0.1 %,
 * before the machine's own noise): a same pair reaches the 5 % --min-change at p50 only beyond 3.5 sd (one in
 * 4,000), and a slower pair (+9.6 %) falls below 5 % only beyond 3.3 sd the other way. If a row's verdict is wrong
 * with probability p per pair, 2 or more wrong in 20 has probability about 190 p^2: 2 % at p = 1 %, which the
 * machine's noise (a stalled harness in one run) may reach; so at most one wrong verdict in 20 is allowed.
 *
 * <p><b>The rows asserted</b>: intended and service p50, p90 and p99 (same for twins, slower for the slower store),
 * and throughput (same in both: the schedule, not the store, sets an open-loop run's rate while the store keeps
 * up). p99.9 rests on ten operations a run (too few samples: unknown) and max is never judged.
 */
class CompareGroundTruthTest {
    private static final int PAIRS = 20;
    private static final double RATE = Double.parseDouble(System.getProperty("cmp.rate", "6000"));
    private static final int THREADS = Integer.getInteger("cmp.threads", 80);
    private static final int AT_ONCE = Integer.getInteger("cmp.parallel", 3);
    private static final String D = System.getProperty("cmp.d", "10ms");
    private static final String D11 = System.getProperty("cmp.d11", "11ms");
    private static final List<String> LATENCY_ROWS = List.of("intended p50", "intended p90", "intended p99",
            "service p50", "service p90", "service p99");

    @TempDir
    Path dir;

    private Path run(String name, String delay, long seed) throws Exception {
        Path hlog = dir.resolve(name + ".hlog");
        RunOptions options = RunOptions.builder("mockdb").property("mockdb.delay", delay)
                .property("mockdb.randomize", "true").target(RATE).threads(THREADS)
                .duration(Duration.ofMillis(1200)).warmup(Duration.ofMillis(200)).interval(Duration.ofMillis(50))
                .hlog(hlog).seed(seed).build();
        new LoadRun(options, DriverRegistry.find("mockdb"), null).run();
        return hlog;
    }

    private static RunIntervals read(Path hlog) throws Exception {
        try {
            return RunIntervals.read(List.of(hlog), w -> { }, InputPolicy.STRICT);
        } catch (RuntimeException e) {
            throw new AssertionError(java.nio.file.Files.readString(hlog).lines().filter(l -> l.startsWith("Tag=READ.int")).map(l -> l.substring(0, 40)).toList() + "", e);
        }
    }

    private static Map<String, CompareRow> rows(Path base, Path cand) throws Exception {
        Map<String, CompareRow> byName = new LinkedHashMap<>();
        for (CompareRow row : RunComparison.compare(read(base), read(cand), CompareOptions.DEFAULTS).rows()) {
            byName.put((row.view().equals("-") ? "" : row.view() + " ") + row.stat(), row);
        }
        return byName;
    }

    @Test
    void twinRunsAreSameAndATenPercentSlowerStoreIsSlower() throws Exception {
        List<Map<String, CompareRow>> same = new ArrayList<>();
        List<Map<String, CompareRow>> slower = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(AT_ONCE);
        try {
            // One triple first, not counted: a cold JVM compiles the recording path during its first runs.
            for (Future<Path> f : List.of(pool.submit(() -> run("warm-a", D, 1)),
                    pool.submit(() -> run("warm-b", D, 2)), pool.submit(() -> run("warm-c", D11, 3)))) {
                f.get();
            }
            for (int i = 0; i < PAIRS; i++) {
                long seed = 1000L + 3 * i;
                String n = Integer.toString(i);
                Future<Path> a = pool.submit(() -> run("a" + n, D, seed));
                Future<Path> b = pool.submit(() -> run("b" + n, D, seed + 1));
                Future<Path> c = pool.submit(() -> run("c" + n, D11, seed + 2));
                same.add(rows(a.get(), b.get()));
                slower.add(rows(a.get(), c.get()));
            }
        } finally {
            pool.shutdownNow();
        }
        StringBuilder report = new StringBuilder();
        for (String row : concat(LATENCY_ROWS, "throughput")) {
            report.append(String.format(Locale.ROOT, "%-13s twins same %2d/20 (|change| p95 %.1f %%, max %.1f %%);"
                            + " slower store slower %2d/20, same %2d/20 (change min %.1f %%)%n", row,
                    count(same, row, CompareRow.Verdict.SAME), p95Abs(same, row), maxAbs(same, row),
                    count(slower, row, CompareRow.Verdict.SLOWER), count(slower, row, CompareRow.Verdict.SAME),
                    minChange(slower, row)));
        }
        System.out.print(report);
        for (String row : LATENCY_ROWS) {
            assertTrue(count(same, row, CompareRow.Verdict.SAME) >= 19, row + ": twins\n" + report);
            assertTrue(count(slower, row, CompareRow.Verdict.SLOWER) >= 19, row + ": slower store\n" + report);
        }
        assertTrue(count(same, "throughput", CompareRow.Verdict.SAME) >= 19, "throughput: twins\n" + report);
        assertTrue(count(slower, "throughput", CompareRow.Verdict.SAME) >= 19, "throughput: slower store\n" + report);
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> all = new ArrayList<>(a);
        all.add(b);
        return all;
    }

    private static int count(List<Map<String, CompareRow>> pairs, String row, CompareRow.Verdict verdict) {
        return (int) pairs.stream().filter(p -> p.get(row).verdict() == verdict).count();
    }

    private static double[] absChanges(List<Map<String, CompareRow>> pairs, String row) {
        double[] x = pairs.stream().mapToDouble(p -> Math.abs(p.get(row).estimate().change()) * 100).toArray();
        Arrays.sort(x);
        return x;
    }

    private static double p95Abs(List<Map<String, CompareRow>> pairs, String row) {
        double[] x = absChanges(pairs, row);
        return x[(int) Math.ceil(0.95 * x.length) - 1];
    }

    private static double maxAbs(List<Map<String, CompareRow>> pairs, String row) {
        double[] x = absChanges(pairs, row);
        return x[x.length - 1];
    }

    private static double minChange(List<Map<String, CompareRow>> pairs, String row) {
        return pairs.stream().mapToDouble(p -> p.get(row).estimate().change() * 100).min().orElse(Double.NaN);
    }
}
