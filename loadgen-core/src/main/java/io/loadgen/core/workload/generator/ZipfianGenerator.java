package io.loadgen.core.workload.generator;

import java.util.SplittableRandom;

/**
 * Zipfian-distributed integers in {@code [min, max]}, {@code min} the most popular (YCSB's
 * {@code ZipfianGenerator}); one worker thread owns each instance.
 *
 * <p>Uses the algorithm of Gray et al., "Quickly Generating Billion-Record Synthetic Databases"
 * (SIGMOD 1994), as YCSB does: one uniform draw per value, inverted through the constants
 * {@code zetan}, {@code eta} and {@code alpha}. Item {@code i} (0-based) is drawn with probability
 * close to {@code (i+1)^-theta / zetan}; items 0 and 1 exactly so.
 *
 * <p>Computing {@code zetan = zeta(n, theta)} costs {@code n} calls to {@link Math#pow}; for large
 * record counts compute it once with {@link #zeta(long, double)} and pass it to every worker's
 * generator. Popular items are clustered at {@code min}; {@link ScrambledZipfianGenerator} scatters them.
 *
 * <p>Each draw raises a number in (0, 1] to the power {@code alpha = 1 / (1 - theta)}. For YCSB's 0.99
 * that is 100 (in doubles 99.99999999999991), and {@link Math#pow} cost about 28 ns of a draw's 33. When
 * {@code alpha} is within {@link #INTEGER_ALPHA_TOLERANCE} of an integer up to 1023 (theta 0.5, 0.8, 0.9,
 * 0.95, 0.99, ...) the draw multiplies by repeated squaring instead (about 5 ns). Both results carry a
 * relative error near 10^-14: the base's own rounding, raised to the 100th power, already does, so the
 * distribution is the same to that precision; a draw's rank can differ from {@code Math.pow}'s only when
 * the exact value falls within that error of an integer.
 */
public final class ZipfianGenerator implements NumberGenerator {
    /** YCSB's zipfian constant (theta). */
    public static final double ZIPFIAN_CONSTANT = 0.99;

    private final long base;
    private final double theta;
    /** Relative distance from an integer within which {@code alpha} is raised by squaring, see the class notes. */
    static final double INTEGER_ALPHA_TOLERANCE = 1e-12;
    /** Bits of the largest integer exponent raised by squaring (1023). */
    private static final int EXPONENT_BITS = 10;

    private final double alpha;
    /** {@code alpha} rounded, when it is an integer to {@link #INTEGER_ALPHA_TOLERANCE}; otherwise 0 ({@link Math#pow}). */
    private final int integerAlpha;
    private final double zeta2theta;
    /** {@code 1 + 0.5^theta}: {@code u * zetan} below this picks item 1. */
    private final double secondItemBound;
    private final SplittableRandom random;
    /** Item count that {@code zetan} and {@code eta} were computed for; grows only via {@link #next(long)}. */
    private long items;
    private double zetan;
    private double eta;

    /** Items {@code [min, max]} with YCSB's constant 0.99; computes zetan ({@code max - min + 1} pow calls). */
    public ZipfianGenerator(long min, long max, SplittableRandom random) {
        this(min, max, ZIPFIAN_CONSTANT, random);
    }

    /** Items {@code [min, max]} with constant {@code theta}; computes zetan ({@code max - min + 1} pow calls). */
    public ZipfianGenerator(long min, long max, double theta, SplittableRandom random) {
        this(min, max, theta, zeta(checkedCount(min, max), checkedTheta(theta)), random);
    }

    /**
     * Items {@code [min, max]} with constant {@code theta} and a precomputed
     * {@code zetan = zeta(max - min + 1, theta)}, so many workers share one computation.
     *
     * @param theta  zipfian constant, in (0, 1)
     * @param zetan  {@link #zeta(long, double) zeta}{@code (max - min + 1, theta)}
     * @param random the owning worker's generator
     */
    public ZipfianGenerator(long min, long max, double theta, double zetan, SplittableRandom random) {
        this.items = checkedCount(min, max);
        this.theta = checkedTheta(theta);
        if (!(zetan >= 1)) {
            throw new IllegalArgumentException("zetan must be zeta(items, theta) >= 1: " + zetan);
        }
        this.base = min;
        this.random = random;
        this.alpha = 1.0 / (1.0 - theta);
        this.integerAlpha = integerExponent(alpha);
        this.zeta2theta = zeta(2, theta);
        this.secondItemBound = 1.0 + Math.pow(0.5, theta);
        this.zetan = zetan;
        this.eta = eta(items, theta, zeta2theta, zetan);
    }

    /** {@code sum_{i=1..n} i^-theta}: the normalising constant of a zipfian over {@code n} items. */
    public static double zeta(long n, double theta) {
        return zeta(0, n, theta, 0.0);
    }

    /**
     * Extends {@code initialSum = zeta(from, theta)} to {@code zeta(to, theta)}, adding the terms for
     * items {@code from + 1 .. to}.
     */
    public static double zeta(long from, long to, double theta, double initialSum) {
        double sum = initialSum;
        for (long i = from + 1; i <= to; i++) {
            sum += 1.0 / Math.pow(i, theta);
        }
        return sum;
    }

    @Override
    public long next() {
        return draw(items);
    }

    /**
     * A value in {@code [min, min + itemCount - 1]}, for a count that only grows (a "latest" workload's
     * inserted keys). On growth, zetan is extended incrementally: {@code Δcount} pow calls, no allocation.
     * A smaller count keeps the larger count's constants, as YCSB does by default.
     */
    long next(long itemCount) {
        if (itemCount > items) {
            zetan = zeta(items, itemCount, theta, zetan);
            // YCSB recomputes eta with its constructor's item count here; Gray's eta needs the current count.
            eta = eta(itemCount, theta, zeta2theta, zetan);
            items = itemCount;
        }
        return draw(itemCount);
    }

    private long draw(long itemCount) {
        double u = random.nextDouble();
        double uz = u * zetan;
        if (uz < 1.0) {
            return base;
        }
        if (uz < secondItemBound) {
            return base + 1;
        }
        return base + (long) (itemCount * power(eta * u - eta + 1));
    }

    /** {@code x^alpha}: by squaring when alpha is an integer (a fixed, fully unrolled loop), else {@link Math#pow}. */
    private double power(double x) {
        final int k = integerAlpha;
        if (k == 0) {
            return Math.pow(x, alpha);
        }
        double result = 1.0;
        double square = x;
        for (int bit = 0; bit < EXPONENT_BITS; bit++) {
            if (((k >>> bit) & 1) != 0) {
                result *= square;
            }
            square *= square;
        }
        return result;
    }

    /** The integer {@code alpha} rounds to, if within the tolerance and below 2^{@link #EXPONENT_BITS}; else 0. */
    static int integerExponent(double alpha) {
        long k = Math.round(alpha);
        boolean integral = k >= 1 && k < (1 << EXPONENT_BITS) && Math.abs(alpha - k) <= INTEGER_ALPHA_TOLERANCE * k;
        return integral ? (int) k : 0;
    }

    private static double eta(long items, double theta, double zeta2theta, double zetan) {
        return (1 - Math.pow(2.0 / items, 1 - theta)) / (1 - zeta2theta / zetan);
    }

    private static long checkedCount(long min, long max) {
        long count = max - min + 1;
        if (max < min || count <= 0) {
            throw new IllegalArgumentException("need min <= max and a range that fits a long: [" + min + ", " + max + "]");
        }
        return count;
    }

    private static double checkedTheta(double theta) {
        if (!(theta > 0 && theta < 1)) {
            throw new IllegalArgumentException("zipfian constant must be in (0, 1): " + theta);
        }
        return theta;
    }
}
