package io.loadgen.core.driver;

/**
 * What a driver may know about the run that opens it. Immutable; passed to
 * {@link DriverProvider#open(DriverProperties, DriverContext)} on the main thread.
 *
 * @param threads how many workers will call the driver; {@link Operation#workerIndex()} is below this,
 *                so a driver can size per-worker state in arrays instead of thread-locals
 * @param seed    the run's seed; a driver that draws random numbers derives its generators from it,
 *                so a run is repeatable
 */
public record DriverContext(int threads, long seed) {
    public DriverContext {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
    }
}
