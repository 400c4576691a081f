package io.loadgen.core.run;

import io.loadgen.core.schedule.Schedule;

/**
 * The loop one run thread executes, blocking ({@link Worker}) or async ({@link AsyncIssuer}). The run
 * arms it and starts it on its own thread; the sampler reads its error counters while it runs; the run
 * reads the rest after joining it.
 */
interface LoadThread extends Runnable {

    /** Sets the times just before the thread starts; {@code schedule} is null for an unthrottled run. */
    LoadThread arm(Schedule schedule, long endNs);

    /** Operations issued. After join. */
    long issued();

    /** Operations that fell due before the end but were never issued. After join. */
    long unissued();

    /** How many operations returned the status with this ordinal. After join (and after drain, if async). */
    long statusCount(int statusOrdinal);

    /** Operations that had to wait for a free in-flight slot (async only). After join. */
    default long heldBack() {
        return 0;
    }

    /** Operations still in flight when the run gave up waiting for them (async only). After join. */
    default long inFlightAtEnd() {
        return 0;
    }

    /** The last exception the driver threw, or null; any thread. */
    Throwable lastError();

    /** How many exceptions the driver threw; any thread. */
    long errorCount();
}
