package io.loadgen.drivers.queue;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.PropertySpec;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.List;

/**
 * Opens the {@code queue} driver: the lock-free queue articles' round-trip benchmark, a burst of
 * messages sent from each worker round its own ring of threads linked by queues. Stateless; called
 * on the main thread.
 */
public final class QueueDriverProvider implements DriverProvider {
    private static final Logger LOG = LogManager.getLogger(QueueDriverProvider.class);

    @Override
    public String name() {
        return "queue";
    }

    @Override
    public String description() {
        return "round trip of a burst of messages through a ring of threads linked by queues (JDK or JCTools)";
    }

    @Override
    public List<PropertySpec> properties() {
        return QueueSettings.SPECS;
    }

    @Override
    public List<String> operations() {
        return List.of("ROUNDTRIP");
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        QueueSettings settings = QueueSettings.from(properties);
        LOG.debug("queue opened for {} workers: {}", context.threads(), properties);
        return QueueDriver.open(settings, context.threads());
    }
}
