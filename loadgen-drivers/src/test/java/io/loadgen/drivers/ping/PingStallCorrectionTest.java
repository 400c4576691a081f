package io.loadgen.drivers.ping;

import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.CorrectedBasis;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * Ground truth for the corrected view of an async, pipelined driver: the real {@code ping} driver over
 * loopback, one issuer with M = 64 operations in flight on one pipelined connection, at R = 2000 ops/s,
 * against a {@link PingServer} that answers at once but stalls once for P = 400 ms in the middle of the
 * run. The corrected view must use the expected interval M / R = 32 ms ({@link CorrectedBasis}), not the
 * serial caller's 1 / R = 0.5 ms.
 *
 * <h2>The answer, derived</h2>
 * Let the stall start at T and last P (measured: the server reports its real length). Stall operation
 * k = 0, 1, ... is intended at T + k/R.
 * <ul>
 *   <li><b>intended</b>: every operation intended during the stall is answered when it ends, so its
 *   latency is P - k/R, for k = 0 .. RP - 1: RP = 800 values, uniform on (0, P]. The rest (about 2200)
 *   are one loopback round trip, far below 32 ms. So intended holds R(P - x) values at or above any
 *   x in (0, P]; above I = M/R: R(P - I) = RP - M = 736, uniform on [I, P], median (I + P) / 2 = 216 ms.
 *   (Operations held back until the stall ends are issued back to back; their catch-up, a few ms, raises
 *   a few more just above I: R x the catch-up time, measured +5% (+38) on a quiet VM and +15% in a full
 *   build. Intended's count may exceed R(P - I) by 35%; corrected, built from the M stalled samples
 *   alone, does not see the catch-up and is held to 15% of R(P - I).)</li>
 *   <li><b>service</b>: the first M stall operations find a free slot and are sent on time, so their
 *   service time is P - k/R, k = 0 .. M-1. Then every slot is taken: operations M .. RP-1 are held back
 *   until the stall ends, and sent then, with a round trip's service time.</li>
 *   <li><b>corrected, I = M/R</b>: HdrHistogram adds, for each value v, v - I, v - 2I, ... down to I. The
 *   M stalled values start 1/R apart, so their synthetic values interleave: together they are
 *   P - j/R for every j with P - j/R >= I, one per scheduled operation, exactly intended's values at or
 *   above I. Count at or above I: RP - M (+1), as intended's; same uniform shape, same median.</li>
 *   <li><b>corrected, old I = 1/R</b>: each of the M stalled values v = P - k/R fills in every operation
 *   due after it: R(v - I) values at or above I, so in all M R(P - I) - M(M-1)/2 = 45,088 there, about
 *   M = 64 (61.2) times intended's count. The synthetic values dwarf the 3000 real ones, so even the
 *   median lands in the stall (about 200 ms), where intended's is a round trip.</li>
 *   <li>Either way corrected also keeps the held-back operations' own service samples (loadgen never drops
 *   them), so its total exceeds intended's by about the RP - 2M = 672 held back and re-added above I.</li>
 * </ul>
 * Bounds: 15% on counts and 10% of P on values, for a busy 2-core VM's scheduling jitter; a wrong
 * interval is off by a factor near M.
 */
class PingStallCorrectionTest {
    private static final double RATE = 2000.0;
    private static final int IN_FLIGHT = 64;
    private static final Duration STALL = Duration.ofMillis(400);
    private static final long STALL_AFTER_MS = 500;
    private static final long NS_PER_MS = 1_000_000L;

    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void pipelinedStallIsCorrectedAtInFlightOverRateNotOneOverRate() throws Exception {
        try (PingServer server = PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", 0),
                Duration.ZERO)) {
            run(server, Duration.ofMillis(300)); // unmeasured: loads both ends' classes
            CompletableFuture<Long> stalledNs = CompletableFuture.supplyAsync(() -> stallLater(server));
            RunResult r = run(server, Duration.ofMillis(1500));
            long pNs = stalledNs.get(10, TimeUnit.SECONDS);
            long iNs = (long) (IN_FLIGHT * 1e9 / RATE);

            assertEquals(iNs, r.corrected().expectedIntervalNs(), "threads x M / target = 1 x 64 / 2000 ops/s");
            assertEquals(IN_FLIGHT, r.corrected().inFlightPerThread());
            OpResult ping = r.operations().get(0);
            assertEquals(0, ping.errors());
            Histogram intended = ping.histogram(View.INTENDED);
            Histogram corrected = ping.histogram(View.CORRECTED);
            Histogram old = ping.histogram(View.SERVICE).copyCorrectedForCoordinatedOmission((long) (1e9 / RATE));

            double p = pNs / 1e6;
            double i = iNs / 1e6;
            double tail = RATE * (pNs - iNs) / 1e9;                                   // R(P - I) ~ 736
            double oldTail = IN_FLIGHT * tail - IN_FLIGHT * (IN_FLIGHT - 1) / 2.0;   // ~ 45,088
            String figures = figures(p, i, intended, corrected, old, iNs);
            long intendedTail = count(intended, iNs);
            assertTrue(intendedTail >= 0.95 * tail && intendedTail <= 1.35 * tail,
                    "intended at or above I: " + tail + ", plus the catch-up's; " + figures);
            assertEquals(tail, count(corrected, iNs), 0.15 * tail, "corrected at or above I; " + figures);
            assertEquals(oldTail, count(old, iNs), 0.15 * oldTail, "old rule at or above I; " + figures);
            for (double q : new double[]{50, 90}) {
                double expected = i + q / 100 * (p - i);
                assertEquals(expected, ms(above(intended, iNs), q), 0.1 * p, "intended tail p" + q + "; " + figures);
                assertEquals(expected, ms(above(corrected, iNs), q), 0.1 * p, "corrected tail p" + q + "; " + figures);
            }
            assertTrue(ms(intended, 50) < i && ms(corrected, 50) < i, "medians are round trips; " + figures);
            assertTrue(ms(old, 50) > p / 4, "old rule's median lands in the stall; " + figures);
            double heldBack = RATE * pNs / 1e9 - 2 * IN_FLIGHT;                      // ~ 672, counted twice
            assertEquals(heldBack, corrected.getTotalCount() - intended.getTotalCount(), 0.2 * heldBack + 20,
                    "corrected re-adds the held-back operations; " + figures);
        }
    }

    private static long stallLater(PingServer server) {
        try {
            Thread.sleep(STALL_AFTER_MS);
            return server.stall(STALL).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not stall the server", e);
        }
    }

    private static RunResult run(PingServer server, Duration duration) throws Exception {
        RunOptions options = RunOptions.builder("ping")
                .property("ping.port", Integer.toString(server.port()))
                .property("ping.pipelining", "true")
                .target(RATE).threads(1).maxInFlight(IN_FLIGHT).duration(duration).seed(11).build();
        return new LoadRun(options, DriverRegistry.find("ping"), null).run();
    }

    /** Values at or above {@code fromNs}. */
    private static long count(Histogram h, long fromNs) {
        return above(h, fromNs).getTotalCount();
    }

    /** A histogram of {@code h}'s values at or above {@code fromNs}. */
    private static Histogram above(Histogram h, long fromNs) {
        Histogram tail = Histograms.newHistogram();
        for (HistogramIterationValue v : h.recordedValues()) {
            if (v.getValueIteratedTo() >= fromNs) {
                tail.recordValueWithCount(v.getValueIteratedTo(), v.getCountAtValueIteratedTo());
            }
        }
        return tail;
    }

    private static double ms(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / (double) NS_PER_MS;
    }

    private static String figures(double p, double i, Histogram intended, Histogram corrected, Histogram old,
                                  long iNs) {
        StringBuilder s = new StringBuilder(String.format("P = %.1f ms, I = %.1f ms:", p, i));
        String[] names = {"intended", "corrected (M/R)", "corrected (1/R)"};
        Histogram[] hs = {intended, corrected, old};
        for (int k = 0; k < hs.length; k++) {
            Histogram tail = above(hs[k], iNs);
            s.append(String.format(" %s count %d p50 %.3f p90 %.3f p99 %.3f max %.3f ms, >= I %d (p50 %.1f p90 %.1f);",
                    names[k], hs[k].getTotalCount(), ms(hs[k], 50), ms(hs[k], 90), ms(hs[k], 99),
                    hs[k].getMaxValue() / (double) NS_PER_MS, tail.getTotalCount(), ms(tail, 50), ms(tail, 90)));
        }
        return s.toString();
    }
}
