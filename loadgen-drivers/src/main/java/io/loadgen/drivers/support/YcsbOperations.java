package io.loadgen.drivers.support;

import java.util.List;

/**
 * YCSB's operation types, in the order key-value drivers list them; {@code READ} comes first, so
 * a run without a workload issues reads. Constant; any thread.
 */
public final class YcsbOperations {

    /** {@code READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE, DELETE}. */
    public static final List<String> NAMES =
            List.of("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "DELETE");

    /** Each type's index in {@link #NAMES}: a key-value driver's {@code Operation.typeIndex()}. */
    public static final int READ = 0;
    public static final int UPDATE = 1;
    public static final int INSERT = 2;
    public static final int SCAN = 3;
    public static final int READ_MODIFY_WRITE = 4;
    public static final int DELETE = 5;

    private YcsbOperations() {
    }
}
