package io.loadgen.drivers.stwmockdb;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.core.time.Durations;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code stw-mockdb} properties: for each {@link Mode} a probability and a duration range,
 * declared, defaulted, parsed and checked in one place. Built on the main thread when the driver
 * opens; its arrays are by mode ordinal and must not be changed after {@link #from}.
 */
final class StwMockDbSettings {
    /** How far the probabilities' sum may stray from 1. */
    static final double SUM_TOLERANCE = 1e-9;

    static final List<PropertySpec> SPECS = specs();

    final double[] probabilities = new double[Mode.VALUES.length];
    final long[] minNs = new long[Mode.VALUES.length];
    final long[] maxNs = new long[Mode.VALUES.length];

    private StwMockDbSettings() {
    }

    /**
     * Reads and checks the properties.
     *
     * @throws BadInputException naming the property and the fix
     */
    static StwMockDbSettings from(DriverProperties properties) {
        StwMockDbSettings s = new StwMockDbSettings();
        for (Mode m : Mode.VALUES) {
            s.probabilities[m.ordinal()] = properties.getFraction(m.probabilityProperty());
            s.minNs[m.ordinal()] = properties.getDuration(m.minProperty()).toNanos();
            s.maxNs[m.ordinal()] = properties.getDuration(m.maxProperty()).toNanos();
            s.checkRange(m);
        }
        s.checkSum();
        return s;
    }

    private void checkRange(Mode m) {
        if (minNs[m.ordinal()] > maxNs[m.ordinal()]) {
            throw new BadInputException(m.minProperty() + " (" + format(minNs[m.ordinal()]) + ") is above "
                    + m.maxProperty() + " (" + format(maxNs[m.ordinal()]) + "); make the minimum at most the maximum");
        }
    }

    private void checkSum() {
        double sum = 0;
        for (double p : probabilities) {
            sum += p;
        }
        if (Math.abs(sum - 1.0) > SUM_TOLERANCE) {
            List<String> names = new ArrayList<>();
            for (Mode m : Mode.VALUES) {
                names.add(m.probabilityProperty());
            }
            throw new BadInputException("the probabilities " + String.join(", ", names) + " add up to " + sum
                    + "; change them so they add up to 1");
        }
    }

    private static List<PropertySpec> specs() {
        List<PropertySpec> specs = new ArrayList<>();
        for (Mode m : Mode.VALUES) {
            String what = m.key + " mode (" + m.behaviour + ")";
            specs.add(new PropertySpec(m.probabilityProperty(), m.defaultProbability,
                    "chance an operation is in " + what + "; the four probabilities add up to 1"));
            specs.add(new PropertySpec(m.minProperty(), m.defaultMin, "shortest delay in " + what));
            specs.add(new PropertySpec(m.maxProperty(), m.defaultMax, "longest delay in " + what));
        }
        return List.copyOf(specs);
    }

    private static String format(long ns) {
        return Durations.format(Duration.ofNanos(ns));
    }
}
