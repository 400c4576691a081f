package io.loadgen.drivers.support;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;

import java.util.Arrays;

/**
 * Times operations one by one on the calling (test) thread, so tests can bound the typical
 * operation (the median) instead of a total that one scheduler stall on a busy build machine can blow.
 */
public final class OpTimes {
    private final long[] sortedNs;

    private OpTimes(long[] sortedNs) {
        this.sortedNs = sortedNs;
    }

    /** Executes {@code count} READs as worker 0 and keeps each one's duration. */
    public static OpTimes of(Driver driver, int count) throws Exception {
        Operation op = new Operation(0);
        long[] ns = new long[count];
        for (int i = 0; i < count; i++) {
            long startNs = System.nanoTime();
            op.prepare(0, "READ", startNs, i);
            if (driver.execute(op) != Status.OK) {
                throw new AssertionError("operation " + i + " did not return OK");
            }
            ns[i] = System.nanoTime() - startNs;
        }
        Arrays.sort(ns);
        return new OpTimes(ns);
    }

    public long minNs() {
        return sortedNs[0];
    }

    public long medianNs() {
        return sortedNs[sortedNs.length / 2];
    }

    @Override
    public String toString() {
        return "min " + minNs() / 1e6 + " ms, median " + medianNs() / 1e6 + " ms, max "
                + sortedNs[sortedNs.length - 1] / 1e6 + " ms";
    }
}
