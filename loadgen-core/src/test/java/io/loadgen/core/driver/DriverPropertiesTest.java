package io.loadgen.core.driver;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A driver's properties: strict by default, and kept to hand on for a driver that passes them through. */
class DriverPropertiesTest {
    private static final List<PropertySpec> SPECS = List.of(new PropertySpec("hand.target", "a", "what it runs"));

    private static DriverProvider provider(boolean passesThrough) {
        return new DriverProvider() {
            public String name() {
                return "hand";
            }

            public String description() {
                return "hands properties on";
            }

            public List<PropertySpec> properties() {
                return SPECS;
            }

            public boolean passesPropertiesThrough() {
                return passesThrough;
            }

            public List<String> operations() {
                return List.of("READ");
            }

            public Driver open(DriverProperties properties, DriverContext context) {
                return op -> Status.OK;
            }
        };
    }

    @Test
    void aStrictDriverRefusesAnUndeclaredKeyWithTheHint() {
        BadInputException e = assertThrows(BadInputException.class, () -> DriverProperties.of(provider(false),
                Map.of("other.url", "x"), key -> "; a hint"));
        assertEquals("driver hand has no property 'other.url'; it knows hand.target; a hint", e.getMessage());
    }

    @Test
    void aPassThroughDriverKeepsUndeclaredKeysAndShowsThemRedacted() {
        DriverProperties p = DriverProperties.of(provider(true), Map.of("other.url", "x", "other.password", "hunter2"),
                key -> "");
        assertEquals(Map.of("other.url", "x", "other.password", "hunter2"), p.given());
        assertEquals("a", p.getString("hand.target"));
        assertEquals("hand.target=a other.password=*** other.url=x", p.toString());
    }

    @Test
    void aPassThroughDriverStillRefusesItsOwnPrefixAndAHintedKey() {
        BadInputException own = assertThrows(BadInputException.class, () -> DriverProperties.of(provider(true),
                Map.of("hand.traget", "b"), key -> ""));
        assertEquals("driver hand has no property 'hand.traget'; it knows hand.target, and hands other keys (without"
                + " its prefix) to what it runs", own.getMessage());
        BadInputException hinted = assertThrows(BadInputException.class, () -> DriverProperties.of(provider(true),
                Map.of("recordcont", "1"), key -> key.equals("recordcont") ? "; did you mean 'recordcount'?" : ""));
        assertEquals("driver hand has no property 'recordcont'; it knows hand.target, and hands other keys (without"
                + " its prefix) to what it runs; did you mean 'recordcount'?", hinted.getMessage());
    }
}
