package io.loadgen.core.driver;

import java.util.List;

/**
 * Names a driver and opens it: the {@link java.util.ServiceLoader} entry point. A jar that lists
 * an implementation in {@code META-INF/services/io.loadgen.core.driver.DriverProvider} adds a driver.
 *
 * <p>Called on the main thread before a run starts; implementations are stateless.
 */
public interface DriverProvider {

    /** The name users type after {@code --driver}, e.g. {@code mockdb}. */
    String name();

    /** One line on what the driver talks to. */
    String description();

    /** Every property the driver accepts; any other key is rejected before the run starts. */
    List<PropertySpec> properties();

    /**
     * The operation types this driver executes, e.g. {@code READ, UPDATE}. A run without a workload
     * issues the first one.
     */
    List<String> operations();

    /** Opens the driver with validated properties. Failures are reported to the user as one line. */
    Driver open(DriverProperties properties, DriverContext context) throws Exception;
}
