package io.loadgen.drivers.support;

import io.loadgen.core.driver.DriverContext;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkerRandomsTest {

    @Test
    void oneGeneratorPerWorkerRepeatableFromTheSeed() {
        SplittableRandom[] a = WorkerRandoms.split(new DriverContext(3, 42L));
        SplittableRandom[] b = WorkerRandoms.split(new DriverContext(3, 42L));
        assertEquals(3, a.length);
        for (int i = 0; i < a.length; i++) {
            assertEquals(a[i].nextLong(), b[i].nextLong(), "worker " + i + " differs for the same seed");
        }
    }

    @Test
    void workersDrawDifferentStreams() {
        SplittableRandom[] r = WorkerRandoms.split(new DriverContext(2, 42L));
        assertNotEquals(r[0].nextLong(), r[1].nextLong());
    }

    @Test
    void uniformNsStaysInRangeAndReachesBothEnds() {
        SplittableRandom random = new SplittableRandom(7);
        boolean sawMin = false;
        boolean sawMax = false;
        // Range of 4 values: 10,000 draws miss an end with probability (3/4)^10000, i.e. never.
        for (int i = 0; i < 10_000; i++) {
            long ns = WorkerRandoms.uniformNs(random, 100, 103);
            assertTrue(ns >= 100 && ns <= 103, "out of range: " + ns);
            sawMin |= ns == 100;
            sawMax |= ns == 103;
        }
        assertTrue(sawMin && sawMax, "both ends are included");
    }

    @Test
    void uniformNsOfAnEmptyRangeIsItsOnlyValue() {
        assertEquals(5_000_000L, WorkerRandoms.uniformNs(new SplittableRandom(1), 5_000_000L, 5_000_000L));
    }
}
