package io.loadgen.drivers.stwmockdb;

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
 * Opens the {@code stw-mockdb} driver: a store whose operations are fast, slow, hiccup on their
 * own thread, or rarely stop every thread (Gil Tene's coordinated-omission example). Stateless;
 * called on the main thread.
 */
public final class StwMockDbDriverProvider implements DriverProvider {
    private static final Logger LOG = LogManager.getLogger(StwMockDbDriverProvider.class);

    static final String NAME = "stw-mockdb";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "mock store with fast, slow, hiccup and rare stop-the-world operations that stall every thread";
    }

    @Override
    public List<PropertySpec> properties() {
        return StwMockDbSettings.SPECS;
    }

    @Override
    public List<String> operations() {
        return YcsbOperations.NAMES;
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        StwMockDbSettings settings = StwMockDbSettings.from(properties);
        LOG.debug("stw-mockdb opened: {}", properties);
        return new StwMockDbDriver(settings, WorkerRandoms.split(context), context.events());
    }
}
