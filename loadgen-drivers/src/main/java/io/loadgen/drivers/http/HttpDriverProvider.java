package io.loadgen.drivers.http;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.PropertySpec;

import java.util.List;

/**
 * Opens the {@code http} driver: HTTP/1.1 requests over keep-alive connections (https too), through Netty.
 * Its operation types are its requests: the method for {@code http.url} (GET), or each named request of
 * {@code http.requests}, mixed by weight. Stateless; called on the main thread.
 */
public final class HttpDriverProvider implements DriverProvider {

    @Override
    public String name() {
        return "http";
    }

    @Override
    public String description() {
        return "HTTP/1.1 requests over keep-alive connections, https too, as wrk does (async, Netty)";
    }

    @Override
    public List<PropertySpec> properties() {
        return HttpSettings.SPECS;
    }

    /** With the defaults: GET. */
    @Override
    public List<String> operations() {
        return List.of("GET");
    }

    /** The method of {@code http.url}, or the names of {@code http.requests}' requests. */
    @Override
    public List<String> operations(DriverProperties properties) {
        return HttpSettings.from(properties).operations();
    }

    /** The requests' weights, when there are several. */
    @Override
    public double[] operationWeights(DriverProperties properties) {
        HttpSettings s = HttpSettings.from(properties);
        return s.requests().size() > 1 ? s.weights() : null;
    }

    /** Connects; the driver returned is an {@link io.loadgen.core.driver.AsyncDriver}. */
    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        return HttpDriver.open(HttpSettings.from(properties), context.threads());
    }
}
