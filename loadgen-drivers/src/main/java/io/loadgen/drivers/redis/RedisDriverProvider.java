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

    /**
     * Says where {@code redis.connections} (and {@code -c}) does not mean one request in flight per connection, as
     * redis-benchmark's {@code -c} clients: with fewer connections than threads, threads share them and pipeline;
     * with a count that is not a multiple of the threads, some connections wait while others work.
     */
    private static void warnOfIdleOrSharedConnections(int connections, int threads) {
        if (connections < threads) {
            LOG.warn("{} {} is fewer than --threads {}: threads share connections (thread i uses connection i mod {}),"
                    + " so their operations are pipelined; give -c {} or more for one operation in flight per"
                    + " connection, as redis-benchmark's clients", RedisSettings.CONNECTIONS, connections, threads,
                    connections, threads);
        } else if (connections % threads != 0) {
            LOG.warn("{} {} over {} threads: {} in flight per thread, {} in all, so {} connection(s) wait at any time;"
                    + " give a multiple of --threads to keep them all busy", RedisSettings.CONNECTIONS, connections,
                    threads, connections / threads, connections / threads * threads,
                    connections - connections / threads * threads);
        }
    }

    /** YCSB's operations, or the names of {@code redis.requests}' commands. */
    @Override
    public List<String> operations(DriverProperties properties) {
        DataTypeRequests requests = DataTypeRequests.from(properties);
        return requests == null ? operations() : requests.names();
    }

    /** The weights of {@code redis.requests}' commands, when there are several. */
    @Override
    public double[] operationWeights(DriverProperties properties) {
        DataTypeRequests requests = DataTypeRequests.from(properties);
        return requests != null && requests.requests().size() > 1 ? requests.weights() : null;
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        DataTypeRequests requests = DataTypeRequests.from(properties);
        if (requests != null) {
            return openDataTypes(properties, requests, context);
        }
        RedisSettings settings = RedisSettings.from(properties);
        DriverContext.RecordShape shape = context.recordShape();
        RecordLayout layout = shape != null
                ? new RecordLayout(shape.fieldCount(),
                new FieldLengths(shape.minFieldLength(), shape.fieldLength(), shape.fieldLengthDistribution()),
                shape.fieldNamePrefix(), shape.zeroPadding())
                : new RecordLayout(settings.fieldCount(), settings.fieldLength());
        int threads = context.threads();
        int connections = settings.connectionsFor(threads);
        warnOfIdleOrSharedConnections(connections, threads);
        RedisDriver driver = new RedisDriver(RedisConnector.open(settings, properties.getBoolean(RedisCluster.PROPERTY), connections,
                settings.ioThreadsFor(Math.min(connections, threads)), threads), settings, layout, threads);
        LOG.debug("redis opened: {}", properties);
        return driver;
    }

    /** The driver of {@code redis.requests}: the same connections and loops, the file's commands as operations. */
    private static Driver openDataTypes(DriverProperties properties, DataTypeRequests requests, DriverContext context) {
        RedisSettings settings = RedisSettings.from(properties);
        int threads = context.threads();
        int connections = settings.connectionsFor(threads);
        warnOfIdleOrSharedConnections(connections, threads);
        DataTypeDriver driver = new DataTypeDriver(RedisConnector.open(settings,
                properties.getBoolean(RedisCluster.PROPERTY), connections,
                settings.ioThreadsFor(Math.min(connections, threads)), threads), settings, requests, threads,
                context.seed());
        LOG.debug("redis opened with {}: {}", DataTypeRequests.REQUESTS, properties);
        return driver;
    }
}
