package io.loadgen.core.driver;

import java.util.Map;

/**
 * A system under test, opened once by its {@link DriverProvider} and shared by every worker.
 *
 * <p>The blocking shape: {@link #execute(Operation)} is called concurrently from all worker threads
 * and returns when the operation is complete; the worker times it. Implementations must be
 * thread-safe, and should not allocate, log or lock on this path unless that is the behaviour
 * they model (a store that stops the world takes a lock on purpose).
 *
 * <p>A thrown exception counts as {@link Status#ERROR}; its latency is still recorded.
 */
public interface Driver extends AutoCloseable {

    /** Executes one operation on the calling worker thread and returns its outcome. */
    Status execute(Operation op) throws Exception;

    /**
     * Makes the driver ready to be measured: called once on the main thread after open and before the
     * first intended start, so that what a cold start costs (connecting, class loading, a cold JIT) is not
     * counted as the first operations' latency. A driver exercises its own path here with operations that
     * leave the system's data as it was (e.g. reads of a key that does not exist), for at most about
     * {@code budgetNs}. Default: nothing to warm.
     */
    default void warmUp(long budgetNs) throws Exception {
    }

    /**
     * Counters the driver wants in the end-of-run summary (e.g. how many stop-the-world pauses
     * it made). Keys are lower_snake_case. Called once, after all workers have stopped.
     */
    default Map<String, Number> stats() {
        return Map.of();
    }

    /**
     * Counters the status line shows while the run goes on, such as timeouts: each interval it prints
     * those that rose, by how much. Called once per interval on the run's interval aggregator thread while
     * workers run, so read only what is safe to read from another thread without stopping them (e.g.
     * {@code LongAdder}s). Whole-number values (Long, Integer) are counts since open; others are ignored.
     * Default: none.
     */
    default Map<String, Number> liveStats() {
        return Map.of();
    }

    /**
     * What the last failed operation's answer said, for a person (e.g. the server's error reply
     * {@code OOM command not allowed when used memory > 'maxmemory'}), or null when the driver keeps none. Read
     * once after all workers have stopped, for the headline of a run that failed; the harness redacts secrets.
     * A driver keeps it off its hot path: a failure is the rare case. Default: none.
     */
    default String lastFailure() {
        return null;
    }

    /**
     * Releases what {@code open} acquired. Called once, after all workers have stopped. Declares no
     * checked exception: a driver reports a failure to close by logging it or throwing unchecked.
     */
    @Override
    default void close() {
    }
}
