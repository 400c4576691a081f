package io.loadgen.drivers.stwmockdb;

import java.util.Arrays;

/**
 * Maps a uniform draw {@code u} in [0, 1) to a {@link Mode}: the modes' probabilities laid end to
 * end in declaration order, so {@code u < p(FAST)} is FAST, the next {@code p(SLOW)} is SLOW, and
 * so on. Immutable; any thread.
 *
 * <p>The last mode with a positive probability takes everything up to 1, so rounding in the sums
 * can never pick a mode whose probability is 0.
 */
final class ModeTable {
    /** Exclusive upper bound of each mode's slice of [0, 1), by ordinal. */
    private final double[] upperBounds;

    /** @param probabilities by {@link Mode} ordinal, each in [0, 1], summing to 1 (checked by the caller) */
    ModeTable(double[] probabilities) {
        upperBounds = new double[Mode.VALUES.length];
        double sum = 0;
        int lastPositive = -1;
        for (int i = 0; i < upperBounds.length; i++) {
            sum += probabilities[i];
            upperBounds[i] = sum;
            if (probabilities[i] > 0) {
                lastPositive = i;
            }
        }
        if (lastPositive < 0) {
            throw new IllegalArgumentException("no mode has a positive probability: " + Arrays.toString(probabilities));
        }
        Arrays.fill(upperBounds, lastPositive, upperBounds.length, Double.POSITIVE_INFINITY);
    }

    /** The mode for {@code u} in [0, 1). Pure; allocates nothing. */
    Mode pick(double u) {
        int i = 0;
        while (u >= upperBounds[i]) {
            i++;
        }
        return Mode.VALUES[i];
    }
}
