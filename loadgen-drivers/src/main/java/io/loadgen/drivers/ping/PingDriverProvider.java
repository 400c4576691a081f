package io.loadgen.drivers.ping;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.PropertySpec;

import java.util.List;

/**
 * Opens the {@code ping} driver: round trips of fixed-size messages to a {@code loadgen ping-server}
 * over TCP or UDP, through Netty. Stateless; called on the main thread.
 */
public final class PingDriverProvider implements DriverProvider {

    @Override
    public String name() {
        return "ping";
    }

    @Override
    public String description() {
        return "round trips of fixed-size messages to 'loadgen ping-server' over tcp or udp (async, Netty)";
    }

    @Override
    public List<PropertySpec> properties() {
        return PingSettings.SPECS;
    }

    @Override
    public List<String> operations() {
        return List.of("PING");
    }

    /** Connects, for the run's threads; the driver returned is an {@link io.loadgen.core.driver.AsyncDriver}. */
    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        return PingDriver.open(PingSettings.from(properties), context.threads());
    }
}
