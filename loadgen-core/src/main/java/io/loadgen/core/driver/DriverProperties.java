package io.loadgen.core.driver;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.Secrets;
import io.loadgen.core.time.Durations;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * A driver's properties, checked against its {@link PropertySpec}s: every key is known (or, for a driver that
 * {@link DriverProvider#passesPropertiesThrough() passes properties through}, kept to hand on), and every
 * typed read names the key when its value does not parse. Immutable; read on the main thread in
 * {@link DriverProvider#open(DriverProperties, DriverContext)}, so drivers parse once into final fields (never on the hot path).
 */
public final class DriverProperties {
    private final String driver;
    private final Map<String, PropertySpec> specs;
    private final Map<String, String> values;

    private DriverProperties(String driver, Map<String, PropertySpec> specs, Map<String, String> values) {
        this.driver = driver;
        this.specs = specs;
        this.values = values;
    }

    /**
     * Validates {@code given} against {@code specs}; a refused key's message lists the driver's keys only (a run
     * adds a hint for workload keys with {@link #of(String, List, Map, UnaryOperator)}).
     *
     * @throws BadInputException for a key the driver does not know, listing those it does
     */
    public static DriverProperties of(String driver, List<PropertySpec> specs, Map<String, String> given) {
        return of(driver, specs, given, key -> "");
    }

    /**
     * Validates {@code given} against {@code specs}, adding {@code unknownKeyHint}'s text for a key the driver
     * does not know: a run passes {@code WorkloadOptions::didYouMean}, so a misspelled workload key that ended up
     * with the driver's properties names the workload key meant (the driver SPI knows no workload keys).
     *
     * @param unknownKeyHint for an unknown key, the text to append to the refusal, e.g.
     *                       {@code "; did you mean the workload property 'readproportion'?"}, or empty
     * @throws BadInputException for a key the driver does not know, listing those it does
     */
    public static DriverProperties of(String driver, List<PropertySpec> specs, Map<String, String> given,
                                      UnaryOperator<String> unknownKeyHint) {
        Map<String, PropertySpec> byName = new TreeMap<>();
        for (PropertySpec s : specs) {
            byName.put(s.name(), s);
        }
        for (String key : given.keySet()) {
            if (!byName.containsKey(key)) {
                String known = byName.isEmpty() ? "it takes none" : "it knows " + String.join(", ", byName.keySet());
                throw new BadInputException("driver " + driver + " has no property '" + Limits.quote(key) + "'; " + known
                        + unknownKeyHint.apply(key));
            }
        }
        return new DriverProperties(driver, Collections.unmodifiableMap(byName), Map.copyOf(given));
    }

    /**
     * Validates {@code given} against what {@code provider} declares, as {@link #of(String, List, Map, UnaryOperator)}
     * does. A provider that {@link DriverProvider#passesPropertiesThrough() passes properties through} also keeps
     * the keys it does not declare, for {@link #given()}, except those that are surely typos: one under the driver's
     * own prefix ({@code ycsb.classpath}) and one {@code unknownKeyHint} has a hint for (a misspelled workload key).
     *
     * @throws BadInputException for a key the driver does not know, listing those it does
     */
    public static DriverProperties of(DriverProvider provider, Map<String, String> given,
                                      UnaryOperator<String> unknownKeyHint) {
        if (!provider.passesPropertiesThrough()) {
            return of(provider.name(), provider.properties(), given, unknownKeyHint);
        }
        Map<String, PropertySpec> byName = new TreeMap<>();
        for (PropertySpec s : provider.properties()) {
            byName.put(s.name(), s);
        }
        for (String key : given.keySet()) {
            String hint = unknownKeyHint.apply(key);
            if (!byName.containsKey(key) && (key.startsWith(provider.name() + ".") || !hint.isEmpty())) {
                throw new BadInputException("driver " + provider.name() + " has no property '" + Limits.quote(key)
                        + "'; it knows " + String.join(", ", byName.keySet()) + ", and hands other keys (without its"
                        + " prefix) to what it runs" + hint);
            }
        }
        return new DriverProperties(provider.name(), Collections.unmodifiableMap(byName), Map.copyOf(given));
    }

    public String driver() {
        return driver;
    }

    /**
     * Every property given, declared or not, without defaults: what a driver that passes properties through hands
     * on (for any other driver, the declared ones that were set).
     */
    public Map<String, String> given() {
        return values;
    }

    /** The value given, or the spec's default. */
    public String getString(String key) {
        String v = values.get(key);
        return v != null ? v : spec(key).defaultValue();
    }

    /** True when the user set this key (rather than taking the default). */
    public boolean isSet(String key) {
        return values.containsKey(key);
    }

    public Duration getDuration(String key) {
        Duration d = Durations.parse(getString(key), "property " + key);
        if (d.isNegative()) {
            throw new BadInputException("property " + Limits.quote(key) + " must not be negative");
        }
        return d;
    }

    public long getLong(String key) {
        String v = getString(key).trim();
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new BadInputException("property " + Limits.quote(key) + ": '" + Limits.quote(v) + "' is not a whole number", e);
        }
    }

    public double getDouble(String key) {
        String v = getString(key).trim();
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new BadInputException("property " + Limits.quote(key) + ": '" + Limits.quote(v) + "' is not a number", e);
        }
    }

    /** A probability or fraction in [0, 1]. */
    public double getFraction(String key) {
        double d = getDouble(key);
        if (!(d >= 0.0 && d <= 1.0)) {
            throw new BadInputException("property " + Limits.quote(key) + ": " + d + " is not between 0 and 1");
        }
        return d;
    }

    public boolean getBoolean(String key) {
        String v = getString(key).trim().toLowerCase(Locale.ROOT);
        if (v.equals("true")) {
            return true;
        }
        if (v.equals("false")) {
            return false;
        }
        throw new BadInputException("property " + Limits.quote(key) + ": '" + Limits.quote(v) + "' is not true or false");
    }

    private PropertySpec spec(String key) {
        PropertySpec s = specs.get(key);
        if (s == null) {
            throw new IllegalStateException("driver " + driver + " reads undeclared property " + key);
        }
        return s;
    }

    /** Every property as {@code key=value}, secrets redacted ({@link Secrets}): for headers and messages. */
    @Override
    public String toString() {
        Set<String> keys = new TreeSet<>(specs.keySet());
        keys.addAll(values.keySet()); // the undeclared keys of a driver that passes them through
        return keys.stream().map(k -> k + "=" + Secrets.redactProperty(k, getString(k)))
                .collect(Collectors.joining(" "));
    }
}
