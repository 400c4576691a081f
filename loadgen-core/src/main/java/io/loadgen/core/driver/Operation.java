package io.loadgen.core.driver;

/**
 * One operation handed to a {@link Driver}: a mutable holder that each worker owns and reuses, so
 * issuing an operation allocates nothing.
 *
 * <p>Written by its worker thread, then read by the driver on the same thread during
 * {@link Driver#execute(Operation)}. A driver must not keep a reference after {@code execute} returns.
 */
public final class Operation {
    private final int workerIndex;
    private int typeIndex;
    private String typeName;
    private long intendedStartNs;
    private long keyNumber;
    private int fieldIndex = -1;
    private int scanLength;

    public Operation(int workerIndex) {
        this.workerIndex = workerIndex;
    }

    /** Sets the fields for the next operation; called by the worker before each {@code execute}. */
    public void prepare(int typeIndex, String typeName, long intendedStartNs, long keyNumber) {
        this.typeIndex = typeIndex;
        this.typeName = typeName;
        this.intendedStartNs = intendedStartNs;
        this.keyNumber = keyNumber;
        this.fieldIndex = -1;
        this.scanLength = 0;
    }

    /**
     * Sets a workload's details for the operation prepared last: which single field it reads or writes
     * (YCSB's {@code readallfields=false} / {@code writeallfields=false}), and how many records a SCAN reads.
     */
    public void detail(int fieldIndex, int scanLength) {
        this.fieldIndex = fieldIndex;
        this.scanLength = scanLength;
    }

    /** Index of the worker issuing this operation, 0-based; drivers may use it to index per-worker state. */
    public int workerIndex() {
        return workerIndex;
    }

    /** Index of the operation type in the driver's {@link DriverProvider#operations()} list. */
    public int typeIndex() {
        return typeIndex;
    }

    /** Name of the operation type, e.g. {@code READ}. */
    public String typeName() {
        return typeName;
    }

    /** When this operation should have started, on the {@link System#nanoTime()} timeline. */
    public long intendedStartNs() {
        return intendedStartNs;
    }

    /** The record's key number, for key-value drivers (0 when the workload has no keys). */
    public long keyNumber() {
        return keyNumber;
    }

    /** The one field a READ or UPDATE touches, 0-based; -1 for all fields (the default). */
    public int fieldIndex() {
        return fieldIndex;
    }

    /** How many records a SCAN reads; 0 for the driver's own default. */
    public int scanLength() {
        return scanLength;
    }
}
