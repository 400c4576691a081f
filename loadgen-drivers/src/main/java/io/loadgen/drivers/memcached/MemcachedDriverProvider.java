package io.loadgen.drivers.memcached;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.drivers.redis.RecordValues;
import io.loadgen.drivers.support.YcsbOperations;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.List;

/**
 * Opens the {@code memcached} driver: YCSB's operations on a memcached server, one item per record, over
 * Netty connections of its own in memcached's text protocol (or its meta protocol). Stateless; called on the
 * main thread.
 */
public final class MemcachedDriverProvider implements DriverProvider {
    private static final Logger LOG = LogManager.getLogger(MemcachedDriverProvider.class);

    @Override
    public String name() {
        return "memcached";
    }

    @Override
    public String description() {
        return "a memcached server, an item user<key> per record (get, set, delete; SCAN is NOT_IMPLEMENTED), a"
                + " connection per thread, issued on its event loop";
    }

    @Override
    public List<PropertySpec> properties() {
        return MemcachedSettings.SPECS;
    }

    @Override
    public List<String> operations() {
        return YcsbOperations.NAMES;
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        MemcachedSettings settings = MemcachedSettings.from(properties);
        RecordValues records = Requests.records(settings.valueSize(), context.recordShape());
        int threads = context.threads();
        int connections = settings.connectionsFor(threads);
        if (connections < threads) {
            LOG.warn("{} {} is fewer than --threads {}: threads share connections (thread i uses connection i mod {}),"
                    + " so their operations are pipelined; give -c {} or more for one operation in flight per"
                    + " connection, as memtier's clients", MemcachedSettings.CONNECTIONS, connections, threads,
                    connections, threads);
        } else if (connections % threads != 0) {
            LOG.warn("{} {} over {} threads: {} in flight per thread, so {} connection(s) wait at any time; give a"
                    + " multiple of --threads to keep them all busy", MemcachedSettings.CONNECTIONS, connections,
                    threads, connections / threads, connections - connections / threads * threads);
        }
        MemcachedDriver driver = MemcachedDriver.open(settings, connections,
                settings.ioThreadsFor(Math.min(connections, threads)), threads, records);
        LOG.debug("memcached {} opened: {}", driver.serverVersion(), properties);
        return driver;
    }
}
