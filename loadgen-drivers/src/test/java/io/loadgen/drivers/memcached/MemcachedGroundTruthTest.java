package io.loadgen.drivers.memcached;

import io.loadgen.core.calibrate.GroundTruth;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * A memcached frozen mid-run, the run's latency known analytically: a real server, SIGSTOPped for F ~ 2 s in the
 * middle of a T = 5 s run of UPDATEs ({@code set}, STORED whether or not the item exists) at R = 500 ops/s from
 * one thread on one connection, every operation sent at its intended time ({@code --max-in-flight 4096}, above
 * the R F = 1000 that pile up in the freeze, so nothing waits in the issuer), with a 10 s operation timeout so
 * none times out.
 *
 * <p><b>The analytic values.</b> An operation intended x into the freeze (0 &lt;= x &lt; F) is sent then and sits in
 * the stopped server's socket; it is answered when the server runs again: intended latency F - x + e, where e is
 * what the resumed server and the client take to work through the backlog (1000 sets of 16 bytes, about 2 ms).
 * Every other operation takes a loopback round trip, a fraction of a millisecond. So, of the run's N = R T
 * operations, those slower than t (for t &lt; F) are the ones intended less than F - t into the freeze, R (F - t)
 * of them, and the q-th percentile of intended latency is
 * <pre>
 *   t(q) = F - (1 - q) N / R          (GroundTruth.pausePercentile(q, F, f) with f = F R / N, the paused share)
 * </pre>
 * With F = 2000 ms and N / R = 5000 ms: p95 = 1750 ms, p99 = 1950 ms, p99.9 = 1995 ms.
 *
 * <p><b>F</b> is measured around the two signals, sent through a shell that is already running (its {@code kill}
 * is a builtin, so no process starts): at least F_min, from the stop's acknowledgement to the continue's start,
 * at most F_max, from the stop's start to the continue's acknowledgement (a millisecond or two apart on a quiet
 * machine). Each percentile must lie within 1 % of t(q) for some F in [F_min, F_max]: at least 0.99 t(q; F_min),
 * at most 1.01 t(q; F_max). When the two are more than 1 % of F apart (20 ms: the machine stalled around a
 * signal), the ground truth itself is uncertain and the test is skipped, saying so, rather than judged.
 *
 * <p><b>The bound: 1 % of each analytic value</b> (17.5 ms at p95, 19.5 at p99, 19.95 at p99.9), against what
 * separates the measured percentile from t(q) once F is bracketed: the operations' spacing 1 / R = 2 ms (a
 * percentile falls on one operation, the continuum between two); HdrHistogram's 3 significant digits, 2 ms at
 * 2 s; and e, the backlog's 2 ms plus the resumed server's and the event loop's wake-ups, one scheduler slice
 * each (1.5 ms on this kernel) behind up to 3 runnable threads per core: 2 + 2 x 4.5 = 11 ms. In all 2 + 2 + 11
 * = 15 ms at most, below the bound at each percentile. (Measured on the 2-core VM: within 0.05 % of t(q) when
 * quiet, 0.4 % while three other builds ran.)
 *
 * <p>The service view sees the same (each operation was sent on time), to the harness's own send delay: service
 * p99 within the same 1 % of intended p99.
 */
class MemcachedGroundTruthTest {
    private static final double R = 500;
    private static final long FREEZE_MS = 2000;

    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void aFrozenServersIntendedPercentilesAreTheAnalyticOnesWithinOnePercent() throws Exception {
        ExecutorService timer = Executors.newSingleThreadExecutor();
        try (MemcachedServerProcess server = MemcachedServerProcess.start()) {
            AtomicLong stopStartNs = new AtomicLong();
            AtomicLong stopDoneNs = new AtomicLong();
            AtomicLong contStartNs = new AtomicLong();
            AtomicLong contDoneNs = new AtomicLong();
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            AtomicInteger intervals = new AtomicInteger();
            RunOptions options = RunOptions.builder("memcached").property("memcached.uri", server.uri())
                    .property("memcached.timeout", "10s").property("memcached.valuesize", "16")
                    .operation("UPDATE").target(R).threads(1).maxInFlight(4096)
                    .duration(Duration.ofSeconds(5)).interval(Duration.ofMillis(500)).seed(27).build();
            // The freeze starts when the second 500 ms interval ends, 1 s into the run, and ends 2 s before it.
            LoadRun run = new LoadRun(options, new MemcachedDriverProvider(), null).addSink(s -> {
                if (intervals.getAndIncrement() == 1) {
                    timer.execute(() -> {
                        try {
                            stopStartNs.set(System.nanoTime());
                            server.pause();
                            stopDoneNs.set(System.nanoTime());
                            Thread.sleep(FREEZE_MS);
                            contStartNs.set(System.nanoTime());
                            server.resume();
                            contDoneNs.set(System.nanoTime());
                        } catch (Exception | AssertionError e) {
                            failures.add(e);
                        }
                    });
                }
            });
            RunResult r = run.run();
            timer.shutdown();
            assertTrue(timer.awaitTermination(10, TimeUnit.SECONDS));
            assertEquals(List.of(), failures);
            assertTrue(contDoneNs.get() > 0, "the freeze happened during the run");

            double fMinMs = (contStartNs.get() - stopDoneNs.get()) / 1e6;
            double fMaxMs = (contDoneNs.get() - stopStartNs.get()) / 1e6;
            OpResult updates = r.operations().get(0);
            long n = updates.count();
            Histogram intended = updates.histogram(View.INTENDED);
            Histogram service = updates.histogram(View.SERVICE);
            String context = String.format("freeze %.2f to %.2f ms, %d operations, intended p95/p99/p99.9/max"
                            + " %.2f/%.2f/%.2f/%.2f ms, service p99 %.2f ms, driver %s", fMinMs, fMaxMs, n,
                    ms(intended, 95), ms(intended, 99), ms(intended, 99.9), intended.getMaxValue() / 1e6,
                    ms(service, 99), r.driverStats());
            System.out.println("[memcached ground truth] " + context);
            assumeTrue(fMaxMs - fMinMs <= FREEZE_MS * 0.01, "the freeze's length is known only to "
                    + (fMaxMs - fMinMs) + " ms, above 1 % of it: the machine stalled around a signal, so the ground"
                    + " truth itself is uncertain; " + context);
            assertEquals(n, updates.statusCount(Status.OK), "every operation answered, none timed out; " + context);
            assertEquals(R * 5, n, 1, "N = R T operations; " + context);

            for (double q : new double[] {0.95, 0.99, 0.999}) {
                double low = analytic(q, fMinMs, n);
                double high = analytic(q, fMaxMs, n);
                double measured = ms(intended, q * 100);
                assertTrue(measured >= low * 0.99 && measured <= high * 1.01, String.format("intended p%s %.2f ms"
                        + " is not within 1 %% of F - (1 - q) N / R = %.2f to %.2f ms; %s", q * 100, measured, low,
                        high, context));
            }
            double p99 = ms(intended, 99);
            assertEquals(p99, ms(service, 99), p99 * 0.01, "sent on time: service p99 ~ intended p99; " + context);
        } finally {
            timer.shutdownNow();
        }
    }

    /** t(q) for a freeze of {@code freezeMs} among {@code n} operations at R: F - (1 - q) N / R, in ms. */
    private static double analytic(double q, double freezeMs, long n) {
        double pausedShare = freezeMs / 1000 * R / n; // f = F R / N
        return GroundTruth.pausePercentile(q, freezeMs, pausedShare); // F (1 - (1 - q) / f) = F - (1 - q) N / R
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1e6;
    }
}
