package io.loadgen.core.driver;

/**
 * A driver of the async shape: {@link #submit} starts an operation and returns at once; the driver
 * calls the given {@link Completion} when the operation ends. An issuer thread keeps the schedule and
 * submits; the number of operations in flight is bounded by the run ({@code --max-in-flight}), and
 * when the bound is reached the issuer waits, so the wait shows in {@code intended} and nothing is
 * dropped.
 *
 * <p>{@code submit} is called by the run's issuer threads; it must not block, and must copy what it
 * needs from the {@link Operation} before returning (the harness reuses it). {@code complete} may be
 * called from any thread, exactly once per submit, including from inside {@code submit} (e.g. when the
 * request could not even be sent). A driver that enforces a timeout completes with {@link Status#ERROR}.
 */
public interface AsyncDriver extends Driver {

    /** Starts {@code op}; calls {@code completion.complete(status)} exactly once when it ends. */
    void submit(Operation op, Completion completion);

    /**
     * The most operations this driver can have in flight at once, e.g. its connection count when it does
     * not pipeline. The run bounds in-flight operations by the smaller of this and {@code --max-in-flight},
     * so a request never queues inside the driver (where it would count as service time): it waits in the
     * issuer, and that wait counts in {@code intended}. Default: no limit of the driver's own.
     */
    default int maxInFlight() {
        return Integer.MAX_VALUE;
    }

    /**
     * How many operations one issuer has in flight when the user does not say ({@code --max-in-flight}):
     * 1 by default, so {@code --threads N} means N operations in flight, as YCSB's threads do. A driver whose
     * connection count is the user's concurrency (http, redis, ping: wrk's and redis-benchmark's {@code -c})
     * returns its connections per issuer, one in flight on each. The run still bounds it by {@link #maxInFlight()}.
     */
    default int defaultInFlightPerIssuer() {
        return 1;
    }

    /**
     * The single-threaded executor on which issuer {@code issuer}'s operations are best submitted and
     * completed, typically the event loop of the connection that issuer uses; or null (the default) for
     * none. When a driver names one, the run keeps that issuer's schedule on it instead of on a thread of
     * its own: each operation is submitted and completed on the one I/O thread with no hand-off between
     * threads, as wrk2 and redis-benchmark do. Then {@link #submit} is called on that executor, and
     * completions should run there too (a completion on another thread still works, through one task).
     * Called once per issuer on the main thread before the run starts, after {@link #warmUp}.
     *
     * @param issuer the issuer's index, 0 .. threads-1
     */
    default java.util.concurrent.ScheduledExecutorService issuerExecutor(int issuer) {
        return null;
    }

    /**
     * The blocking shape, for callers that want it: submits and waits. The harness never calls this for
     * an async driver; it exists so an async driver is still a {@link Driver}.
     */
    @Override
    default Status execute(Operation op) throws Exception {
        java.util.concurrent.CompletableFuture<Status> result = new java.util.concurrent.CompletableFuture<>();
        submit(op, result::complete);
        return result.get();
    }
}
