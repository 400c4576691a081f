package io.loadgen.drivers.noop;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NoopDriverTest {
    private final NoopDriverProvider provider = new NoopDriverProvider();

    @Test
    void everyOperationReturnsOk() throws Exception {
        Driver driver = provider.open(DriverProperties.of("noop", provider.properties(), Map.of()),
                new DriverContext(1, 0L));
        Operation op = new Operation(0);
        for (int type = 0; type < provider.operations().size(); type++) {
            op.prepare(type, provider.operations().get(type), System.nanoTime(), type);
            assertEquals(Status.OK, driver.execute(op));
        }
        assertTrue(driver.stats().isEmpty());
    }

    @Test
    void anyPropertyIsRejectedSayingItTakesNone() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> DriverProperties.of("noop", provider.properties(), Map.of("noop.delay", "1ms")));
        assertTrue(e.getMessage().contains("it takes none"), e.getMessage());
    }
}
