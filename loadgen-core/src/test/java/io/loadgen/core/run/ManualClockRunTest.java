package io.loadgen.core.run;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.record.View;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Whole runs on a {@link SteppedClock}: the driver moves a manual clock by each operation's latency and
 * the aggregator closes every interval exactly where the schedule of boundaries says, so the intervals,
 * the warm-up cut, the totals, the interval log and the status lines are asserted exactly.
 */
class ManualClockRunTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    /**
     * One thread, unthrottled, 450 operations of exactly 1 ms; operation k (its key number) fails with ERROR
     * when k % 10 == 0. Intervals of 100 ms, warm-up 150 ms.
     *
     * <p>The clock starts at 0 and t0 is 20 ms (the start lead); an unthrottled worker starts at once, so op
     * k runs from k ms to k + 1 ms, that is from t0 - 20 ms + k ms. Interval ends, from t0: 100 ms (the
     * interval), 150 ms (the warm-up's end: no interval straddles it), 200, 300, 400 ms (every interval from
     * t0), and the last at 430 ms, when the 450th op ends: partial, 30 ms of a 100 ms interval. An interval
     * ending at E holds the ops that ended before it, k + 1 - 20 < E: 119, 50, 50, 100, 100 and 31 ops.
     * Failures among ops k in [a, b): the multiples of 10: 12 (0..110), 5 (120..160), 5 (170..210), 10, 10,
     * 3 (420, 430, 440). The summary holds the measured intervals from 150 ms on: 50 + 100 + 100 + 31 = 281
     * ops, 5 + 10 + 10 + 3 = 28 failed, over 430 - 150 = 280 ms.
     */
    @Test
    void intervalsWarmupCutTotalsAndStatusLinesAreExact() throws Exception {
        SteppedClock stepped = new SteppedClock(100 * MS, 150 * MS, 200 * MS, 300 * MS, 400 * MS);
        FunctionDriver driver = new FunctionDriver(op -> {
            stepped.advanceTo(stepped.offsetNs() + MS);
            return op.keyNumber() % 10 == 0 ? Status.ERROR : Status.OK;
        });
        Path log = dir.resolve("stepped.hlog");
        RunOptions options = RunOptions.builder("function").threads(1).operations(450L)
                .interval(Duration.ofMillis(100)).warmup(Duration.ofMillis(150)).hlog(log)
                .status(StatusFormat.YCSB).build();
        ByteArrayOutputStream status = new ByteArrayOutputStream();
        RunResult r;
        try (PrintStream out = new PrintStream(status, true, StandardCharsets.UTF_8)) {
            r = new LoadRun(options, driver, null, out, stepped.clock).addSink(stepped).run();
        }

        assertEquals(List.of(
                new SteppedClock.Closed(0, 100 * MS, false, false, 119, 12),
                new SteppedClock.Closed(100 * MS, 150 * MS, false, false, 50, 5),
                new SteppedClock.Closed(150 * MS, 200 * MS, true, false, 50, 5),
                new SteppedClock.Closed(200 * MS, 300 * MS, true, false, 100, 10),
                new SteppedClock.Closed(300 * MS, 400 * MS, true, false, 100, 10),
                new SteppedClock.Closed(400 * MS, 430 * MS, true, true, 31, 3)), stepped.closed());

        OpResult read = r.operations().get(0);
        assertEquals(281, read.count());
        assertEquals(28, read.statusCount(Status.ERROR));
        assertEquals(253, read.statusCount(Status.OK));
        assertEquals(280 * MS, r.runTimeNs(), "measured from the warm-up's end to the last interval's end");
        long oneMs = Histograms.newHistogram().highestEquivalentValue(MS);
        assertEquals(253, read.histogram(View.INTENDED).getCountAtValue(MS), "every success took 1 ms");
        assertEquals(oneMs, read.histogram(View.SERVICE).getMaxValue());
        assertEquals(28, read.failedHistogram(View.SERVICE).getTotalCount());

        // The log holds every interval, warm-up included, with the same boundaries (start and length in s,
        // as written) and counts.
        List<String> service = new ArrayList<>();
        for (String line : java.nio.file.Files.readAllLines(log)) {
            if (line.startsWith("Tag=READ.service,")) {
                String[] f = line.split(",");
                service.add(f[1] + "+" + f[2]);
            }
        }
        assertEquals(List.of("0.000+0.100", "0.100+0.050", "0.150+0.050", "0.200+0.100", "0.300+0.100",
                "0.400+0.030"), service);
        Map<String, Histogram> logged = LoadRunTest.readLog(log);
        assertEquals(405, logged.get("READ.service").getTotalCount(), "every success, warm-up included");
        long[] statuses = StatusTags.counts(logged.get("READ.status"));
        assertEquals(405, statuses[Status.OK.ordinal()]);
        assertEquals(45, statuses[Status.ERROR.ordinal()]);

        // Status lines: the rate of full intervals, each type's returns on every line, no rate for the tail.
        String[] lines = status.toString(StandardCharsets.UTF_8).split("\\R");
        assertTrue(lines[0].startsWith("loadgen: no --target"), lines[0]);
        assertEquals(7, lines.length, String.join("\n", lines));
        // 1 ms in µs as the histogram holds it: the bucket's highest (Max, percentiles), lowest (Min) and
        // middle (what the mean is made of) equivalent values: 1000, 999 and 1000.19.
        Histogram shape = Histograms.newHistogram();
        String oneMsBlock = "Count=107, Max=" + shape.highestEquivalentValue(MS) / 1000 + ", Min="
                + shape.lowestEquivalentValue(MS) / 1000 + ", Avg="
                + Math.round(shape.medianEquivalentValue(MS) / 10.0) / 100.0 + ", 50=" + oneMs / 1000 + ", ";
        assertTrue(lines[1].contains(" 0 sec: 119 operations; 1190 current ops/sec; est completion in 0 seconds "
                + "[READ: " + oneMsBlock), lines[1]);
        assertTrue(lines[1].contains("[Intended-READ: " + oneMsBlock), lines[1]);
        assertTrue(lines[1].endsWith("[READ returns: 107 OK, 12 ERROR]"), lines[1]);
        assertTrue(lines[2].contains(" 0 sec: 169 operations; 1000 current ops/sec;"), lines[2]);
        assertTrue(lines[2].endsWith("[READ returns: 45 OK, 5 ERROR]"), lines[2]);
        assertTrue(lines[4].contains(" 0 sec: 319 operations; 1000 current ops/sec;"), lines[4]);
        assertTrue(lines[6].contains(" 0 sec: 450 operations; 31 operations in the final 0.03 s (partial interval);"
                + " [READ: Count=28,"), lines[6]);
        assertTrue(!lines[6].contains("ops/sec"), "the tail is not a rate: " + lines[6]);
        assertTrue(lines[6].endsWith("[READ returns: 28 OK, 3 ERROR]"), lines[6]);
    }

    /**
     * A sink cannot change what the next one reads: the snapshot's histograms refuse every change. The
     * sink that tries is dropped; the totals (a later sink would see the same) are intact. 1 thread, 250
     * ops of 1 ms, 100 ms intervals: all 250 are counted.
     */
    @Test
    void aSinkCannotCorruptTheSnapshotForTheOthers() throws Exception {
        SteppedClock stepped = new SteppedClock(100 * MS, 200 * MS);
        FunctionDriver driver = new FunctionDriver(op -> {
            stepped.advanceTo(stepped.offsetNs() + MS);
            return Status.OK;
        });
        AtomicReference<RuntimeException> refused = new AtomicReference<>();
        List<Long> seenAfter = new ArrayList<>();
        RunOptions options = RunOptions.builder("function").threads(1).operations(250L)
                .interval(Duration.ofMillis(100)).build();
        RunResult r = new LoadRun(options, driver, null, null, stepped.clock)
                .addSink(s -> {
                    try {
                        s.operations().get(0).intended().reset();
                    } catch (RuntimeException e) {
                        refused.set(e);
                    }
                    s.byTag().get("READ.service").add(s.byTag().get("READ.service")); // throws: the sink is dropped
                })
                .addSink(s -> seenAfter.add(s.operations().get(0).intended().getTotalCount()))
                .addSink(stepped).run();
        assertTrue(refused.get() instanceof UnsupportedOperationException, String.valueOf(refused.get()));
        assertEquals(250, r.operations().get(0).count());
        assertEquals(250, r.operations().get(0).histogram(View.SERVICE).getTotalCount());
        // Ops end at 1..250 ms from clock 0, so before t0 + 100 ms (120 ms) 119, then 100, then 31.
        assertEquals(List.of(119L, 100L, 31L), seenAfter);
        Histogram copy = r.operations().get(0).histogram(View.SERVICE).copy();
        copy.reset(); // totals and copies are ordinary histograms
        assertThrows(UnsupportedOperationException.class,
                () -> new SealedHistogram(Histograms.newHistogram()).seal().recordValue(1));
    }
}
