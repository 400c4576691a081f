package io.loadgen.core.run;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.workload.OperationPlan;
import io.loadgen.core.workload.OperationSequence;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The async shape end to end: an issuer keeps the schedule and submits; completions arrive on another
 * thread (as they would on a network event loop) and record latency from the intended start. Here the
 * issuers have threads of their own ({@link AsyncIssuer}); {@link EventLoopAsyncRunTest} runs the same
 * contract with the issuers on the driver's loop ({@link EventLoopIssuer}).
 */
class AsyncRunTest {
    /** The executor the driver names for its issuers (null: none, they get threads of their own). */
    ScheduledExecutorService issuerExecutor() {
        return null;
    }

    /** The store's own "event loop": completions run here. */
    final ScheduledExecutorService loop = Executors.newSingleThreadScheduledExecutor();
    private final Set<Long> keys = ConcurrentHashMap.newKeySet();
    private final Set<String> types = ConcurrentHashMap.newKeySet();
    /** The first this many requests take 400 ms: a stall. */
    private int stallFirst;
    private final java.util.concurrent.atomic.AtomicInteger stalled = new java.util.concurrent.atomic.AtomicInteger();

    @AfterEach
    void stopLoop() throws InterruptedException {
        loop.shutdownNow();
        assertTrue(loop.awaitTermination(5, TimeUnit.SECONDS));
    }

    /** A store that answers every request after a fixed delay, on its own "event loop" thread. */
    private DriverProvider delayed(long delayNs, int driverMaxInFlight) {
        return new DriverProvider() {
            public String name() {
                return "delayed";
            }

            public String description() {
                return "completes after a fixed delay on another thread";
            }

            public List<PropertySpec> properties() {
                return List.of();
            }

            public List<String> operations() {
                return List.of("READ", "UPDATE");
            }

            public AsyncDriver open(DriverProperties p, DriverContext c) {
                return new AsyncDriver() {
                    public void submit(Operation op, Completion completion) {
                        keys.add(op.keyNumber());
                        types.add(op.typeName());
                        if (stalled.getAndIncrement() < stallFirst) {
                            loop.schedule(() -> completion.complete(Status.OK), 400, TimeUnit.MILLISECONDS);
                        } else if (delayNs == 0) {
                            loop.execute(() -> completion.complete(Status.OK));
                        } else {
                            loop.schedule(() -> completion.complete(Status.OK), delayNs, TimeUnit.NANOSECONDS);
                        }
                    }

                    public int maxInFlight() {
                        return driverMaxInFlight;
                    }

                    public ScheduledExecutorService issuerExecutor(int issuer) {
                        return AsyncRunTest.this.issuerExecutor();
                    }
                };
            }
        };
    }

    private static double ms(Histogram h, double q) {
        return h.getValueAtPercentile(q) / 1e6;
    }

    @Test
    void withinItsBoundAnAsyncStoreShowsItsDelayInBothViews() throws Exception {
        // 5 ms per request, 500 requests/s: ~2.5 in flight on average, far below the bound of 64,
        // so nothing waits: intended = service = 5 ms (plus the timer's lateness). The median's bound: the
        // timer thread wakes behind at most one runnable thread per core for one EEVDF slice (6.x kernels:
        // 0.75 ms x (1 + log2 2 cores) = 1.5 ms), and 5 + 1.5 < 7 ms.
        // A warm-up and short intervals put many interval boundaries among operations in flight.
        RunOptions o = RunOptions.builder("delayed").target(500.0).duration(Duration.ofMillis(1300))
                .warmup(Duration.ofMillis(300)).interval(Duration.ofMillis(50)).maxInFlight(64).build();
        RunResult r = new LoadRun(o, delayed(5_000_000, Integer.MAX_VALUE), null).run();
        // The measured second holds 500 intended starts. An op counts in the interval it completes in, so the
        // ~3 due in the last 5 ms of warm-up (plus their timers' lateness) count too, and the ops due in the
        // run's last 5 ms complete after the end and are still waited for and counted (none in flight at the
        // end, below). 25 is 50 ms of the schedule at 500/s, ten times the store's delay.
        assertEquals(500, r.operations().get(0).count(), 25);
        long count = r.operations().get(0).count();
        assertEquals(count, r.operations().get(0).histogram(View.INTENDED).getTotalCount(), "views count the same ops");
        assertEquals(count, r.lag().getTotalCount(), "lag counts the same ops");
        assertEquals(0L, r.harness().get("held_back_by_max_in_flight"));
        assertEquals(0L, r.harness().get("in_flight_at_end"));
        Histogram intended = r.operations().get(0).histogram(View.INTENDED);
        Histogram service = r.operations().get(0).histogram(View.SERVICE);
        assertTrue(ms(service, 50) >= 5.0 && ms(service, 50) < 7.0, "service p50 " + ms(service, 50));
        assertTrue(ms(intended, 50) >= 5.0 && ms(intended, 50) < 7.0, "intended p50 " + ms(intended, 50));
    }

    @Test
    void aRateChangedWhileRunningSwitchesTheIssuersSchedulesAtTheNextBoundary() throws Exception {
        // 2 issuers, 1 ms per request, 400/s, 250 ms intervals, 1.5 s. As the interval ending at 0.5 s closes,
        // 1200/s is asked for: it switches at 0.75 s. Requests complete 1 ms after they are due, so each interval
        // counts what was due in it (give or take one boundary's few): 400 x 0.25 = 100 before the switch,
        // 1200 x 0.25 = 300 after; in all 400 x 0.75 + 1200 x 0.75 = 1200, and the summary offers their mean,
        // 800/s. Generous: 15 % per interval, 5 % in all.
        RunOptions o = RunOptions.builder("delayed").threads(2).target(400.0).duration(Duration.ofMillis(1500))
                .interval(Duration.ofMillis(250)).maxInFlight(64).build();
        LoadRun run = new LoadRun(o, delayed(1_000_000, Integer.MAX_VALUE), null);
        List<long[]> intervals = new java.util.concurrent.CopyOnWriteArrayList<>();
        long[] switchMs = new long[1];
        run.addSink(s -> {
            long ops = 0;
            for (IntervalSnapshot.Op op : s.operations()) {
                ops += op.operations();
            }
            intervals.add(new long[]{(s.endNs() - s.runStartNs()) / 1_000_000, ops});
            if (intervals.size() == 2) {
                switchMs[0] = (run.rateControl().request(1200, "test") - s.runStartNs()) / 1_000_000;
            }
        });
        RunResult r = run.run();
        // At 0.75 s; at 1 s should this machine have held the sampler back a quarter second (the counts follow it).
        assertTrue(switchMs[0] == 750 || switchMs[0] == 1000, "switches at " + switchMs[0] + " ms");
        double offered = (400 * switchMs[0] + 1200 * (1500 - switchMs[0])) / 1500.0;
        for (long[] iv : intervals) {
            if (iv[0] % 250 < 30 && iv[0] >= 250 && iv[0] < 1500) {
                double expected = iv[0] <= switchMs[0] + 10 ? 100 : 300;
                assertEquals(expected, iv[1], expected * 0.15, "interval ending at " + iv[0] + " ms");
            }
        }
        assertEquals(offered * 1.5, r.operations().get(0).count(), offered * 1.5 * 0.05);
        assertEquals(offered, r.targetOpsPerSec(), 1);
        assertEquals(0L, r.harness().get("held_back_by_max_in_flight"));
    }

    @Test
    void aFullInFlightBoundHoldsOperationsBackAndTheWaitShowsInIntendedOnly() throws Exception {
        // The driver takes one request at a time (maxInFlight 1), 5 ms each: at most 200/s, asked for 400/s.
        // Request k is due at k * 2.5 ms but starts at ~k * 5 ms: it waited ~k * 2.5 ms for the slot, so
        // intended grows to ~(n-1) * 2.5 ms (~500 ms for n ~ 200 in 1 s) while service stays 5 ms.
        RunOptions o = RunOptions.builder("delayed").target(400.0).duration(Duration.ofSeconds(1)).build();
        RunResult r = new LoadRun(o, delayed(5_000_000, 1), null).run();
        long n = r.operations().get(0).count();
        assertTrue(n > 150 && n <= 201, "a one-at-a-time 5 ms store serves at most 200 in 1 s: " + n);
        // Request 0 finds the slot free; every later one k falls due (k * 2.5 ms) before its slot frees (~k * 5 ms),
        // so it is held back. The count is taken as a request is issued, and the one issued request still in
        // flight when the run ends is not among the n recorded: held back = issued - 1 = n + in flight at end - 1.
        long heldBack = r.harness().get("held_back_by_max_in_flight").longValue();
        long inFlightAtEnd = r.harness().get("in_flight_at_end").longValue();
        assertEquals(n + inFlightAtEnd - 1, heldBack, "every request but the first found the slot busy");
        Histogram intended = r.operations().get(0).histogram(View.INTENDED);
        Histogram service = r.operations().get(0).histogram(View.SERVICE);
        // With s the store's actual time per request (1 s / n: on a busy VM its 5 ms sleeps run long), op k
        // starts at k * s and completes at (k + 1) * s, intended at k * 2.5 ms: the last waited s + (n-1)(s - 2.5 ms).
        double sMs = r.runTimeNs() / 1e6 / n;
        double expectedMaxMs = sMs + (n - 1) * (sMs - 2.5);
        assertEquals(expectedMaxMs, intended.getMaxValue() / 1e6, expectedMaxMs * 0.25, "intended max (ms)");
        // Service stays one 5 ms delay plus the timer's jitter while intended reaches hundreds of ms. The
        // jitter's bound: a woken thread waits at most one 1.5 ms EEVDF slice per thread already runnable on
        // its core; 10 per core (a 2-core VM shared by several test runs) is 15 ms, and 5 + 15 = 20 ms.
        // Lag stays below 5 ms: waiting for the in-flight bound is queueing, not lag, and what is left is the
        // issuer's own wake-up, at most 3 such slices (4.5 ms) behind the store's and the JVM's threads.
        assertTrue(ms(service, 99) < 20.0, "service p99 " + ms(service, 99));
        assertTrue(intended.getMaxValue() / 1e6 > 10 * ms(service, 99), "intended dwarfs service");
        assertTrue(r.lag().getValueAtPercentile(99) < 5_000_000L, "waiting for the bound is not lag");
    }

    @Test
    void afterAStallEveryOperationDueDuringTheWaitCountsAsHeldBack() throws Exception {
        // 1000 ops/s, 4 in flight, a store whose first 4 answers take 400 ms, then 0.1 ms. The 5th op waits
        // for a slot until ~400 ms, and every op intended meanwhile (~400) was held back by the bound, not
        // only the one that waited: the count was 1 before, ~400 now. Derived: 1000/s x 0.4 s - 4 = 396.
        // Lower bound, exact: ops 4 .. 399 fall due (at 4 .. 399 ms) before the first slot can free (the
        // store's 400 ms timers can only fire late), so at least 396 are held back.
        // Upper bound: the backlog then drains 4 at a time, one op per s (the store's 0.1 ms timer plus its
        // overshoot on a busy machine) per slot, while new ops keep falling due at 1 per ms and are held back
        // too: the drain of B ops takes d = (B + d * 1/ms) * s / 4, so held back = 396 / (1 - s / 4 ms). 1000
        // allows s up to 2.4 ms per answer, 24 times the store's 0.1 ms: a backlog that never drains fails.
        stallFirst = 4;
        RunOptions o = RunOptions.builder("delayed").target(1000.0).duration(Duration.ofMillis(1500)).maxInFlight(4).build();
        RunResult r = new LoadRun(o, delayed(100_000, Integer.MAX_VALUE), null).run();
        long heldBack = r.harness().get("held_back_by_max_in_flight").longValue();
        assertTrue(heldBack >= 396 && heldBack <= 1000, "about 396 ops fell due during the stall: " + heldBack);
    }

    @Test
    void everyOperationIsRecordedOnceAndKeysInterleaveAcrossIssuers() throws Exception {
        // 3 issuers, 3000 operations: key numbers issued * 3 + index cover 0..2999 exactly once.
        RunOptions o = RunOptions.builder("delayed").threads(3).operations(3000L).operation("update").build();
        RunResult r = new LoadRun(o, delayed(0, Integer.MAX_VALUE), null).run();
        assertEquals("UPDATE", r.operations().get(0).name());
        assertEquals(3000, r.operations().get(0).count());
        assertEquals(3000, r.operations().get(0).statusCount(Status.OK));
        assertEquals(3000, keys.size());
        assertTrue(keys.stream().allMatch(k -> k >= 0 && k < 3000));
        assertEquals(Set.of("UPDATE"), types);
    }

    @Test
    void aPlanMixesOperationTypesAndEachIsReportedOnItsOwn() throws Exception {
        // Even-numbered operations of each thread are READs, odd ones UPDATEs: 2 threads x 500 = 500 of each.
        OperationPlan alternate = new OperationPlan() {
            public List<String> operations() {
                return List.of("READ", "UPDATE");
            }

            public OperationSequence forThread(int index, int threads, java.util.SplittableRandom random) {
                return new OperationSequence() {
                    public int nextType(long n) {
                        return (int) (n % 2);
                    }

                    public long nextKey(int type, long n) {
                        return n * threads + index;
                    }
                };
            }
        };
        RunOptions o = RunOptions.builder("delayed").threads(2).operations(1000L).build();
        RunResult r = new LoadRun(o, delayed(0, Integer.MAX_VALUE), alternate, null).run();
        assertEquals(List.of("READ", "UPDATE"), r.operations().stream().map(op -> op.name()).toList());
        assertEquals(500, r.operations().get(0).count());
        assertEquals(500, r.operations().get(1).count());
        assertEquals(500, r.operations().get(1).statusCount(Status.OK));
        assertEquals(Set.of("READ", "UPDATE"), types);
        assertEquals(1000, keys.size());
    }

    @Test
    void anOperationTheDriverDoesNotHaveIsBadInput() {
        RunOptions o = RunOptions.builder("delayed").operations(1L).operation("SCAN").build();
        BadInputException e = assertThrows(BadInputException.class,
                () -> new LoadRun(o, delayed(0, 1), null).run());
        assertEquals("driver delayed has no operation 'SCAN'; choose one of: READ, UPDATE", e.getMessage());
    }
}
