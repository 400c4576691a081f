package io.loadgen.core.workload;

/**
 * One run thread's operations: for its n-th operation, which type (an index into the plan's
 * {@link OperationPlan#operations()}) and then which key number. Called by that thread only, on the hot
 * path, in that order ({@link #nextType} then {@link #nextKey}); allocates nothing.
 */
public interface OperationSequence {

    /** The type of the thread's {@code sequence}-th operation (0-based), as an index into the plan's types. */
    int nextType(long sequence);

    /** The logical key number of that operation, given its type (e.g. an INSERT takes the next new key). */
    long nextKey(int type, long sequence);

    /** Sets the operation's workload details ({@link Operation#detail}), after its type and key. Default: none. */
    default void detail(int type, io.loadgen.core.driver.Operation op) {
    }

    /** The key number the driver sees for a logical key (e.g. YCSB's hashed insert order). Default: the same. */
    default long driverKey(long logicalKey) {
        return logicalKey;
    }

    /**
     * The operation with this type and logical key has completed (whatever its status): e.g. an INSERT's key
     * may now be read. Called on the thread that completes it: the worker, or an async driver's I/O thread.
     */
    default void completed(int type, long logicalKey) {
    }
}
