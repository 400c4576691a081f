package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DiscreteChooserTest {
    private static final int DRAWS = 1_000_000;

    private static long[] counts(DiscreteChooser chooser) {
        long[] counts = new long[chooser.size()];
        for (int i = 0; i < DRAWS; i++) {
            counts[chooser.next()]++;
        }
        return counts;
    }

    @Test
    void frequenciesMatchProportionsAndZeroWeightsAreNeverChosen() {
        double[] proportions = {0, 0.5, 0, 0.3, 0.15, 0.05, 0};
        long[] counts = counts(new DiscreteChooser(proportions, new SplittableRandom(61)));
        for (int i = 0; i < proportions.length; i++) {
            assertEquals(proportions[i], counts[i] / (double) DRAWS, 0.005, "index " + i);
        }
        assertEquals(0, counts[0] + counts[2] + counts[6]);
    }

    @Test
    void weightsAreNormalised() {
        long[] counts = counts(new DiscreteChooser(new double[] {95, 5}, new SplittableRandom(62)));
        assertEquals(0.95, counts[0] / (double) DRAWS, 0.005);
        assertEquals(0.05, counts[1] / (double) DRAWS, 0.005);
    }

    @Test
    void rejectsAllZeroNegativeAndEmptyWeights() {
        SplittableRandom r = new SplittableRandom(1);
        assertThrows(IllegalArgumentException.class, () -> new DiscreteChooser(new double[] {0, 0}, r));
        assertThrows(IllegalArgumentException.class, () -> new DiscreteChooser(new double[] {1, -0.5}, r));
        assertThrows(IllegalArgumentException.class, () -> new DiscreteChooser(new double[] {1, Double.NaN}, r));
        assertThrows(IllegalArgumentException.class, () -> new DiscreteChooser(new double[0], r));
    }
}
