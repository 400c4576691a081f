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
        assertEquals(20_000, waiter.marginNs(clock.nanoTime()), "one sample is its own p99");
    }

    @Test
    void theMarginIsTheOvershootsP99() {
        // Overshoots cycle through 200 values: 199 of 40 µs and one of 200 µs. Any 256 consecutive parks hold
        // one or two of the 200 µs ones, which the p99 of 256 (their third largest) leaves out: once the
        // window is full the margin is exactly 40 µs, each 40 µs wake lands on the deadline (no spin), and
        // each 200 µs one is exactly 160 µs late. It never chases the outlier, as a max-tracker would.
        long[] n = {0};
        AdaptiveWaiter waiter = waiter(() -> n[0]++ % 200 == 199 ? 200_000 : 40_000);
        long deadline = 0;
        long late = 0;
        long spinsBefore = 0;
        for (int i = 0; i < 2_000; i++) {
            deadline += 1_000_000; // 1,000 ops/s
            if (i == 1_000) {
                late = 0;
                spinsBefore = spins;
            }
            long returned = waiter.await(deadline, clock, stop);
            if (returned != deadline) {
                assertEquals(160_000, returned - deadline, "wait " + i);
                late++;
            }
        }
        assertEquals(40_000, waiter.marginNs(clock.nanoTime()));
        assertEquals(5, late, "one in 200 of the last 1,000 waits");
        assertEquals(spinsBefore, spins, "no spin: every other wake is exactly at the deadline");
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
    void aMarginRaisedAboveTheGapIsForgottenAfterItsMaximumAge() {
        // A busy spell at 1,000 ops/s: three parks wake 150 µs late. The first (parked 940 µs to the initial
        // 60 µs margin) wakes at 1.09 ms; the next two, parked to a 150 µs margin, wake exactly at 2 and 3 ms.
        long[] overshoot = {150_000};
        AdaptiveWaiter waiter = waiter(() -> overshoot[0]);
        long ms = 1_000_000;
        for (long deadline = ms; deadline <= 3 * ms; deadline += ms) {
            waiter.await(deadline, clock, stop);
        }
        assertEquals(3, parks);
        assertEquals(150_000, waiter.marginNs(clock.nanoTime()));
        // Then 10,000 ops/s on a quiet machine: each 100 µs gap is shorter than the 150 µs margin, so every wait
        // is spun whole and teaches nothing, up to the one due at 1003.1 ms (decided at 1003.0 ms, when the
        // last sample, taken at 3 ms, is exactly the maximum age of 1 s old: still counted).
        overshoot[0] = 20_000;
        long deadline = 3 * ms;
        while (deadline < 1_003_100_000L) {
            deadline += 100_000;
            waiter.await(deadline, clock, stop);
        }
        assertEquals(3, parks, "a margin above the gap parks no more");
        // The next wait starts at 1003.1 ms: every sample is older than 1 s, the margin is the initial 60 µs
        // again, and it parks 40 µs; that park's 20 µs overshoot is the new margin.
        waiter.await(deadline + 100_000, clock, stop);
        assertEquals(4, parks, "the window aged empty: the initial margin parks again");
        assertEquals(20_000, waiter.marginNs(clock.nanoTime()));
    }

    @Test
    void anEarlyWakeTeachesNothingAndParksAgain() {
        // Asked to park 940 µs (1 ms less the initial 60 µs), the first park returns after 500 µs; the
        // second parks the remaining 440 µs and wakes 10 µs late at 950 µs, the one sample; 50 µs of spins.
        long[] overshoots = {-440_000, 10_000};
        int[] next = {0};
        AdaptiveWaiter waiter = waiter(() -> overshoots[next[0]++]);
        assertEquals(1_000_000, waiter.await(1_000_000, clock, stop));
        assertEquals(2, parks);
        assertEquals(500, spins);
        assertEquals(10_000, waiter.marginNs(clock.nanoTime()));
    }

    @Test
    void aParkCutShortByTheMaximumParkTeachesNothingAndTheMarginStaysBounded() {
        // A 200 ms wait is parked in pieces of at most 50 ms (MAX_PARK_NS, so a stop is seen): 50, 50, 50 and
        // 49.94 ms to the margin. Only the last, which aims at the margin, is an overshoot sample (0 here).
        // Huge overshoots (a stopped VM) raise the margin no further than MAX_MARGIN_NS.
        long[] overshoot = {0};
        AdaptiveWaiter waiter = waiter(() -> overshoot[0]);
        waiter.await(200_000_000, clock, stop);
        assertEquals(4, parks, "3 full 50 ms pieces and the one to the margin");
        assertEquals(0, waiter.marginNs(clock.nanoTime()), "one sample, of 0");
        overshoot[0] = 1_000_000_000L;
        long deadline = clock.nanoTime();
        for (int i = 0; i < 3; i++) {
            deadline += 10_000_000;
            deadline = waiter.await(deadline, clock, stop);
        }
        assertEquals(AdaptiveWaiter.MAX_MARGIN_NS, waiter.marginNs(clock.nanoTime()));
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
