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

    /**
     * The operation types this driver executes with these properties: {@link #operations()} by default; a
     * driver whose types are named by its properties (http's requests, each its own series) overrides it.
     * Called on the main thread before {@link #open}.
     */
    default List<String> operations(DriverProperties properties) {
        return operations();
    }

    /**
     * How often a run without a workload or {@code --operation} issues each of {@link #operations(DriverProperties)}:
     * relative weights, one per type, or null (the default) to issue only the first.
     */
    default double[] operationWeights(DriverProperties properties) {
        return null;
    }

    /** Opens the driver with validated properties. Failures are reported to the user as one line. */
    Driver open(DriverProperties properties, DriverContext context) throws Exception;
}
