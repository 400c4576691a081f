package io.loadgen.drivers.redis;

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
 * Opens the {@code redis} driver: YCSB's operations on a Redis server through Lettuce's async API.
 * Stateless; called on the main thread.
 */
public final class RedisDriverProvider implements DriverProvider {
    private static final Logger LOG = LogManager.getLogger(RedisDriverProvider.class);

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public String description() {
        return "a Redis server, YCSB's data model (a hash per record, a sorted-set index for SCAN), a connection per thread, issued on its event loop";
    }

    @Override
    public List<PropertySpec> properties() {
        return RedisSettings.SPECS;
    }

    @Override
    public List<String> operations() {
        return YcsbOperations.NAMES;
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        RedisSettings settings = RedisSettings.from(properties);
        DriverContext.RecordShape shape = context.recordShape();
        RecordLayout layout = shape != null
                ? new RecordLayout(shape.fieldCount(),
                new FieldLengths(shape.minFieldLength(), shape.fieldLength(), shape.fieldLengthDistribution()),
                shape.fieldNamePrefix(), shape.zeroPadding())
                : new RecordLayout(settings.fieldCount(), settings.fieldLength());
        int connections = settings.connectionsFor(context.threads());
        RedisDriver driver = new RedisDriver(
                RedisConnector.open(settings, connections, settings.ioThreadsFor(connections)), settings, layout);
        LOG.debug("redis opened: {}", properties);
        return driver;
    }
}
