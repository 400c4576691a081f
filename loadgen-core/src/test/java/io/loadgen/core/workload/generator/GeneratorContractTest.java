package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What every seeded generator promises: the seed fixes the sequence, and drawing allocates nothing. */
class GeneratorContractTest {
    private static final int CALLS = 1_000_000;

    private static KeyCounter insertedKeys(int n) {
        KeyCounter counter = new KeyCounter(0, 1024);
        for (int i = 0; i < n; i++) {
            counter.acknowledge(counter.next());
        }
        return counter;
    }

    private static Map<String, Function<SplittableRandom, LongSupplier>> generators() {
        Map<String, Function<SplittableRandom, LongSupplier>> all = new LinkedHashMap<>();
        all.put("uniform", r -> new UniformGenerator(0, 999_999, r)::next);
        all.put("zipfian", r -> new ZipfianGenerator(0, 99_999, r)::next);
        all.put("scrambled zipfian", r -> new ScrambledZipfianGenerator(0, 999_999, r)::next);
        KeyCounter counter = insertedKeys(10_000);
        all.put("latest", r -> new SkewedLatestGenerator(counter, r)::next);
        all.put("hotspot", r -> new HotspotGenerator(0, 999_999, 0.2, 0.8, r)::next);
        all.put("exponential", r -> ExponentialGenerator.forRecords(1_000_000, 95, 0.8571428571, r)::next);
        all.put("discrete", r -> new DiscreteChooser(new double[] {0.5, 0.3, 0.2}, r)::next);
        return all;
    }

    private static long[] draw(LongSupplier g, int n) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[i] = g.getAsLong();
        }
        return values;
    }

    @Test
    void sameSeedGivesSameSequenceAndAnotherSeedDiffers() {
        generators().forEach((name, make) -> {
            long[] first = draw(make.apply(new SplittableRandom(99)), 1000);
            assertArrayEquals(first, draw(make.apply(new SplittableRandom(99)), 1000), name);
            assertFalse(java.util.Arrays.equals(first, draw(make.apply(new SplittableRandom(100)), 1000)), name);
        });
    }

    private static long allocatedBytes(LongSupplier g) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sink = 0;
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < CALLS; i++) {
            sink += g.getAsLong();
        }
        long bytes = mx.getCurrentThreadAllocatedBytes() - before;
        assertTrue(sink != Long.MIN_VALUE); // keep the draws live
        return bytes;
    }

    @Test
    void drawingAllocatesNothingPerCall() {
        generators().forEach((name, make) -> {
            LongSupplier g = make.apply(new SplittableRandom(7));
            allocatedBytes(g); // warm-up: let the JIT compile the draw
            long bytes = allocatedBytes(g);
            // A million calls; anything allocated per call would be at least 16 MB.
            assertTrue(bytes < 64 * 1024, name + " allocated " + bytes + " bytes for " + CALLS + " calls");
        });
    }
}
