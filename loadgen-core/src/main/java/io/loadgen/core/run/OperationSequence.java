package io.loadgen.core.run;

/**
 * One run thread's operations: for its n-th operation, which type (an index into the plan's
 * {@link OperationPlan#operations()}) and which key number. Called by that thread only, on the hot path,
 * so it returns both in one primitive (see {@link #encode}) and allocates nothing.
 */
@FunctionalInterface
public interface OperationSequence {
    /** Key numbers use the low 56 bits; the type index the high 8 (up to 128 operation types). */
    int KEY_BITS = 56;
    long KEY_MASK = (1L << KEY_BITS) - 1;

    /**
     * The thread's {@code sequence}-th operation (0-based), as {@code encode(typeIndex, keyNumber)}.
     */
    long next(long sequence);

    static long encode(int typeIndex, long keyNumber) {
        return ((long) typeIndex << KEY_BITS) | (keyNumber & KEY_MASK);
    }

    static int typeIndex(long encoded) {
        return (int) (encoded >>> KEY_BITS);
    }

    static long keyNumber(long encoded) {
        return encoded & KEY_MASK;
    }
}
