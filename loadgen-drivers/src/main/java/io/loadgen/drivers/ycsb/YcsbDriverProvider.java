package io.loadgen.drivers.ycsb;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.drivers.support.YcsbOperations;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.List;

/**
 * Opens the {@code ycsb} driver: any YCSB binding's {@code site.ycsb.DB}, loaded from a YCSB release's jars
 * ({@code ycsb.classpath}) and run under loadgen's schedule, one DB per thread. It passes every property it does
 * not declare to the DB, as YCSB's client does. Stateless; called on the main thread.
 */
public final class YcsbDriverProvider implements DriverProvider {
    private static final Logger LOG = LogManager.getLogger(YcsbDriverProvider.class);

    @Override
    public String name() {
        return "ycsb";
    }

    @Override
    public String description() {
        return "any YCSB binding (a site.ycsb.DB from a YCSB release's jars: MongoDB, Cassandra, Redis, ...), one DB"
                + " per thread as YCSB runs it, every other -p passed to it";
    }

    @Override
    public List<PropertySpec> properties() {
        return YcsbSettings.SPECS;
    }

    @Override
    public boolean passesPropertiesThrough() {
        return true;
    }

    @Override
    public List<String> operations() {
        return YcsbOperations.NAMES;
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        YcsbSettings settings = YcsbSettings.from(properties, context);
        YcsbBinding binding = YcsbBinding.load(settings.dbClass(), settings.jars());
        YcsbDriver driver = YcsbDriver.open(binding, settings, context);
        LOG.debug("ycsb opened {} x {} from {} jars: {}", context.threads(), settings.dbClass(), settings.jars().size(),
                properties);
        return driver;
    }
}
