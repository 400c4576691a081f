package io.loadgen.core.run;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.core.driver.Status;

import java.util.List;

/**
 * A provider whose driver runs a given function: for testing the harness's own mechanics in core,
 * which cannot see the real drivers module. Any thread.
 */
final class FunctionDriver implements DriverProvider {
    interface Body {
        Status execute(Operation op) throws Exception;
    }

    private final Body body;

    FunctionDriver(Body body) {
        this.body = body;
    }

    static FunctionDriver ok() {
        return new FunctionDriver(op -> Status.OK);
    }

    @Override
    public String name() {
        return "function";
    }

    @Override
    public String description() {
        return "runs a test's function";
    }

    @Override
    public List<PropertySpec> properties() {
        return List.of(new PropertySpec("function.known", "0", "a property the test can set"));
    }

    @Override
    public List<String> operations() {
        return List.of("READ");
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        return body::execute;
    }
}
