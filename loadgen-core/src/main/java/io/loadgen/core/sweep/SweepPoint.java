package io.loadgen.core.sweep;

import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

/**
 * One step of a sweep as its table row holds it: the offered and achieved rate, whether it kept up, and
 * the intended percentiles next to service p99 (all operation types summed, in nanoseconds). Built from
 * a finished {@link SweepStep}, or read back from {@code sweep --csv} or {@code sweep --json} by
 * {@link SweepResults}, so a chart draws the same numbers the table printed. Immutable.
 *
 * @param offeredOpsPerSec  the step's target rate
 * @param achievedOpsPerSec completed operations per second
 * @param keptUp            whether the step kept up ({@link KeepUpRule})
 * @param intendedP50Ns     intended p50
 * @param intendedP99Ns     intended p99
 * @param intendedP999Ns    intended p99.9
 * @param intendedMaxNs     intended max
 * @param serviceP99Ns      service p99
 * @param errors            operations that did not return OK
 * @param unissued          operations due but never issued
 */
public record SweepPoint(double offeredOpsPerSec, double achievedOpsPerSec, boolean keptUp, double intendedP50Ns,
                         double intendedP99Ns, double intendedP999Ns, double intendedMaxNs, double serviceP99Ns,
                         long errors, long unissued) {
    /** The percentiles a point holds of the intended view, as {@code Sla.percentile} numbers (100 = max). */
    public static final double[] INTENDED_PERCENTILES = {50, 99, 99.9, 100};

    /** The row of a finished step. */
    public static SweepPoint of(SweepStep step) {
        Histogram intended = step.view(View.INTENDED);
        Histogram service = step.view(View.SERVICE);
        return new SweepPoint(step.offeredOpsPerSec(), step.achievedOpsPerSec(), step.keptUp(),
                intended.getValueAtPercentile(50), intended.getValueAtPercentile(99),
                intended.getValueAtPercentile(99.9), intended.getMaxValue(), service.getValueAtPercentile(99),
                step.errors(), step.unissued());
    }

    /**
     * The intended view at {@code percentile} (50, 99, 99.9, or 100 for max), in ns; NaN for another
     * percentile, which the sweep's files do not hold.
     */
    public double intendedNs(double percentile) {
        if (percentile == 50) {
            return intendedP50Ns;
        }
        if (percentile == 99) {
            return intendedP99Ns;
        }
        if (percentile == 99.9) {
            return intendedP999Ns;
        }
        return percentile == 100 ? intendedMaxNs : Double.NaN;
    }
}
