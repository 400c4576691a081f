package io.loadgen.drivers;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.core.driver.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Contract every driver in this module keeps: found by name, YCSB operations (key-value drivers), strict properties. */
class DriverProvidersTest {

    static DriverProvider find(String name) {
        Optional<DriverProvider> found = ServiceLoader.load(DriverProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name))
                .findFirst();
        assertTrue(found.isPresent(), "ServiceLoader finds no driver named " + name);
        return found.get();
    }

    @ParameterizedTest
    @ValueSource(strings = {"noop", "mockdb", "stw-mockdb", "queue", "ping", "redis", "ycsb", "memcached"})
    void serviceLoaderFindsProviderByName(String name) {
        assertEquals(name, find(name).name());
    }

    @ParameterizedTest
    @ValueSource(strings = {"noop", "mockdb", "stw-mockdb", "redis", "ycsb", "memcached"})
    void providerIssuesYcsbOperationsWithReadFirst(String name) {
        assertEquals(List.of("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "DELETE"),
                find(name).operations());
    }

    @ParameterizedTest
    @ValueSource(strings = {"mockdb", "stw-mockdb", "queue", "ping", "redis", "memcached"})
    void unknownPropertyIsRejectedListingTheKnownOnes(String name) {
        DriverProvider provider = find(name);
        BadInputException e = assertThrows(BadInputException.class, () ->
                DriverProperties.of(provider.name(), provider.properties(), Map.of(name + ".dealy", "4ms")));
        assertTrue(e.getMessage().contains("'" + name + ".dealy'"), e.getMessage());
        for (PropertySpec spec : provider.properties()) {
            assertTrue(e.getMessage().contains(spec.name()), "message lacks " + spec.name() + ": " + e.getMessage());
        }
    }

    /** Only a driver that hands properties on (ycsb, to its binding) takes keys it does not declare. */
    @ParameterizedTest
    @ValueSource(strings = {"noop", "mockdb", "stw-mockdb", "queue", "ping", "redis", "http", "memcached"})
    void everyOtherDriverRefusesAKeyItDoesNotDeclare(String name) {
        DriverProvider provider = find(name);
        assertFalse(provider.passesPropertiesThrough(), name);
        BadInputException e = assertThrows(BadInputException.class, () ->
                DriverProperties.of(provider, Map.of("mongodb.url", "mongodb://127.0.0.1"), key -> ""));
        assertTrue(e.getMessage().startsWith("driver " + name + " has no property 'mongodb.url'"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"noop", "mockdb", "stw-mockdb", "queue", "ping", "redis", "ycsb", "memcached"})
    void everyPropertyNameCarriesTheDriverPrefix(String name) {
        for (PropertySpec spec : find(name).properties()) {
            assertTrue(spec.name().startsWith(name + "."), spec.name());
        }
    }

    @org.junit.jupiter.api.Test
    void ycsbOperationsIndexesNameTheirTypes() {
        List<String> names = io.loadgen.drivers.support.YcsbOperations.NAMES;
        assertEquals("READ", names.get(io.loadgen.drivers.support.YcsbOperations.READ));
        assertEquals("UPDATE", names.get(io.loadgen.drivers.support.YcsbOperations.UPDATE));
        assertEquals("INSERT", names.get(io.loadgen.drivers.support.YcsbOperations.INSERT));
        assertEquals("SCAN", names.get(io.loadgen.drivers.support.YcsbOperations.SCAN));
        assertEquals("READ-MODIFY-WRITE", names.get(io.loadgen.drivers.support.YcsbOperations.READ_MODIFY_WRITE));
        assertEquals("DELETE", names.get(io.loadgen.drivers.support.YcsbOperations.DELETE));
    }

    @org.junit.jupiter.api.Test
    void pingIssuesItsOwnSingleOperation() {
        assertEquals(List.of("PING"), find("ping").operations());
    }

    /**
     * Not redis or memcached: their default URIs are shared servers the tests must never use (RedisDriverTest and
     * MemcachedDriverTest start their own).
     */
    @ParameterizedTest
    @ValueSource(strings = {"noop", "mockdb", "stw-mockdb", "queue"})
    void defaultsOpenAndServeAnOperation(String name) throws Exception {
        DriverProvider provider = find(name);
        Driver driver = provider.open(DriverProperties.of(name, provider.properties(), Map.of()), new DriverContext(2, 1L));
        Operation op = new Operation(1);
        op.prepare(0, provider.operations().get(0), System.nanoTime(), 0);
        assertEquals(Status.OK, driver.execute(op));
        driver.close();
    }
}
