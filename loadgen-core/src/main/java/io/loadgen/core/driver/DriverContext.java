package io.loadgen.core.driver;

import java.util.Map;

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
 * @param runProperties every property the run was given ({@code -P} files, then {@code -p}), the workload's and the
 *                driver's, for a driver that hands them on as YCSB's client hands them to its DB (the {@code ycsb}
 *                driver); a driver reads its own from its {@link DriverProperties}. Empty outside a run
 */
public record DriverContext(int threads, long seed, RecordShape recordShape, RunEvents events,
                            Map<String, String> runProperties) {
    public DriverContext {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be positive: " + threads);
        }
        events = events == null ? RunEvents.NONE : events;
        runProperties = runProperties == null ? Map.of() : Map.copyOf(runProperties);
    }

    /** A context without the run's properties: a driver that hands properties on has only its own. */
    public DriverContext(int threads, long seed, RecordShape recordShape, RunEvents events) {
        this(threads, seed, recordShape, events, Map.of());
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
