package io.loadgen.drivers.noop;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.drivers.support.YcsbOperations;

import java.util.List;

/**
 * Opens the {@code noop} driver, which returns {@code OK} at once: what a run then records is the
 * load generator's own scheduling and recording cost. Stateless; called on the main thread.
 */
public final class NoopDriverProvider implements DriverProvider {

    @Override
    public String name() {
        return "noop";
    }

    @Override
    public String description() {
        return "does nothing and returns OK at once; measures the load generator itself";
    }

    @Override
    public List<PropertySpec> properties() {
        return List.of();
    }

    @Override
    public List<String> operations() {
        return YcsbOperations.NAMES;
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        return NoopDriver.INSTANCE;
    }
}
