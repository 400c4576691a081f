package io.loadgen.core.driver;

import java.util.Objects;

/**
 * One property a driver accepts: its name, default (as the user would type it) and a one-line
 * description. Immutable; declared by a {@link DriverProvider} and listed by {@code loadgen drivers}.
 */
public record PropertySpec(String name, String defaultValue, String description) {
    public PropertySpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(defaultValue, "defaultValue");
        Objects.requireNonNull(description, "description");
    }
}
