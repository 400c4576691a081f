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

    /**
     * Every property the driver declares: each is checked and defaulted; any other key is rejected before the run
     * starts, naming these, unless the driver {@link #passesPropertiesThrough()}.
     */
    List<PropertySpec> properties();

    /**
     * Whether the driver also takes keys it does not declare, to hand them on to what it runs: the {@code ycsb}
     * driver gives every property to the YCSB binding, which reads its own ({@code mongodb.url},
     * {@code redis.host}, ...) and which loadgen cannot list. Such a driver reads them from
     * {@link DriverProperties#given()}; its declared ones are still checked. False by default, so a misspelled key
     * is refused.
     */
    default boolean passesPropertiesThrough() {
        return false;
    }

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
