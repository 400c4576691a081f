package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import io.loadgen.core.stats.Bootstrap;

/**
 * How two runs are compared: the bootstrap's resamples and seed, the confidence level of its intervals, and the
 * material change below which a significant difference is still called {@code same}. Immutable.
 *
 * @param resamples bootstrap replicates per run (the same count for both, paired draw by draw)
 * @param level     the confidence level of the intervals, e.g. 0.95
 * @param seed      the baseline's bootstrap seed (the candidate's is derived from it), so the same inputs give the
 *                  same output
 * @param minChange the least relative change called slower or faster (0.05 = 5 %), however significant
 */
public record CompareOptions(int resamples, double level, long seed, double minChange) {
    /**
     * The default material change, 5 %. Measured (CompareGroundTruthTest): two 1 s runs of one configuration of
     * mockdb, made at once on this project's shared 2-core machine, differ in p50 by up to 3.4-4.4 % (the 95th
     * percentile of |change| over 20 pairs, in two test runs; 4.5-5.2 % at most), in p90 by 1 %, in intended p99
     * by 2 %, in throughput by 1.6 %; significance alone called up to 4 of those 20 pairs slower or faster in p50,
     * the 5 % at most one. Runs
     * made at different times on a busy machine differ more (intended p99 by up to 5.5 % between runs 2 s apart
     * while other builds ran), so compare runs made under the same conditions, or raise --min-change. It cannot be
     * much higher: a 10 % slower store shows as +6 to +10 % in p50 over 1 s runs.
     */
    public static final double DEFAULT_MIN_CHANGE = 0.05;
    public static final double DEFAULT_LEVEL = 0.95;
    public static final long DEFAULT_SEED = 1;

    public static final CompareOptions DEFAULTS = new CompareOptions(Bootstrap.DEFAULT_RESAMPLES, DEFAULT_LEVEL,
            DEFAULT_SEED, DEFAULT_MIN_CHANGE);

    /** @throws BadInputException naming the option at fault */
    public CompareOptions {
        if (resamples < 100 || resamples > 100_000) {
            throw new BadInputException("--resamples " + resamples + " is out of range; give 100 to 100000 (default "
                    + Bootstrap.DEFAULT_RESAMPLES + ")");
        }
        if (!(level > 0.5 && level < 1)) {
            throw new BadInputException("the confidence level " + level + " must be between 0.5 and 1, e.g. 0.95");
        }
        if (!(minChange >= 0 && minChange < 10)) {
            throw new BadInputException("--min-change " + minChange * 100 + "% must be 0% or more, e.g. 5%");
        }
    }

    /** The candidate's bootstrap seed: another stream than the baseline's, since the runs are independent. */
    long candidateSeed() {
        return seed ^ 0x9E3779B97F4A7C15L;
    }
}
