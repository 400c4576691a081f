package io.loadgen.core.schedule;

/**
 * A worker's sequence of intended start times, on the {@link System#nanoTime()} timeline.
 *
 * <p>Owned and called by one worker thread; {@link #nextIntendedStartNs()} neither allocates nor
 * looks at the clock, so falling behind never shifts the schedule: late operations keep their
 * original intended start and the delay counts in their latency.
 */
public interface Schedule {

    /** The intended start of the next operation; each call advances the schedule by one operation. */
    long nextIntendedStartNs();

    /** The mean gap between intended starts, in nanoseconds (the expected interval for correction). */
    double meanIntervalNs();
}
