package io.loadgen.core.workload.generator;

import java.util.SplittableRandom;

/**
 * Exponentially distributed non-negative offsets, small ones most likely (YCSB's
 * {@code ExponentialGenerator}, {@code requestdistribution=exponential}); one worker thread owns
 * each instance.
 *
 * <p>YCSB's CoreWorkload builds it as {@code new ExponentialGenerator(exponential.percentile,
 * recordcount * exponential.frac)} and reads key {@code lastInsertedKey - next()}, drawing again
 * while that is negative. The rate is {@code gamma = -ln(1 - percentile/100) / range}, so
 * {@code percentile}% of draws fall below {@code range}: by default 95% of reads go to the newest
 * {@code frac = 0.8571428571} (6/7; YCSB's comment says 1/7) of the records.
 * {@link #next()} truncates towards zero, as YCSB's {@code intValue()} does.
 */
public final class ExponentialGenerator implements NumberGenerator {
    /** YCSB's default {@code exponential.percentile}. */
    public static final double DEFAULT_PERCENTILE = 95;
    /** YCSB's default {@code exponential.frac}. */
    public static final double DEFAULT_FRAC = 0.8571428571;

    private final double meanValue;
    private final SplittableRandom random;

    /**
     * @param percentile percentage of draws below {@code range}, in (0, 100) ({@code exponential.percentile})
     * @param range      positive; YCSB passes {@code recordcount * exponential.frac}
     * @param random     the owning worker's generator
     */
    public ExponentialGenerator(double percentile, double range, SplittableRandom random) {
        if (!(percentile > 0 && percentile < 100) || !(range > 0) || Double.isInfinite(range)) {
            throw new IllegalArgumentException("need 0 < percentile < 100 and a positive range: "
                    + percentile + ", " + range);
        }
        double gamma = -Math.log(1.0 - percentile / 100.0) / range;
        this.meanValue = 1.0 / gamma;
        this.random = random;
    }

    /** YCSB's key chooser for {@code recordCount} records: {@code (percentile, recordCount * frac)}. */
    public static ExponentialGenerator forRecords(long recordCount, double percentile, double frac,
                                                  SplittableRandom random) {
        return new ExponentialGenerator(percentile, recordCount * frac, random);
    }

    /** The distribution's mean, {@code 1 / gamma}. */
    public double mean() {
        return meanValue;
    }

    @Override
    public long next() {
        // Inverse transform with 1 - U in (0, 1]: never ln(0) (YCSB's ln(U) can be infinite).
        return (long) (-Math.log(1.0 - random.nextDouble()) * meanValue);
    }
}
