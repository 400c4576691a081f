package io.loadgen.drivers.redis;

/**
 * How long each field value is: YCSB's {@code fieldlengthdistribution} (constant, uniform or zipfian over
 * [minfieldlength, fieldlength]), drawn deterministically from the record's key number and the field, so a
 * record's fields keep their lengths when rewritten and a reader can check them. (YCSB draws afresh per
 * write; the distribution over records is the same.) Immutable; any thread. Public for the {@code ycsb} driver,
 * whose values follow the same lengths.
 */
public final class FieldLengths {
    private final int min;
    private final int max;
    private final String distribution;
    private final double[] zipfCumulative;

    public FieldLengths(int min, int max, String distribution) {
        this.min = Math.min(min, max);
        this.max = max;
        this.distribution = distribution;
        this.zipfCumulative = "zipfian".equals(distribution) ? zipfCumulative(max - this.min + 1) : null;
    }

    public static FieldLengths constant(int length) {
        return new FieldLengths(length, length, "constant");
    }

    public int max() {
        return max;
    }

    /** The length of {@code field}'s value in record {@code keyNumber}. */
    public int length(long keyNumber, int field) {
        switch (distribution) {
            case "uniform":
                return min + (int) Long.remainderUnsigned(mix(keyNumber, field), max - min + 1);
            case "zipfian":
                double u = (mix(keyNumber, field) >>> 11) * 0x1.0p-53;
                int i = java.util.Arrays.binarySearch(zipfCumulative, u);
                return min + (i >= 0 ? i : Math.min(-i - 1, zipfCumulative.length - 1));
            default:
                return max;
        }
    }

    /** Cumulative probabilities of ranks 1..n with weight 1 / rank^0.99 (YCSB's zipfian constant): the shortest is the most common. */
    private static double[] zipfCumulative(int n) {
        double[] c = new double[n];
        double sum = 0;
        for (int r = 0; r < n; r++) {
            sum += 1.0 / Math.pow(r + 1, 0.99);
            c[r] = sum;
        }
        for (int r = 0; r < n; r++) {
            c[r] /= sum;
        }
        return c;
    }

    /** SplitMix64's finalizer over the key and field: a well-spread, repeatable 64-bit draw. */
    private static long mix(long keyNumber, int field) {
        long z = keyNumber * 0x9E3779B97F4A7C15L + field * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
