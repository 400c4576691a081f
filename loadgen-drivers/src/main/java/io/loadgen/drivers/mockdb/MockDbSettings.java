package io.loadgen.drivers.mockdb;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.core.time.Durations;

import java.time.Duration;
import java.util.List;

/**
 * The {@code mockdb} properties, declared, defaulted, parsed and checked in one place. Immutable;
 * built on the main thread when the driver opens.
 *
 * @param delayNs       how long each operation takes, or its upper bound when {@code randomize}
 * @param randomize     draw each operation's delay uniformly from {@code [0, delayNs]}
 * @param pauseEveryNs  period of the global pauses, from the moment the driver opens; 0 = never
 * @param pauseLengthNs length of each global pause, below {@code pauseEveryNs}
 * @param capacity      the operations per second the store serves, one at a time in arrival order; 0 = unlimited
 */
record MockDbSettings(long delayNs, boolean randomize, long pauseEveryNs, long pauseLengthNs, double capacity) {
    static final String DELAY = "mockdb.delay";
    static final String RANDOMIZE = "mockdb.randomize";
    static final String PAUSE_EVERY = "mockdb.pause.every";
    static final String PAUSE_LENGTH = "mockdb.pause.length";
    static final String CAPACITY = "mockdb.capacity";
    /** The largest capacity: one operation per nanosecond, the clock's resolution. */
    static final double MAX_CAPACITY = 1e9;

    static final List<PropertySpec> SPECS = List.of(
            new PropertySpec(DELAY, "0ms", "how long each operation takes (e.g. 4ms)"),
            new PropertySpec(RANDOMIZE, "false", "when true, each operation's delay is uniform in [0, delay]"),
            new PropertySpec(PAUSE_EVERY, "0s",
                    "period of stop-the-world pauses that hold every thread, from open; 0s = never"),
            new PropertySpec(PAUSE_LENGTH, "0ms", "length of each pause; shorter than " + PAUSE_EVERY),
            new PropertySpec(CAPACITY, "0",
                    "ops/s the store serves, one at a time in arrival order like a single-threaded server (each"
                            + " occupies it for 1/capacity, before its delay); 0 = unlimited"));

    /**
     * Reads and checks the properties.
     *
     * @throws BadInputException naming the property and the fix
     */
    static MockDbSettings from(DriverProperties properties) {
        MockDbSettings s = new MockDbSettings(
                properties.getDuration(DELAY).toNanos(),
                properties.getBoolean(RANDOMIZE),
                properties.getDuration(PAUSE_EVERY).toNanos(),
                properties.getDuration(PAUSE_LENGTH).toNanos(),
                properties.getDouble(CAPACITY));
        s.checkPauses();
        s.checkCapacity();
        return s;
    }

    /** How long one operation occupies the store: 1/capacity, in ns; 0 when the capacity is unlimited. */
    long occupancyNs() {
        return capacity == 0 ? 0 : Math.max(1, Math.round(1e9 / capacity));
    }

    private void checkCapacity() {
        if (!(capacity >= 0 && capacity <= MAX_CAPACITY)) {
            throw new BadInputException(CAPACITY + " must be between 0 (unlimited) and 1e9 ops/s (one operation per"
                    + " nanosecond), got " + capacity + "; give the ops/s the store serves, e.g. 500");
        }
    }

    private void checkPauses() {
        if (pauseEveryNs > 0 && pauseLengthNs >= pauseEveryNs) {
            throw new BadInputException(PAUSE_LENGTH + " (" + format(pauseLengthNs) + ") must be shorter than "
                    + PAUSE_EVERY + " (" + format(pauseEveryNs) + "); shorten the pause or lengthen the period");
        }
        if (pauseEveryNs == 0 && pauseLengthNs > 0) {
            throw new BadInputException(PAUSE_LENGTH + " is " + format(pauseLengthNs) + " but " + PAUSE_EVERY
                    + " is 0s (never pause); set " + PAUSE_EVERY + " to the period, e.g. 1s");
        }
    }

    private static String format(long ns) {
        return Durations.format(Duration.ofNanos(ns));
    }
}
