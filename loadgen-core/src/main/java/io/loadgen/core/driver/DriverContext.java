package io.loadgen.core.driver;

/**
 * What a driver may know about the run that opens it. Immutable; passed to
 * {@link DriverProvider#open(DriverProperties, DriverContext)} on the main thread.
 *
 * @param threads how many workers will call the driver; {@link Operation#workerIndex()} is below this,
 *                so a driver can size per-worker state in arrays instead of thread-locals
 * @param seed    the run's seed; a driver that draws random numbers derives its generators from it,
 *                so a run is repeatable
 * @param recordShape the workload's record shape, or null when the run has no YCSB workload
 * @param events  where the driver reports what it did to the run, e.g. a store's stop-the-world pause:
 *                registered with {@link RunEvents#kind} when it opens, recorded (allocation-free, any
 *                thread) with {@link RunEvents#record}, and written to the interval log as
 *                {@code #[event: ...]} lines; {@link RunEvents#NONE} outside a run
 */
public record DriverContext(int threads, long seed, RecordShape recordShape, RunEvents events) {
    public DriverContext {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
        events = events == null ? RunEvents.NONE : events;
    }

    /** A context without events: what the driver reports is not kept. */
    public DriverContext(int threads, long seed, RecordShape recordShape) {
        this(threads, seed, recordShape, RunEvents.NONE);
    }

    /** A context without a workload's record shape: the driver uses its own properties. */
    public DriverContext(int threads, long seed) {
        this(threads, seed, null);
    }

    /**
     * The records a YCSB workload describes, for key-value drivers; when present it takes precedence over
     * the driver's own record properties.
     *
     * @param fieldCount              {@code fieldcount}
     * @param fieldLength             {@code fieldlength}: the (longest) value length in bytes
     * @param minFieldLength          {@code minfieldlength}: the shortest, for non-constant lengths
     * @param fieldLengthDistribution {@code fieldlengthdistribution}: constant, uniform or zipfian
     * @param fieldNamePrefix         {@code fieldnameprefix}: field i is named prefix + i
     * @param zeroPadding             {@code zeropadding}: key numbers are zero-padded to this many digits
     */
    public record RecordShape(int fieldCount, int fieldLength, int minFieldLength, String fieldLengthDistribution,
                              String fieldNamePrefix, int zeroPadding) {
    }
}
