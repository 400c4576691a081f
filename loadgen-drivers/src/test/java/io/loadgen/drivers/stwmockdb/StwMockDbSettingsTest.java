package io.loadgen.drivers.stwmockdb;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StwMockDbSettingsTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;

    private static StwMockDbSettings settings(Map<String, String> given) {
        return StwMockDbSettings.from(DriverProperties.of("stw-mockdb", StwMockDbSettings.SPECS, given));
    }

    @Test
    void defaultsAreTheArticlesFourModes() {
        StwMockDbSettings s = settings(Map.of());
        assertArrayEquals(new double[] {0.9, 0.09, 0.0099, 0.0001}, s.probabilities);
        assertArrayEquals(new long[] {200 * US, 1 * MS, 10 * MS, 50 * MS}, s.minNs);
        assertArrayEquals(new long[] {1 * MS, 10 * MS, 50 * MS, 200 * MS}, s.maxNs);
    }

    @Test
    void probabilitiesNotAddingUpToOneAreRejectedNamingThemAll() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> settings(Map.of("stw-mockdb.stw.probability", "0.01")));
        for (String key : new String[] {"fast", "slow", "hiccup", "stw"}) {
            assertTrue(e.getMessage().contains("stw-mockdb." + key + ".probability"), e.getMessage());
        }
        assertTrue(e.getMessage().contains("add up to 1"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), "one line");
    }

    @Test
    void minimumAboveMaximumIsRejectedNamingBoth() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> settings(Map.of("stw-mockdb.slow.min", "20ms")));
        assertTrue(e.getMessage().contains("stw-mockdb.slow.min") && e.getMessage().contains("stw-mockdb.slow.max"),
                e.getMessage());
    }

    @Test
    void probabilityAboveOneIsRejectedNamingIt() {
        BadInputException e = assertThrows(BadInputException.class,
                () -> settings(Map.of("stw-mockdb.fast.probability", "1.5")));
        assertTrue(e.getMessage().contains("stw-mockdb.fast.probability"), e.getMessage());
    }
}
