package io.loadgen.core.run;

import io.loadgen.core.record.Histograms;
import io.loadgen.core.time.ManualNanoClock;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The hiccup meter records each sleep's overshoot beyond its quickest one, exactly, with a clock the test moves. */
class HiccupMeterTest {
    private static final long MS = 1_000_000;
    private static final long US = 1_000;

    /** A meter of 1 ms sleeps whose sleeps take the given times in turn, on a manual clock. */
    private static HiccupMeter meter(ManualNanoClock clock, List<Long> sleepsNs) {
        Deque<Long> sleeps = new ArrayDeque<>(sleepsNs);
        return new HiccupMeter(clock, ns -> clock.advance(sleeps.removeFirst()), MS);
    }

    @Test
    void aLateWakeUpIsRecordedAsTheSleepsItSwallowed() throws InterruptedException {
        // Sleeps of 1.05, 1.05, 6.05 and 1.05 ms: the quickest, 1.05 ms, is the platform's floor; the third woke
        // 5 ms late. With the 1 ms expected-interval correction (as jHiccup records) a 5 ms hiccup is recorded
        // as 5, 4, 3, 2 and 1 ms: the four sleeps it swallowed count too. So 4 + 4 values, max 5 ms.
        ManualNanoClock clock = new ManualNanoClock(0);
        HiccupMeter meter = meter(clock, List.of(1_050 * US, 1_050 * US, 6_050 * US, 1_050 * US));
        for (int i = 0; i < 4; i++) {
            meter.measureOnce();
        }
        Histogram h = Histograms.newHistogram();
        meter.drainInto(h);
        assertEquals(8, h.getTotalCount());
        assertEquals(3, h.getCountAtValue(0));
        for (long ms = 1; ms <= 5; ms++) {
            assertEquals(1, h.getCountAtValue(ms * MS), ms + " ms");
        }
        assertEquals(h.highestEquivalentValue(5 * MS), h.getMaxValue());
    }

    @Test
    void eachDrainHoldsOnlyTheSleepsSinceTheLastOne() throws InterruptedException {
        // 1.1 ms, then 3.1 ms (2 ms late: 2 and 1 ms recorded) in the first interval; 1.1 ms in the second.
        ManualNanoClock clock = new ManualNanoClock(0);
        HiccupMeter meter = meter(clock, List.of(1_100 * US, 3_100 * US, 1_100 * US));
        meter.measureOnce();
        meter.measureOnce();
        Histogram first = Histograms.newHistogram();
        meter.drainInto(first);
        meter.measureOnce();
        Histogram second = Histograms.newHistogram();
        meter.drainInto(second);
        assertEquals(List.of(3L, 1L), List.of(first.getTotalCount(), second.getTotalCount()));
        assertEquals(2 * MS, first.getValueAtPercentile(100), 2 * MS / 1000.0);
        assertEquals(0, second.getMaxValue());
    }

    @Test
    void aQuickerSleepLowersTheFloorForTheSleepsAfterIt() throws InterruptedException {
        // 2 ms first (the floor so far: no hiccup), then 1 ms (the new floor), then 2 ms again: 1 ms late now.
        ManualNanoClock clock = new ManualNanoClock(0);
        HiccupMeter meter = meter(clock, List.of(2 * MS, MS, 2 * MS));
        for (int i = 0; i < 3; i++) {
            meter.measureOnce();
        }
        Histogram h = Histograms.newHistogram();
        meter.drainInto(h);
        assertEquals(2, h.getCountAtValue(0));
        assertEquals(1, h.getCountAtValue(MS));
        assertEquals(3, h.getTotalCount());
    }

    @Test
    void theMeterThreadStopsWhenAsked() throws InterruptedException {
        HiccupMeter meter = HiccupMeter.start(io.loadgen.core.time.NanoClock.SYSTEM);
        meter.stop();
        Histogram h = Histograms.newHistogram();
        meter.drainInto(h); // whatever it measured: the point is that stop() returned and the thread ended
        assertEquals(false, meter.alive());
    }
}
