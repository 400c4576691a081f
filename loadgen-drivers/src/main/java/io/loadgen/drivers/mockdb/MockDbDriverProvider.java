package io.loadgen.drivers.mockdb;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.drivers.support.WorkerRandoms;
import io.loadgen.drivers.support.YcsbOperations;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.List;

/**
 * Opens the {@code mockdb} driver: a store with a set delay per operation, optional periodic
 * stop-the-world pauses and an optional capacity (YCSB BasicDB's role). Stateless; called on the main thread.
 */
public final class MockDbDriverProvider implements DriverProvider {
    private static final Logger LOG = LogManager.getLogger(MockDbDriverProvider.class);

    @Override
    public String name() {
        return "mockdb";
    }

    @Override
    public String description() {
        return "in-memory mock store with a fixed or random delay per operation, optional periodic pauses and an"
                + " optional capacity (ops/s served one at a time)";
    }

    @Override
    public List<PropertySpec> properties() {
        return MockDbSettings.SPECS;
    }

    @Override
    public List<String> operations() {
        return YcsbOperations.NAMES;
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        MockDbSettings settings = MockDbSettings.from(properties);
        LOG.debug("mockdb opened: {}", properties);
        return new MockDbDriver(settings, WorkerRandoms.split(context), System.nanoTime());
    }
}
