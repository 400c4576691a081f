package io.loadgen.drivers.support;

import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.Operation;

import java.util.SplittableRandom;

/**
 * Random generators for drivers: one per worker, derived from the run's seed so a run repeats.
 * {@link #split} is called once on the main thread at open; each generator is then used only by
 * the worker whose {@link Operation#workerIndex()} indexes it, so no generator is shared.
 */
public final class WorkerRandoms {

    private WorkerRandoms() {
    }

    /** One generator per worker, all split from {@code new SplittableRandom(context.seed())}. */
    public static SplittableRandom[] split(DriverContext context) {
        SplittableRandom root = new SplittableRandom(context.seed());
        SplittableRandom[] randoms = new SplittableRandom[context.threads()];
        for (int i = 0; i < randoms.length; i++) {
            randoms[i] = root.split();
        }
        return randoms;
    }

    /** A duration uniform in {@code [minNs, maxNs]}, both ends included; requires {@code minNs <= maxNs}. */
    public static long uniformNs(SplittableRandom random, long minNs, long maxNs) {
        return minNs + random.nextLong(maxNs - minNs + 1);
    }
}
