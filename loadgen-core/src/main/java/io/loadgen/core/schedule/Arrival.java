package io.loadgen.core.schedule;

import java.util.SplittableRandom;

/** How intended starts are spaced: evenly ({@code uniform}, YCSB's and wrk2's) or as a Poisson process. */
public enum Arrival {
    UNIFORM,
    POISSON;

    /** Creates one worker's schedule. */
    public Schedule schedule(long startNs, double intervalNs, SplittableRandom random) {
        return this == UNIFORM
                ? new FixedRateSchedule(startNs, intervalNs)
                : new PoissonSchedule(startNs, intervalNs, random);
    }
}
