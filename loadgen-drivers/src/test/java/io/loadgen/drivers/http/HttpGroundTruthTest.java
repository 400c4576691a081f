package io.loadgen.drivers.http;

import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/**
 * Ground truth for the {@code http} driver: real Netty sockets on loopback against an
 * {@link HttpTargetServer} whose answers are known, checked against the analytic value of each view.
 */
class HttpGroundTruthTest {
    private static final long NS_PER_MS = 1_000_000L;

    /**
     * A server that stalls once. One thread, one connection, one request in flight, R = 1000 requests/s; the
     * server answers at once but holds every response for P = 300 ms, starting at the end of the run's second
     * 250 ms interval (so well inside the measured window, after the warm-up).
     *
     * <p><b>service</b>: the one request in flight when the stall begins, or the first sent in it, is held
     * until it ends: its service time is P minus at most one gap 1/R = 1 ms. Every later request of the stall is
     * held back in the issuer (its one slot is taken) and sent when the stall ends, with a round trip's service
     * time. So exactly one service time is at or above P/2.
     *
     * <p><b>intended</b>: request k of the stall (intended at T + k/R, k = 0 .. RP - 1 = 299) is answered once
     * the stall has ended and the k requests before it have had their round trips, back to back: at
     * T + P + k c, with c one loopback round trip. Its latency is P - k (1/R - c). So the count at or above
     * x = P/2 is (P - x) / (1/R - c) = R (P - x) / (1 - R c) = 150 / (1 - R c): 150 with instant round trips,
     * up to 375 with c = 0.6 ms (a 2-core VM running a full build beside the test; loopback HTTP takes
     * 50-150 us idle, and a run that measured from the send instead would count 1). The lower bound
     * allows 5% for the server's timer and the issuer's wake-ups. The largest is the stall's first, P - up to
     * 1 ms, plus a timer tick: [P - 2 ms, P + 20 ms].
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void aStallShowsInIntendedAndInOneServiceTimeOnly() throws Exception {
        Duration stall = Duration.ofMillis(300);
        double rate = 1000;
        try (HttpTargetServer server = HttpTargetServer.start(new InetSocketAddress("127.0.0.1", 0),
                HttpTargetServer.Options.DEFAULT)) {
            RunOptions options = RunOptions.builder("http").property("http.url", server.url("/"))
                    .target(rate).threads(1).duration(Duration.ofMillis(1500)).interval(Duration.ofMillis(250))
                    .seed(3).build();
            AtomicInteger intervals = new AtomicInteger();
            RunResult r = new LoadRun(options, DriverRegistry.find("http"), null)
                    .addSink(s -> {
                        if (intervals.incrementAndGet() == 2) {
                            server.stall(stall);
                        }
                    }).run();
            OpResult get = r.operations().get(0);
            assertEquals("GET", get.name());
            assertEquals(0, get.failures(), "every request answered 200: " + r.driverStats());
            Histogram intended = get.histogram(View.INTENDED);
            Histogram service = get.histogram(View.SERVICE);
            long half = stall.toNanos() / 2;
            String figures = figures(intended, service);
            assertEquals(1, countAtOrAbove(service, half), "one service time saw the stall; " + figures);
            long tail = countAtOrAbove(intended, half);
            double expected = rate * half / 1e9; // R (P - P/2) = 150
            assertTrue(tail >= 0.95 * expected && tail <= expected / (1 - rate * 0.6e-3),
                    "intended at or above P/2: R(P - P/2) / (1 - R c) for c in [0, 0.6 ms], got " + tail + "; "
                            + figures);
            double maxMs = intended.getMaxValue() / 1e6;
            assertTrue(maxMs >= 300 - 2 && maxMs <= 300 + 20, "intended max is the stall's first: " + figures);
            assertEquals(r.driverStats().get("status_2xx"), get.count() + inFlightAtEnd(r, get),
                    "every request counted once by status class");
        }
    }

    /**
     * A server that cannot keep up: every response is held D = 10 ms, one connection, one request in flight,
     * asked for R = 200 requests/s (a gap of 5 ms; the server serves at most 100/s).
     *
     * <p>Request k is intended at k/R. It is sent when request k - 1 has been answered, so it is answered at
     * (k + 1) s, with s the service time (D plus a round trip and the timers' lateness: D to D + 2 ms). Its
     * intended latency is (k + 1) s - k/R, growing by s - 1/R (about 5 ms) per request: the run's median
     * request, k = n/2 of the n answered, has latency (n/2 + 1) s - (n/2)/R, computed here from the measured
     * n and mean s, within 5% (s varies around its mean; the median request's own k is n/2 within one).
     * Service stays at s: its median within [D, D + 2 ms].
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void aServerThatCannotKeepUpShowsTheQueueInIntendedOnly() throws Exception {
        double rate = 200;
        try (HttpTargetServer server = HttpTargetServer.start(new InetSocketAddress("127.0.0.1", 0),
                HttpTargetServer.Options.DEFAULT.withDelay(Duration.ofMillis(10)))) {
            RunOptions options = RunOptions.builder("http").property("http.url", server.url("/"))
                    .target(rate).threads(1).duration(Duration.ofSeconds(1)).seed(5).build();
            RunResult r = new LoadRun(options, DriverRegistry.find("http"), null).run();
            OpResult get = r.operations().get(0);
            Histogram intended = get.histogram(View.INTENDED);
            Histogram service = get.histogram(View.SERVICE);
            String figures = figures(intended, service);
            double sMs = service.getMean() / 1e6;
            long n = intended.getTotalCount();
            assertTrue(n >= 1000 / 12 && n <= 1000 / 10 + 1, "about 1 s / s answered: " + figures);
            double medianMs = (n / 2 + 1) * sMs - (n / 2) * 1000 / rate;
            assertEquals(medianMs, intended.getValueAtPercentile(50) / 1e6, 0.05 * medianMs + sMs,
                    "intended median (n/2 + 1) s - (n/2)/R; " + figures);
            double serviceMedianMs = service.getValueAtPercentile(50) / 1e6;
            assertTrue(serviceMedianMs >= 10 && serviceMedianMs <= 12, "service median is D: " + figures);
            assertTrue(r.unissuedOps() > 0.3 * rate, "half the schedule was never issued: " + r.unissuedOps());
        }
    }

    /** A request still in flight when the run ended is answered, and counted by the server, but not measured. */
    private static long inFlightAtEnd(RunResult r, OpResult op) {
        long sent = r.driverStats().get("requests").longValue();
        return sent - op.count();
    }

    private static long countAtOrAbove(Histogram h, long fromNs) {
        long n = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            if (h.highestEquivalentValue(v.getValueIteratedTo()) >= fromNs) {
                n += v.getCountAtValueIteratedTo();
            }
        }
        return n;
    }

    private static String figures(Histogram intended, Histogram service) {
        return String.format("intended count %d p50 %.2f p99 %.2f max %.2f ms; service p50 %.3f p99 %.3f max %.2f ms",
                intended.getTotalCount(), intended.getValueAtPercentile(50) / 1e6,
                intended.getValueAtPercentile(99) / 1e6, intended.getMaxValue() / 1e6,
                service.getValueAtPercentile(50) / 1e6, service.getValueAtPercentile(99) / 1e6,
                service.getMaxValue() / 1e6);
    }
}
