package io.loadgen.drivers.groundtruth;

import io.loadgen.core.calibrate.GroundTruth;
import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import io.loadgen.drivers.http.HttpTargetServer;
import io.loadgen.drivers.ping.PingProtocol;
import io.loadgen.drivers.ping.PingServer;
import io.loadgen.drivers.redis.RedisServerProcess;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * The diagnosis against real runs whose culprit is known (issue 23): a store that cannot keep up, a store that
 * pauses, a frozen redis-server, an HTTP server that fails every request, too little in flight for the rate, and
 * a healthy run beside a busy neighbour. Each run goes through the real scheduler, workers, recorders and driver;
 * each test asserts the primary cause, that no other cause is named but the ones the scenario allows (above all
 * never the harness: machine_noise is context and always allowed), and the cause's key figures against their
 * analytic value. Every bound is derived in a comment: generous where a busy 2-core machine can only make a
 * figure worse, tight where only arithmetic enters. The targets' latencies are chosen large enough (hundreds
 * of ms where the harness's share is the question) that the harness's wake-ups on a shared VM stay below the
 * diagnosis's 10% materiality; each run prints its evidence and diagnosis to the test's output.
 */
class DiagnosisScenariosTest {
    private static final long MS = 1_000_000L;

    /** A run's result, and the harness's own delay of its operations (which the result does not keep). */
    private record Measured(RunResult result, Histogram harnessDelay) {
        Diagnosis diagnosis() {
            return result.diagnosis();
        }

        /** Every completed operation's latency in {@code view}, successes and failures (as the evidence has it). */
        Histogram all(View view) {
            Histogram h = Histograms.newHistogram();
            for (OpResult op : result.operations()) {
                h.add(op.histogram(view));
                if (op.failedKnown()) {
                    h.add(op.failedHistogram(view));
                }
            }
            return h;
        }

        long completed() {
            return result.operations().stream().mapToLong(OpResult::count).sum();
        }

        double achievedOpsPerSec() {
            return completed() * 1e9 / result.runTimeNs();
        }

        double figure(CauseCode code, String name) {
            Cause c = diagnosis().get(code);
            assertTrue(c != null, code.key() + " is not a cause; " + this);
            Number n = c.figures().get(name);
            assertTrue(n != null, code.key() + " has no figure " + name + "; " + this);
            return n.doubleValue();
        }

        /** The evidence the diagnosis was judged from, for every assertion's message. */
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            sb.append("completed ").append(completed()).append(" in ").append(ms(result.runTimeNs())).append(" ms (")
                    .append(Math.round(achievedOpsPerSec())).append(" ops/s), unissued ").append(result.unissuedOps())
                    .append("; ");
            sb.append(latencies("intended", all(View.INTENDED))).append("; ");
            sb.append(latencies("service", all(View.SERVICE))).append("; ");
            sb.append(latencies("harness delay", harnessDelay)).append("; ");
            Histogram hiccups = result.health().hiccups();
            sb.append("hiccup max ").append(hiccups == null ? "-" : ms(hiccups.getMaxValue())).append(" ms, behind share ")
                    .append(String.format("%.3f", result.health().behindShare())).append(", harness share ")
                    .append(String.format("%.3f", result.health().harnessShare())).append(", gc pause max ")
                    .append(ms(result.health().gcPauseMaxNs())).append(" ms");
            sb.append("\n  causes:");
            for (Cause c : diagnosis().causes()) {
                sb.append("\n    ").append(c.code().key()).append(' ').append(c.figures()).append(": ").append(c.text());
            }
            sb.append("\n  headline: ").append(diagnosis().headline());
            return sb.toString();
        }
    }

    private static String latencies(String name, Histogram h) {
        if (h.getTotalCount() == 0) {
            return name + " (none)";
        }
        return name + " min/p50/mean/p99/p99.9/max " + ms(h.getMinValue()) + "/" + ms(h.getValueAtPercentile(50)) + "/"
                + ms((long) h.getMean()) + "/" + ms(h.getValueAtPercentile(99)) + "/" + ms(h.getValueAtPercentile(99.9))
                + "/" + ms(h.getMaxValue()) + " ms";
    }

    private static double ms(long ns) {
        return Math.round(ns / 1e3) / 1e3;
    }

    /** Runs {@code options} against its driver, keeping the harness's delay of the measured intervals. */
    private static Measured run(RunOptions options, List<Runnable> atIntervalEnds) throws Exception {
        Histogram delay = Histograms.newHistogram();
        AtomicInteger intervals = new AtomicInteger();
        LoadRun run = new LoadRun(options, DriverRegistry.find(options.driver()), null).addSink(s -> {
            if (s.measured() && s.harnessDelay() != null) {
                delay.add(s.harnessDelay());
            }
            int k = intervals.getAndIncrement();
            if (k < atIntervalEnds.size()) {
                atIntervalEnds.get(k).run();
            }
        });
        RunResult r = run.run();
        Measured m = new Measured(r, delay);
        System.out.println("[" + options.driver() + "] " + m); // the report's figures, in the test's output
        return m;
    }

    private static Measured run(RunOptions options) throws Exception {
        return run(options, List.of());
    }

    /** The longest stall the hiccup meter saw, in ms; 0 when it did not measure. */
    private static double hiccupMaxMs(Measured m) {
        Histogram h = m.result().health().hiccups();
        return h == null ? 0 : h.getMaxValue() / 1e6;
    }

    /**
     * Whether the machine itself, as the hiccup meter saw it, stalled long enough to account for {@code c}: a
     * harness_stalled whose blamed delay (its figure at the percentile it names) is no longer than the longest
     * hiccup, or a target_stalled whose slowest answer exceeds the median by no more than it. The hiccup meter is
     * a thread of its own, sleeping 5 ms at a time, apart from the workers, the target and the diagnosis's
     * arithmetic: an independent witness. On the shared 2-core VM the whole machine stops for 50 to 115 ms now
     * and then (measured while other engineers' builds ran); then such a cause is true of the run (the
     * generator's threads, or the target's, were not scheduled), and the scenario's culprit is not the only one.
     * Without that witness the cause is wrong, and the test fails.
     */
    private static boolean witnessed(Measured m, Cause c) {
        double hiccup = hiccupMaxMs(m);
        if (c.code() == CauseCode.HARNESS_STALLED) {
            double blamed = 0;
            for (Map.Entry<String, Number> f : c.figures().entrySet()) {
                if (f.getKey().startsWith("harness_part_p99")) {
                    blamed = f.getValue().doubleValue();
                }
            }
            return blamed > 0 && hiccup >= blamed;
        }
        if (c.code() == CauseCode.TARGET_STALLED) {
            return hiccup >= c.figures().get("service_max_ms").doubleValue() - c.figures().get("service_p50_ms").doubleValue();
        }
        return false;
    }

    /**
     * Asserts the diagnosis: {@code primary} first, then nothing but {@code mayFollow} and machine_noise (context,
     * never blame). A cause the scenario does not expect is tolerated only when {@link #witnessed} (and said in
     * the test's output); so the harness is never blamed in a target's scenario without a machine stall to match.
     */
    private static void assertDiagnosis(Measured m, CauseCode primary, CauseCode... mayFollow) {
        List<CauseCode> expected = new ArrayList<>(List.of(mayFollow));
        expected.add(primary);
        expected.add(CauseCode.MACHINE_NOISE);
        List<Cause> judged = new ArrayList<>();
        for (Cause c : m.diagnosis().causes()) {
            if (!expected.contains(c.code()) && witnessed(m, c)) {
                System.out.println("  (" + c.code().key() + " tolerated: the machine stalled for " + hiccupMaxMs(m)
                        + " ms, the hiccup meter's longest)");
            } else {
                judged.add(c);
            }
        }
        assertFalse(judged.isEmpty(), m.toString());
        assertEquals(primary, judged.get(0).code(), "the primary cause; " + m);
        for (Cause c : judged.subList(1, judged.size())) {
            assertTrue(expected.contains(c.code()) && c.code() != primary, c.code().key() + " is not a cause here; " + m);
        }
        for (Cause c : judged) {
            assertFalse(c.code().blamesHarness(), "the harness is not the culprit; " + m);
        }
        assertTrue(!m.diagnosis().blamesHarness() || judged.size() < m.diagnosis().causes().size(), m.toString());
    }

    /**
     * 1. A store that cannot keep up: mockdb serving C = 500 ops/s one at a time (2 ms a turn), asked for
     * R = 1000 ops/s by 8 blocking threads for 2 s.
     *
     * <p>Throughput: the store is never idle once 8 operations are queued (each thread re-arrives one wake-up
     * after its operation returns, while 7 turns, 14 ms, are queued ahead of it), so it completes exactly one
     * operation per 2 ms: 500 ops/s. Upper bound: it serves at most one per 2 ms over the measured time (which
     * lasts until the last operation returns), plus the first: C + 0.5 ops/s < 1.01 C. Lower bound: it idles only
     * for the first turns (the first 8 operations arrive 1 ms apart, so it is saturated after ~16 ms) and when
     * all 8 threads are absent at once, a wake-up later than 14 ms: 0.9 C allows 200 ms of such idling.
     *
     * <p>Service: in the steady state an operation arrives to find the 7 other threads' turns queued, so it
     * completes 8 turns later: p50 = 8 x 2 ms = 16 ms, minus the wake-up by which it re-arrived late, plus the
     * wake-up overshoot of its own sleep: each a fraction of a millisecond at the median, so [14, 18] ms. The
     * fastest answer is the first operation's, into an idle store: one turn, 2 ms (a sleep never returns early)
     * plus its overshoot; the next ones queue (3, 4, ... ms), so min is in [2, 5) ms. So the median rose
     * 8-fold above the fastest (Diagnoser.FLAT_FACTOR is 2): the store's latency grew under load, and
     * target_slow is named first. Little's law: R x service mean = 1000 x 16 ms = 16 needed > 8 threads, so
     * concurrency_limited may follow, as the secondary "if the store has spare capacity" (it has none).
     *
     * <p>Not a stall: the slowest service time stays near 16 ms, far below 10 medians (160 ms). Not the harness:
     * the k-th operation done was intended at k / R and done at ~k / C, so intended grows by 1/C - 1/R = 1 ms an
     * operation to ~1 s at p99 (~1000 done), while the harness's own delay is its lag (microseconds an operation,
     * summed over a thread's backlog: ~10 ms by the end), about 1% of it; blaming it would take a 100 ms stall.
     */
    @Test
    @Timeout(value = 30, threadMode = SEPARATE_THREAD)
    void aStoreThatCannotKeepUpIsTargetSlow() throws Exception {
        RunOptions.Builder options = RunOptions.builder("mockdb").property("mockdb.capacity", "500")
                .target(1000.0).threads(8).seed(21);
        // A short unmeasured run first, as PingGroundTruthTest does: in a cold JVM each operation's lag is ~1 ms
        // (class loading, the JIT). When the harness's delay through a backlog that never clears was the sum of the
        // lags, a cold CLI run reached 129 ms (12% of intended p99) and named harness_stalled too; it is now the
        // larger of lag and what was carried, and the warm run keeps the scenario about the store alone.
        run(options.duration(Duration.ofMillis(300)).build());
        Measured m = run(options.duration(Duration.ofSeconds(2)).build());
        Diagnosis d = m.diagnosis();
        assertDiagnosis(m, CauseCode.TARGET_SLOW, CauseCode.CONCURRENCY_LIMITED);
        double achieved = m.figure(CauseCode.TARGET_SLOW, "achieved_ops_per_sec");
        assertTrue(achieved >= 0.9 * 500 && achieved <= 1.01 * 500, "throughput ~ capacity 500 ops/s; " + m);
        double p50 = m.figure(CauseCode.TARGET_SLOW, "service_p50_ms");
        assertTrue(p50 >= 14 && p50 <= 18, "service p50 ~ 8 turns x 2 ms = 16 ms; " + m);
        double min = m.figure(CauseCode.TARGET_SLOW, "service_min_ms");
        assertTrue(min >= 2 && min < 5, "the fastest answer is one 2 ms turn; " + m);
        assertTrue(d.get(CauseCode.TARGET_SLOW).text().contains("its latency rose under load"), m.toString());
        if (d.has(CauseCode.CONCURRENCY_LIMITED)) {
            // ceil(1000 ops/s x service mean) with the mean in [14, 18] ms, as p50 (every turn is alike).
            double needed = m.figure(CauseCode.CONCURRENCY_LIMITED, "in_flight_needed");
            assertTrue(needed >= 14 && needed <= 18, "Little's law: 1000 x 16 ms = 16; " + m);
        }
    }

    /**
     * 2. A store that pauses: mockdb with a 1 ms delay that stops for P = 500 ms every 1.5 s (from when it
     * opened), R = 1000 ops/s over 4 threads for 2.5 s: one pause, from ~1.48 to ~1.98 s into the run.
     *
     * <p>Service: an operation that arrives at the pause's start, or whose 1 ms of work ends inside it, returns
     * at its end: the slowest takes P to P + 1 ms, and one arrives within 1/R = 1 ms of the pause's start, so
     * service max is in [P - 1 ms, P + 1 ms], plus that operation's wake-up overshoot (20 ms covers a busy
     * machine). Only one operation per thread is held so (4 of ~2500), so service p50 (and p99) stay the 1 ms
     * delay plus overshoot, [1, 3) ms: the slowest is hundreds of medians, beyond Diagnoser.STALL_FACTOR (10).
     *
     * <p>Intended: the operations due during the pause (a share f = P / 2.5 s = 0.2) wait for its end, P - x
     * for one due x into it, and then for the backlog ahead of them on their thread (x / 4 ms operations at
     * ~1 ms each): P - 0.74 x. So intended p99 >= P (1 - 0.01 / f) = 475 ms (the bound without the backlog,
     * less 3 ms for the store's timer), and <= the first one's wait, P + 1 ms, plus wake-ups (30 ms). The backlog
     * (125 operations a thread) drains at ~950 - 250 ops/s a thread, within ~0.2 s, before the run ends.
     *
     * <p>Little's law must not name concurrency: the service mean is 1 ms + overshoot + the held operations'
     * share (4 x ~500 ms / 2500 = 0.8 ms), so 1000 ops/s x ~2 ms needs 2 in flight, of the 4 threads (3 ms of
     * overshoot per operation, on average, would be needed to reach 5). So the diagnosis is target_stalled
     * alone: not target_slow (the store's latency did not grow), not concurrency.
     *
     * <p>Why so long a pause: the harness is blamed when its own delay is 10% of intended p99 or p99.9, and a
     * busy machine (the shared 2-core VM has shown stalls of 50-70 ms) delays the workers' wake-ups. With P =
     * 500 ms that takes a stall of ~48 ms; with 200 ms it would take 20 ms, which this machine sometimes has.
     */
    @Test
    @Timeout(value = 30, threadMode = SEPARATE_THREAD)
    void aPausingStoreIsTargetStalled() throws Exception {
        Measured m = run(RunOptions.builder("mockdb").property("mockdb.delay", "1ms")
                .property("mockdb.pause.every", "1500ms").property("mockdb.pause.length", "500ms")
                .target(1000.0).threads(4).duration(Duration.ofMillis(2500)).seed(22).build());
        assertEquals(1L, m.result().driverStats().get("pauses").longValue(), "one pause in the run; " + m);
        assertDiagnosis(m, CauseCode.TARGET_STALLED);
        double max = m.figure(CauseCode.TARGET_STALLED, "service_max_ms");
        assertTrue(max >= 499 && max <= 501 + 20, "service max ~ the 500 ms pause; " + m);
        double p50 = m.figure(CauseCode.TARGET_STALLED, "service_p50_ms");
        assertTrue(p50 >= 1 && p50 < 3, "service p50 ~ the 1 ms delay; " + m);
        double intendedP99 = m.figure(CauseCode.TARGET_STALLED, "intended_p99_ms");
        assertTrue(intendedP99 >= GroundTruth.pausePercentile(0.99, 500, 0.2) - 3 && intendedP99 <= 501 + 30,
                "intended p99 in [P (1 - 0.01/f), P + 1 ms]; " + m);
    }

    /**
     * 3. A frozen target: a real redis-server, SIGSTOPped for ~1 s in the middle of a 3 s run of UPDATEs (HSET,
     * OK whether or not the key exists) at R = 250 ops/s from one thread with one operation in flight, and a
     * 10 s command timeout so no operation times out (else TIMEOUT and target_failing would enter).
     *
     * <p>Service: the one operation in flight when the server stops (or the first sent after, within 1/R = 4 ms)
     * is answered once it resumes: service max = F, the freeze's length, within [F - 4 ms, F + 50 ms] (the
     * 50 ms: redis-server and the driver's loop being scheduled again, and the kill commands' own latency, on a
     * busy machine). F is measured around the two kill commands: at least from when the stop's returned to when
     * the continue's began, at most from the stop's start to the continue's end. Every other operation due in
     * the freeze waits in the issuer for the one slot, so it is one slow service time among ~1000: service p99
     * stays a loopback round trip, and max / p50 is thousands (Diagnoser.STALL_FACTOR is 10).
     *
     * <p>Intended: the ~F x R operations due in the freeze (a share f = F / 3 s = 0.33) wait F - x, then the
     * backlog drains at a round trip each: intended p99 >= F (1 - 0.01 / f) - 4 ms = 0.97 F - 4 ms, and at
     * most the first one's wait, F, plus the 100 ms of scheduling slack above.
     *
     * <p>Little's law: R x service mean = 250 x (s + F / 750 ops) = 0.33 + 250 s, at most 1 (one in flight)
     * while a round trip s is under 2.7 ms (it is ~0.1 to 0.3 ms), so concurrency is not named.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void aFrozenRedisServerIsTargetStalled() throws Exception {
        assumeTrue(RedisServerProcess.installed(), "redis-server is not installed");
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try (RedisServerProcess server = RedisServerProcess.start()) {
            AtomicLong stopStartNs = new AtomicLong();
            AtomicLong stopDoneNs = new AtomicLong();
            AtomicLong contStartNs = new AtomicLong();
            AtomicLong contDoneNs = new AtomicLong();
            List<Throwable> failures = new ArrayList<>();
            Runnable freeze = () -> timer.execute(() -> {
                try {
                    stopStartNs.set(System.nanoTime());
                    server.pause();
                    stopDoneNs.set(System.nanoTime());
                    Thread.sleep(1000);
                    contStartNs.set(System.nanoTime());
                    server.resume();
                    contDoneNs.set(System.nanoTime());
                } catch (Exception | AssertionError e) {
                    failures.add(e);
                }
            });
            Runnable nothing = () -> { };
            // Intervals of 500 ms: the freeze starts when the second ends, 1 s into the run, and ends 1 s before it.
            Measured m = run(RunOptions.builder("redis").property("redis.uri", server.uri())
                    .property("redis.timeout", "10s").operation("UPDATE")
                    .target(250.0).threads(1).duration(Duration.ofSeconds(3)).interval(Duration.ofMillis(500))
                    .seed(23).build(), List.of(nothing, freeze));
            timer.shutdown();
            assertTrue(timer.awaitTermination(10, TimeUnit.SECONDS));
            assertEquals(List.of(), failures);
            assertTrue(contDoneNs.get() > 0, "the freeze happened during the run");
            double freezeMinMs = (contStartNs.get() - stopDoneNs.get()) / 1e6;
            double freezeMaxMs = (contDoneNs.get() - stopStartNs.get()) / 1e6;
            String context = "freeze " + freezeMinMs + " to " + freezeMaxMs + " ms; " + m;
            assertEquals(0, m.result().operations().get(0).failures(), "no operation failed or timed out; " + context);
            assertDiagnosis(m, CauseCode.TARGET_STALLED);
            double max = m.figure(CauseCode.TARGET_STALLED, "service_max_ms");
            assertTrue(max >= freezeMinMs - 4 && max <= freezeMaxMs + 50, "service max ~ the freeze; " + context);
            double intendedP99 = m.figure(CauseCode.TARGET_STALLED, "intended_p99_ms");
            double f = freezeMinMs / 3000; // a share 0.33 of the 3 s run: P(1 - 0.01/f) = 0.97 F
            assertTrue(intendedP99 >= GroundTruth.pausePercentile(0.99, freezeMinMs, f) - 4
                            && intendedP99 <= freezeMaxMs + 100,
                    "intended p99 ~ 0.97 F; " + context);
        } finally {
            timer.shutdownNow();
        }
    }

    /**
     * 4. A target that fails every request: the http driver against an in-process HTTP server that answers every
     * request {@code 503 Service Unavailable} after D = 500 ms (a service whose backend times out). One thread,
     * one keep-alive connection pipelining up to 16 requests, R = 20 ops/s for 1.5 s: ~R D = 10 in flight.
     *
     * <p>Every completed operation fails, so the failed share is exactly 1.0, above the default --max-error-rate
     * (10%): target_failing first, and the headline names the failures' status, SERVICE_UNAVAILABLE (the one the
     * run counted most, here the only one). Nothing else is wrong: each answer takes D whatever the load (the
     * server holds each request D from its arrival), 16 slots carry R D = 10, so nothing queues in the issuer.
     * The harness is not blamed unless its own delay reaches 10% of intended p99 or p99.9, ~50 ms: a machine
     * stall that long (the 500 ms answer is what makes the bound sound on a busy machine; against a target
     * answering in a millisecond the harness's wake-ups on this VM are tens of percent of the tail).
     *
     * <p>With --max-error-rate 1.0 (a share is never above it) the same target is not target_failing: ok, with
     * the failures said in the headline.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void aTargetThatFailsEveryRequestIsTargetFailing() throws Exception {
        try (HttpTargetServer server = HttpTargetServer.start(new InetSocketAddress("127.0.0.1", 0),
                HttpTargetServer.Options.DEFAULT.withDelay(Duration.ofMillis(500)))) {
            RunOptions.Builder options = RunOptions.builder("http").property("http.url", server.url("/status/503"))
                    .property("http.pipelining", "16").target(20.0).threads(1).duration(Duration.ofMillis(1500))
                    .seed(24);
            Measured m = run(options.build());
            OpResult get = m.result().operations().get(0);
            assertTrue(get.count() >= 20, "the requests completed, as failures; " + m);
            assertEquals(get.count(), get.statusCount(Status.SERVICE_UNAVAILABLE), "every request failed 503; " + m);
            assertDiagnosis(m, CauseCode.TARGET_FAILING);
            assertEquals(1.0, m.figure(CauseCode.TARGET_FAILING, "failed_share"), 0.0, m.toString());
            assertTrue(m.diagnosis().headline().contains("most were SERVICE_UNAVAILABLE"),
                    "the headline names the top status; " + m);

            Measured allowed = run(options.duration(Duration.ofSeconds(1)).maxErrorRate(1.0).build());
            OpResult again = allowed.result().operations().get(0);
            assertEquals(again.count(), again.failures(), allowed.toString());
            assertDiagnosis(allowed, CauseCode.OK);
            assertTrue(allowed.diagnosis().headline().contains("operations failed (100%, within --max-error-rate 100%)"),
                    allowed.toString());
        }
    }

    /**
     * 5. Too little in flight for the rate: the ping driver against an in-process ping-server holding every reply
     * D = 10 ms, one thread with one operation in flight (--max-in-flight 1), R = 1000 ops/s for 2 s.
     *
     * <p>One in flight carries at most 1 / s ops/s, s the round trip: D plus the server's timer lateness,
     * loopback and two wake-ups (0.6 to 3.5 ms over the delay on the shared 2-core VM, PingGroundTruthTest),
     * so ~80 to 100 ops/s; the rest queue in the issuer (intended grows to seconds) while the server's answer
     * stays flat: service p50 <= 2 x its fastest (both ~D; a reply is never early, so min >= D, and p50 < 2 D
     * while the lateness is under D). Little's law: in flight needed = ceil(R x service mean) = ceil(1000 x
     * 10.x ms), in [10, 14] for a mean in [10, 13.5] ms; concurrency_limited is first, and its text names the
     * async driver's flag --max-in-flight with the per-thread figure.
     */
    @Test
    @Timeout(value = 30, threadMode = SEPARATE_THREAD)
    void tooLittleInFlightForTheRateIsConcurrencyLimited() throws Exception {
        try (PingServer server = PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", 0),
                Duration.ofMillis(10))) {
            Measured m = run(RunOptions.builder("ping").property("ping.port", Integer.toString(server.port()))
                    .target(1000.0).threads(1).maxInFlight(1).duration(Duration.ofSeconds(2)).seed(25).build());
            assertDiagnosis(m, CauseCode.CONCURRENCY_LIMITED);
            Histogram service = m.all(View.SERVICE);
            double needed = m.figure(CauseCode.CONCURRENCY_LIMITED, "in_flight_needed");
            assertEquals(Math.ceil(1000.0 * (long) service.getMean() / 1e9), needed, 0.0,
                    "Little's law from the run's own service mean; " + m);
            assertTrue(needed >= 10 && needed <= 14, "1000 ops/s x 10 ms (+ up to 3.5 ms lateness); " + m);
            assertEquals(1.0, m.figure(CauseCode.CONCURRENCY_LIMITED, "in_flight"), 0.0, m.toString());
            assertTrue(m.diagnosis().get(CauseCode.CONCURRENCY_LIMITED).text().contains("--max-in-flight " + (long) needed + " (per thread; now 1)"),
                    "names the flag to raise; " + m);
            assertTrue(m.achievedOpsPerSec() > 1000 / 13.5 * 0.9 && m.achievedOpsPerSec() <= 100.5,
                    "one in flight carries ~1/s ops/s; " + m);
        }
    }

    /**
     * 6. A healthy run beside a busy neighbour: mockdb with a D = 200 ms delay, 32 threads at R = 100 ops/s for
     * 3 s (each thread's operations are 320 ms apart, so a 200 ms operation never makes the next one wait),
     * while a thread of the test spins on a core the whole time.
     *
     * <p>Why 200 ms and not 20: the harness is blamed when its own delay of operations is 10% of intended p99
     * or p99.9, and p99.9 of 300 operations is their slowest. Its delay is a worker's wake-up lateness for its
     * intended start. Against one spinning thread on 2 cores the worker gets the other core, or preempts the
     * spinner within one EEVDF slice (1.5 ms on this kernel, see GroundTruthTest); but the machine is shared,
     * and every further runnable thread on the worker's core adds a slice. With 20 ms operations the bound,
     * 2 ms, is one slice: measured here beside the spinner, the harness's delay reached p99 2.7 ms and max
     * 4.2 ms, so 20 ms is not sound. With D = 200 ms the bound is 20 ms: thirteen slices, or a stall of the
     * whole VM, which this one has shown (50-70 ms) only under other engineers' full builds.
     *
     * <p>No queueing: intended - service is the lag alone (no backlog), far under 10% of 200 ms. So: ok, perhaps
     * followed by machine_noise (the hiccup meter's sleeping thread may see the spinner), never harness_*.
     */
    @Test
    @Timeout(value = 30, threadMode = SEPARATE_THREAD)
    void aHealthyRunBesideABusyNeighbourIsOk() throws Exception {
        AtomicBoolean spin = new AtomicBoolean(true);
        Thread neighbour = new Thread(() -> {
            long x = 1;
            while (spin.get()) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            if (x == 42) {
                System.out.print(""); // keeps the loop from being optimised away
            }
        }, "busy-neighbour");
        neighbour.setDaemon(true);
        neighbour.start();
        Measured m;
        try {
            m = run(RunOptions.builder("mockdb").property("mockdb.delay", "200ms")
                    .target(100.0).threads(32).duration(Duration.ofSeconds(3)).seed(26).build());
        } finally {
            spin.set(false);
            neighbour.join();
        }
        assertDiagnosis(m, CauseCode.OK);
        Histogram intended = m.all(View.INTENDED);
        // The derivation above, measured; unless the hiccup meter saw the whole machine stall that long.
        long delayP99 = m.harnessDelay().getValueAtPercentile(99);
        assertTrue(delayP99 < 0.1 * intended.getValueAtPercentile(99) || hiccupMaxMs(m) >= delayP99 / 1e6,
                "harness delay p99 < 10% of intended p99; " + m);
        // p50: the delay plus a wake-up's overshoot (a sleep never returns early); 10 ms is six EEVDF slices.
        assertTrue(intended.getValueAtPercentile(50) >= 200 * MS && intended.getValueAtPercentile(50) < 210 * MS,
                "intended p50 ~ the 200 ms delay; " + m);
        assertEquals(300, m.completed() + m.result().unissuedOps(), 6, "100 ops/s for 3 s; " + m);
    }

    /**
     * 7. The generator cannot issue this fast: the real {@code noop} driver asked for 20,000,000 ops/s on one
     * thread for 1 s, a 50 ns gap. A no-op call takes a few dozen ns, and the harness's own work between two
     * operations (recording in its histograms, choosing the next, reading the clock: 60-85 ns, see
     * docs/performance.md) at least as much, so the thread is behind all the time and the harness's share of that
     * time is about half or more: above Diagnoser's limits (behind at least half the time, the harness's share at
     * least 25%). No target cause: the target answered in nanoseconds.
     */
    @Test
    void noopAt20MillionOpsPerSecondIsTheHarnessSaturated() throws Exception {
        Measured m = run(RunOptions.builder("noop").target(20_000_000.0).threads(1).duration(Duration.ofSeconds(1))
                .build());
        Diagnosis d = m.diagnosis();
        assertEquals(CauseCode.HARNESS_SATURATED, d.primary().code(), m.toString());
        assertFalse(d.has(CauseCode.TARGET_SLOW) || d.has(CauseCode.TARGET_STALLED)
                || d.has(CauseCode.CONCURRENCY_LIMITED), m.toString());
        double canIssue = m.figure(CauseCode.HARNESS_SATURATED, "can_issue_ops_per_sec");
        // One thread of this harness issues at most ~1 / 60 ns = 17 M ops/s (its fastest loop), and the run did
        // issue: more than 1 M ops/s on any machine that runs this suite.
        assertTrue(canIssue > 1_000_000 && canIssue < 20_000_000, "the rate the harness can issue; " + m);
    }
}
