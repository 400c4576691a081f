package io.loadgen.core.run;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;

/**
 * A blocking worker: executes each operation on the driver from its own thread, times it and records
 * it there. One thread only; counts are read by the main thread after joining it.
 */
final class Worker extends LoadThread {
    private final Driver driver;
    Worker(Setup setup, Driver driver) {
        super(setup);
        this.driver = driver;
    }

    @Override
    long issue(Operation op, int type, long key, long intendedNs, long startNs, long lagNs, long delayNs) {
        Status status = execute(op);
        long endNs = clock.nanoTime();
        recorders.record(type, intendedNs, startNs, endNs, lagNs, delayNs, status.ordinal());
        sequence.completed(type, key);
        return endNs;
    }

    private Status execute(Operation op) {
        try {
            Status s = driver.execute(op);
            return s != null ? s : Status.ERROR;
        } catch (Throwable t) {
            onError(t);
            return Status.ERROR;
        }
    }

}
