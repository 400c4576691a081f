package io.loadgen.core.workload.generator;

/** Test helpers: histograms of draws. */
final class Draws {
    private Draws() {
    }

    /** counts[v - lo] for {@code draws} values of {@code g}, failing on any value outside [lo, hi]. */
    static long[] counts(NumberGenerator g, long lo, long hi, int draws) {
        long[] counts = new long[(int) (hi - lo + 1)];
        for (int i = 0; i < draws; i++) {
            long v = g.next();
            if (v < lo || v > hi) {
                throw new AssertionError("value " + v + " outside [" + lo + ", " + hi + "]");
            }
            counts[(int) (v - lo)]++;
        }
        return counts;
    }

    static int argMax(long[] counts) {
        int best = 0;
        for (int i = 1; i < counts.length; i++) {
            if (counts[i] > counts[best]) {
                best = i;
            }
        }
        return best;
    }

    /** sum_{i=1..n} i^-theta, written out here rather than taken from the code under test. */
    static double zetaByHand(int n, double theta) {
        double sum = 0;
        for (int i = 1; i <= n; i++) {
            sum += Math.pow(i, -theta);
        }
        return sum;
    }
}
