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

    /**
     * Counts the operations intended before {@code untilNs} from the one this schedule returned last
     * ({@code pendingNs}, never issued) on, and advances past them; 0 when {@code pendingNs} is not before
     * {@code untilNs}. Called once, as a run stops, to count what fell due but was never issued, so it must
     * not step through them one at a time: a stalled worker at 10^9 ops/s leaves 10^9 a second. Times
     * compare wrap-safely ({@code a - b < 0}, as {@link System#nanoTime()} requires).
     */
    long countUntil(long pendingNs, long untilNs);
}
