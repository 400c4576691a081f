package io.loadgen.drivers.groundtruth;

import io.loadgen.core.gate.CompareOptions;
import io.loadgen.core.gate.Estimate;
import io.loadgen.core.compare.CompareRow;
import io.loadgen.core.compare.RunComparison;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.gate.InputPolicy;
import io.loadgen.core.gate.RunIntervals;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.HarnessVerdict;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.wait.WaitStrategy;
import org.junit.jupiter.api.Assumptions;
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
 * a delay uniform in [0, d] (d = 5 ms) plus the park's overshoot e (tens of µs; the workers park too, {@code
 * --wait park}, so that spinning costs no CPU on a shared 2-core machine). The slower store has d = 5.5 ms, so its
 * every percentile q is 1.1 q d + e against q d + e: 10 % higher less the overshoot's share, e.g. p50 (2.5 ms)
 * +9.6 % with e = 0.1 ms. 1,500 ops/s over 12 threads: each thread's operations are 8 ms apart, more than the
 * slower store's longest 5.5 ms, so no thread falls behind and intended latency is the delay plus the harness's
 * own lag. Each run is 8.2 s with its first 0.2 s left out as warm-up (thread start), so it measures 8 s = 12,000
 * operations in 80 intervals of 100 ms (the bootstrap needs 8), 150 operations each. Slot i runs A_i, its twin B_i (same settings,
 * another seed) and the slower C_i at once, so the machine's load falls on all three alike; the pairs are
 * (A_i, B_i) and (A_i, C_i). 60 runs, three at a time, plus one warm-up slot: about 180 s.
 *
 * <p><b>Why 12 threads at 1,500 ops/s, not 48 at 6,000 or 24 at 3,000.</b> Intended latency is the store's delay plus the
 * harness's lag, and three runs of 48 threads at once (144 threads parking and waking 18,000 times a second on 2
 * cores) started their operations up to about 1 ms late at p99 even on an idle machine: a fifth of the 5 ms p99
 * the test reads. Intervals where that lag bunched up widened a run's intended-p99 interval past 0, and the
 * slower store's intended p99 was called slower in only 17 to 19 of 20 pairs in three of five clean-clone CI runs
 * (intervals such as -31.5 to +50.8 %). At half the threads and half the wake-ups, two idle runs of the test
 * called it slower in 20 of 20 (smallest change 6.0 and 6.7 %), with no slot rejected. Runs of 1 s were too short
 * (a stall of a few ms that delays 1 % of a run's operations moves its intended p99 by most of the 10 %), and the
 * runs are 4 s so that each still holds 12,000 operations (the p50 sampling error below). 24 threads at 3,000 ops/s
 * for 4 s then failed two of three clean-clone CI runs (2026-11-27) the same way, intended p99 slower in 17 of
 * 20 pairs, with 2 and 4 slots rejected for lag: three runs of 24 threads still bunched their wake-ups. Halving
 * the threads and the rate again, and doubling the run (8 s: the same 12,000 operations, the same 80 intervals
 * of 150), halves the wake-ups per second once more at the same statistics, for twice the test's time.
 *
 * <p><b>The precondition.</b> The analytic answer holds only while the harness keeps the schedule. On a machine
 * shared with other builds a stall of tens of ms now and then delays a whole interval's operations; that is the
 * machine's latency, not the store's, and it widens that run's interval (it can turn slower into same, never same
 * into slower). A slot where more than 0.5 % of a run's operations started more than 2 ms late, or where the
 * hiccup meter saw the machine stall longer than the store's whole delay range (5 ms), is not used:
 * another slot is run, at most 12 more in all; the count is printed. A machine
 * that stalls the harness in more than 12 of 32 slots cannot give the analytic answer: then the test is aborted
 * (skipped, saying so and naming the lags seen), not failed, since the precondition of its ground truth is false
 * (under other builds' load, load average 4-6 on 2 cores, the slower store's intended p99 was called same in 9 of
 * 20 pairs, each of the intervals as wide as the machine's stalls made it).
 *
 * <p><b>Why 19 of 20.</b> With 12,000 operations the p50 of a uniform delay has a standard error of
 * sqrt(0.25 / 12,000) d = 0.0046 d, 0.9 % of p50, so the change between two runs has sd 1.3 % (p90 0.4 %, p99 0.1 %)
 * before the machine's own noise: a twin pair reaches the 5 % --min-change at p50 only beyond 3.8 sd, and a slower
 * pair (+9.6 %) falls below 5 % only beyond 3.5 sd the other way; the machine's own run-to-run noise (measured:
 * |change| p95 of 4.3 % at p50 for 1 s twins, most of it the park's overshoot differing between runs) is what
 * the margin is for. If a row's
 * verdict is wrong with probability p per pair, 2 or more wrong in 20 has probability about 190 p^2: 0.5 % at
 * p = 0.5 %, 2 % at p = 1 %; so at most one wrong verdict in 20 is allowed.
 *
 * <p><b>The rows asserted</b>: intended and service p50, p90 and p99 (same for twins, slower for the slower store),
 * and throughput (same in both: the schedule, not the store, sets an open-loop run's rate while the store keeps
 * up). p99.9 rests on twelve operations a run (judged, but its interval is as wide as a stall makes it: not asserted) and max is never judged. The test prints
 * the counts, each row's run-to-run spread (the 95th percentile of |change| over the twins, which set --min-change's
 * default) and how the twins fare with no --min-change (significance alone).
 */
class CompareGroundTruthTest {
    private static final int PAIRS = 20;
    private static final double RATE = 1500;
    private static final int THREADS = 12;
    private static final int AT_ONCE = 3;
    /** Slots run again because a harness fell behind: at most 12 (about 100 s more). */
    private static final int RETRIES = 12;
    private static final String D = "5ms";
    private static final String D11 = "5500us";
    private static final List<String> LATENCY_ROWS = List.of("intended p50", "intended p90", "intended p99",
            "service p50", "service p90", "service p99");

    @TempDir
    Path dir;

    /** A run's log, and whether its harness kept the schedule (its verdict is healthy). */
    private record Run(Path hlog, boolean healthy, double lagP99Us, String why) {
    }

    private Run run(String name, String delay, long seed) throws Exception {
        Path hlog = dir.resolve(name + ".hlog");
        RunOptions options = RunOptions.builder("mockdb").property("mockdb.delay", delay)
                .property("mockdb.randomize", "true").target(RATE).threads(THREADS)
                .duration(Duration.ofMillis(8200)).warmup(Duration.ofMillis(200)).interval(Duration.ofMillis(100))
                .waitStrategy(WaitStrategy.PARK).hlog(hlog).seed(seed).build();
        RunResult result = new LoadRun(options, DriverRegistry.find("mockdb"), null).run();
        HarnessVerdict verdict = result.health().verdict();
        // The harness kept the schedule: at most 0.5 % of the operations (60 of 12,000) started more than 2 ms (40 % of
        // the store's whole delay range) late. Beyond that a stall of the shared machine, not the store, sets the run's
        // intended tail. The diagnosis may still name harness_stalled for lags well under that: the verdict is
        // printed, not required (it rejected 13 slots in a row in one clean-clone CI run whose lags were all below
        // 1.1 ms); a bound at p99.9 likewise rejected every slot in the full suite.
        // Nor did the machine stall for longer than the store's whole delay range (5 ms) while the run went on: such a
        // stall, caught by the hiccup meter, lengthens the operations whose store delay (a park) it fell in, which
        // lag does not see, and it set one pair's intended and service p99 intervals to -10 to +29 % in a run that
        // the lag bound alone had accepted.
        org.HdrHistogram.Histogram hiccups = result.health().hiccups();
        boolean kept = result.lag().getValueAtPercentile(99.5) <= 2_000_000
                && (hiccups == null || hiccups.getMaxValue() <= 5_000_000);
        return new Run(hlog, kept, result.lag().getValueAtPercentile(99) / 1e3,
                verdict == null || verdict.healthy() ? "" : verdict.text());
    }

    private static RunIntervals read(Path hlog) throws Exception {
        return RunIntervals.read(List.of(hlog), w -> { }, InputPolicy.STRICT);
    }

    private static Map<String, CompareRow> rows(Path base, Path cand) throws Exception {
        return rows(base, cand, CompareOptions.DEFAULTS);
    }

    private static Map<String, CompareRow> rows(Path base, Path cand, CompareOptions options) throws Exception {
        Map<String, CompareRow> byName = new LinkedHashMap<>();
        for (CompareRow row : RunComparison.compare(read(base), read(cand), options).rows()) {
            byName.put((row.view().equals("-") ? "" : row.view() + " ") + row.stat(), row);
        }
        return byName;
    }

    @Test
    void twinRunsAreSameAndATenPercentSlowerStoreIsSlower() throws Exception {
        List<Map<String, CompareRow>> same = new ArrayList<>();
        List<Map<String, CompareRow>> slower = new ArrayList<>();
        List<Map<String, CompareRow>> sameNoMinimum = new ArrayList<>();
        int retries = 0;
        StringBuilder rejected = new StringBuilder();
        ExecutorService pool = Executors.newFixedThreadPool(AT_ONCE);
        try {
            // One triple first, not counted: a cold JVM compiles the recording path during its first runs.
            for (Future<Run> f : List.of(pool.submit(() -> run("warm-a", D, 1)), pool.submit(() -> run("warm-b", D, 2)),
                    pool.submit(() -> run("warm-c", D11, 3)))) {
                f.get();
            }
            // Slot i runs A_i, its twin B_i and the slower C_i at once, so the machine's load falls on all three
            // alike. A slot where a harness fell behind (the machine, shared with other builds, stalled it: then
            // intended latency is the machine's, not the store's, and the analytic answer does not hold) is run
            // again, at most RETRIES times in all; beyond that the test is aborted (see the class comment).
            List<Path[]> slots = new ArrayList<>();
            for (int i = 0; i < PAIRS; i++) {
                long seed = 1000L + 3 * i;
                String n = Integer.toString(i);
                List<Future<Run>> f = List.of(pool.submit(() -> run("a" + n, D, seed)),
                        pool.submit(() -> run("b" + n, D, seed + 1)), pool.submit(() -> run("c" + n, D11, seed + 2)));
                Run[] r = {f.get(0).get(), f.get(1).get(), f.get(2).get()};
                if (!(r[0].healthy() && r[1].healthy() && r[2].healthy())) {
                    rejected.append(String.format(Locale.ROOT, " %.0f/%.0f/%.0f%s", r[0].lagP99Us(), r[1].lagP99Us(),
                            r[2].lagP99Us(), retries == 0 ? " [" + r[0].why() + r[1].why() + r[2].why() + "]" : ""));
                    Assumptions.assumeTrue(retries < RETRIES, "the machine stalled the harness in more than " + RETRIES
                            + " slots (lag p99.5 above 2 ms, or a hiccup above 5 ms; lag p99 in us of the rejected"
                            + " slots:" + rejected + "): the analytic answer does not hold on it now; run this test on"
                            + " an idle machine");
                    retries++;
                    i--;
                    continue;
                }
                slots.add(new Path[]{r[0].hlog(), r[1].hlog(), r[2].hlog()});
            }
            CompareOptions noMinimum = new CompareOptions(CompareOptions.DEFAULTS.resamples(),
                    CompareOptions.DEFAULTS.level(), CompareOptions.DEFAULTS.seed(), 0);
            for (int i = 0; i < PAIRS; i++) {
                Path[] slot = slots.get(i);
                same.add(rows(slot[0], slot[1]));
                slower.add(rows(slot[0], slot[2]));
                sameNoMinimum.add(rows(slot[0], slot[1], noMinimum));
            }
        } finally {
            pool.shutdownNow();
        }
        StringBuilder report = new StringBuilder();
        for (String row : concat(LATENCY_ROWS, "throughput")) {
            report.append(String.format(Locale.ROOT, "%-13s twins same %2d/20 (|change| p95 %.1f %%, max %.1f %%;"
                            + " same without --min-change %2d/20); slower store slower %2d/20, same %2d/20"
                            + " (change min %.1f %%)%n", row,
                    count(same, row, CompareRow.Verdict.SAME), p95Abs(same, row), maxAbs(same, row),
                    count(sameNoMinimum, row, CompareRow.Verdict.SAME),
                    count(slower, row, CompareRow.Verdict.SLOWER), count(slower, row, CompareRow.Verdict.SAME),
                    minChange(slower, row)));
        }
        for (String row : concat(LATENCY_ROWS, "throughput")) {
            for (int i = 0; i < PAIRS; i++) {
                for (Map<String, CompareRow> pair : List.of(same.get(i), slower.get(i))) {
                    CompareRow r = pair.get(row);
                    boolean expected = r.verdict() == (pair == same.get(i) || row.equals("throughput")
                            ? CompareRow.Verdict.SAME : CompareRow.Verdict.SLOWER);
                    if (!expected) {
                        report.append(String.format(Locale.ROOT, "  pair %d %s %s: %s %s -> %s%n", i,
                                pair == same.get(i) ? "twins" : "slower", row, r.verdictText(0.95),
                                Estimate.changeText(r.estimate().change()), r.intervalText()));
                    }
                }
            }
        }
        report.append("slots run again because a harness fell behind: ").append(retries)
                .append(retries > 0 ? " (their lag p99 in us:" + rejected + ")" : "").append('\n');
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
