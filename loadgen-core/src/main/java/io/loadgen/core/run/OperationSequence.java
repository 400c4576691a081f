package io.loadgen.core.run;

/**
 * One run thread's operations: for its n-th operation, which type (an index into the plan's
 * {@link OperationPlan#operations()}) and then which key number. Called by that thread only, on the hot
 * path, in that order ({@link #nextType} then {@link #nextKey}); allocates nothing.
 */
public interface OperationSequence {

    /** The type of the thread's {@code sequence}-th operation (0-based), as an index into the plan's types. */
    int nextType(long sequence);

    /** The key number of that operation, given its type (e.g. an INSERT takes the next new key). */
    long nextKey(int type, long sequence);
}
