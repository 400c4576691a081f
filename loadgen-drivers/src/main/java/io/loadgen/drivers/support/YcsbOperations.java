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

    private YcsbOperations() {
    }
}
