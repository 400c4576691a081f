package io.loadgen.core.driver;

import io.loadgen.core.BadInputException;
import io.loadgen.core.EditDistance;
import io.loadgen.core.Limits;

import java.util.List;
import java.util.ServiceLoader;
import java.util.stream.Collectors;

/**
 * Finds drivers through {@link ServiceLoader}: every {@link DriverProvider} on the class path,
 * including a user's own jar. Stateless; any thread.
 */
public final class DriverRegistry {
    private DriverRegistry() {
    }

    /** Every driver on the class path, sorted by name. */
    public static List<DriverProvider> all() {
        return ServiceLoader.load(DriverProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .collect(Collectors.toList());
    }

    /**
     * The driver called {@code name}.
     *
     * @throws BadInputException naming the drivers there are
     */
    public static DriverProvider find(String name) {
        List<DriverProvider> all = all();
        for (DriverProvider p : all) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        List<String> names = all.stream().map(DriverProvider::name).collect(Collectors.toList());
        String hint = EditDistance.closest(name, names, EditDistance.TYPO).map(n -> "did you mean " + n + "? ")
                .orElse("");
        throw new BadInputException("unknown driver '" + Limits.quote(name) + "'; " + hint + "choose one of: "
                + String.join(", ", names) + " (see 'loadgen drivers')");
    }
}
