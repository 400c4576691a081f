package io.loadgen.drivers.noop;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;

/**
 * A driver that does nothing: every operation returns {@link Status#OK} at once. Stateless, so one
 * instance serves every run; worker threads call {@link #execute} concurrently.
 */
final class NoopDriver implements Driver {
    static final NoopDriver INSTANCE = new NoopDriver();

    private NoopDriver() {
    }

    @Override
    public Status execute(Operation op) {
        return Status.OK;
    }
}
