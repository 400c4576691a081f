package io.loadgen.core.wait;

import io.loadgen.core.StopSignal;
import io.loadgen.core.time.ManualNanoClock;
import org.junit.jupiter.api.Test;

import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AdaptiveWaiter} on a manual clock: a park moves the clock by what was asked plus an overshoot the
 * test chooses, a spin by 100 ns, so where the margin settles and how late each wait ends are exact.
 */
class AdaptiveWaiterTest {
    private static final long SPIN_NS = 100;
    private final ManualNanoClock clock = new ManualNanoClock(0);
    private final StopSignal stop = new StopSignal();
    private long parks;
    private long parkedNs;
    private long spins;

    private AdaptiveWaiter waiter(LongSupplier overshootNs) {
        return new AdaptiveWaiter(new AdaptiveWaiter.Platform() {
            @Override
            public void park(long ns) {
                parks++;
                long slept = ns + overshootNs.getAsLong();
                parkedNs += slept;
                clock.advance(slept);
            }

            @Override
            public void spinOnce() {
                spins++;
                clock.advance(SPIN_NS);
            }

            @Override
            public void onThreadStart() {
            }
        });
    }

    @Test
    void aWaitParksUntilTheMarginBeforeTheDeadlineThenSpinsToIt() {
        // Margin 60 µs (the initial one), overshoot 20 µs: asked to wait 1 ms, it parks 940 µs, wakes at 960 µs,
        // then spins 40 µs in 100 ns steps (400 spins) and returns exactly at the deadline.
        AdaptiveWaiter waiter = waiter(() -> 20_000);
        long returned = waiter.await(1_000_000, clock, stop);
        assertEquals(1_000_000, returned);
        assertEquals(1, parks);
        assertEquals(960_000, parkedNs);
        assertEquals(400, spins);
        assertEquals(AdaptiveWaiter.INITIAL_MARGIN_NS - AdaptiveWaiter.DOWN_NS, waiter.marginNs(),
                "an overshoot under the margin lowers it by (1 - q) x step");
    }

    @Test
    void theMarginSettlesAtTheOvershootsP99() {
        // Overshoots cycle through 200 values: 199 of 40 µs and one of 200 µs, so the p99 is 40 µs. Between
        // 40 and 200 µs the margin falls by DOWN (100 ns) 199 times and rises by UP (9.9 µs) once per cycle, a
        // net fall of 10 µs; below 40 µs it rises by UP every park. So it saw-tooths just above 40 µs: at most
        // 40 µs + UP after a rise from below, plus one more UP if the outlier comes then; and every 200th wait
        // ends about 200 - 40 µs late. It never chases the outlier, as a max-tracker would.
        long[] n = {0};
        AdaptiveWaiter waiter = waiter(() -> n[0]++ % 200 == 199 ? 200_000 : 40_000);
        long deadline = 0;
        long worstLateNs = 0;
        for (int i = 0; i < 20_000; i++) {
            deadline += 1_000_000; // 1,000 ops/s
            long returned = waiter.await(deadline, clock, stop);
            assertTrue(returned >= deadline, "never early");
            if (i >= 10_000) {
                worstLateNs = Math.max(worstLateNs, returned - deadline);
            }
        }
        long margin = waiter.marginNs();
        assertTrue(margin >= 40_000 - AdaptiveWaiter.DOWN_NS && margin <= 40_000 + 2 * AdaptiveWaiter.UP_NS, "margin " + margin);
        assertTrue(worstLateNs <= 200_000 - 40_000 + AdaptiveWaiter.UP_NS, "the outlier is late by its excess over the margin: " + worstLateNs);
        assertTrue(worstLateNs >= 200_000 - 40_000 - 2 * AdaptiveWaiter.UP_NS, "and the outlier is not hidden: " + worstLateNs);
    }

    @Test
    void aGapShorterThanTheMarginIsSpunWhole() {
        // 50 µs to the deadline, margin 60 µs: no park, 500 spins of 100 ns.
        AdaptiveWaiter waiter = waiter(() -> 0);
        assertEquals(50_000, waiter.await(50_000, clock, stop));
        assertEquals(0, parks);
        assertEquals(500, spins);
    }

    @Test
    void aParkCutShortByTheMaximumParkTeachesNothingAndTheMarginStaysBounded() {
        // A 200 ms wait is parked in pieces of at most 50 ms (MAX_PARK_NS, so a stop is seen): 50, 50, 50 and
        // 49.94 ms to the margin. Only the last, which aims at the margin, is an overshoot sample. Huge
        // overshoots (a stopped VM) raise the margin by UP each, never past MAX_MARGIN_NS.
        AdaptiveWaiter waiter = waiter(() -> 0);
        waiter.await(200_000_000, clock, stop);
        assertEquals(4, parks, "3 full 50 ms pieces and the one to the margin");
        assertEquals(AdaptiveWaiter.INITIAL_MARGIN_NS - AdaptiveWaiter.DOWN_NS, waiter.marginNs(), "one sample");
        for (int i = 0; i < 1_000; i++) {
            waiter.learn(1_000_000_000L);
        }
        assertEquals(AdaptiveWaiter.MAX_MARGIN_NS, waiter.marginNs());
    }

    @Test
    void aStopEndsTheWaitAtOnce() {
        AdaptiveWaiter waiter = waiter(() -> 0);
        stop.stop("test");
        assertEquals(0, waiter.await(1_000_000_000L, clock, stop));
        assertEquals(0, parks + spins);
    }

    @Test
    void theDefaultStrategyIsAdaptiveWithAWaiterPerThread() {
        assertTrue(WaitStrategy.ADAPTIVE.newWaiter() instanceof AdaptiveWaiter);
        assertTrue(WaitStrategy.ADAPTIVE.newWaiter() != WaitStrategy.ADAPTIVE.newWaiter(), "each worker learns alone");
        assertEquals(WaitStrategy.ADAPTIVE, io.loadgen.core.run.RunOptions.builder("noop").build().waitStrategy());
    }
}
