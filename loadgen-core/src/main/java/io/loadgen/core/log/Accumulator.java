package io.loadgen.core.log;

import io.loadgen.core.BadInputException;
import org.HdrHistogram.DoubleHistogram;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;

/**
 * A running sum of interval histograms of one kind (integer {@link Histogram} or {@link DoubleHistogram}),
 * built exactly as HistogramLogProcessor builds its accumulators: a reset, auto-resizing copy of the
 * first interval, so the sum keeps that interval's precision and lowest discernible value; moving
 * window sums start from a new 3-digit histogram, as there. Single-threaded.
 */
abstract class Accumulator {
    abstract void add(EncodableHistogram h, String where);

    abstract void subtract(EncodableHistogram h);

    abstract long totalCount();

    abstract double valueAtPercentile(double percentile);

    abstract double maxValue();

    abstract void outputPercentileDistribution(PrintStream out, int ticksPerHalf, double unitRatio, boolean csv);

    /** The sum as an integer histogram, or null when the log holds DoubleHistograms. */
    abstract Histogram histogram();

    /** An empty accumulator shaped like {@code first}. */
    static Accumulator copyOf(EncodableHistogram first) {
        if (first instanceof DoubleHistogram d) {
            DoubleHistogram acc = d.copy();
            acc.reset();
            acc.setAutoResize(true);
            return new OfDouble(acc);
        }
        Histogram acc = ((Histogram) first).copy();
        acc.reset();
        acc.setAutoResize(true);
        return new OfLong(acc);
    }

    /** An empty moving-window sum for intervals like {@code first}. */
    static Accumulator windowFor(EncodableHistogram first) {
        return first instanceof DoubleHistogram ? new OfDouble(new DoubleHistogram(3)) : new OfLong(new Histogram(3));
    }

    /** {@code h} corrected for coordinated omission with {@code expectedInterval} (in the log's units). */
    static EncodableHistogram corrected(EncodableHistogram h, double expectedInterval) {
        if (h instanceof DoubleHistogram d) {
            return expectedInterval > 0.0 ? d.copyCorrectedForCoordinatedOmission(expectedInterval) : h;
        }
        long interval = (long) expectedInterval;
        return interval > 0 ? ((Histogram) h).copyCorrectedForCoordinatedOmission(interval) : h;
    }

    private static final class OfLong extends Accumulator {
        private final Histogram sum;

        OfLong(Histogram sum) {
            this.sum = sum;
        }

        @Override
        void add(EncodableHistogram h, String where) {
            if (!(h instanceof Histogram histogram)) {
                throw new BadInputException(where + ": a DoubleHistogram line in a log of integer Histograms; "
                        + "report such logs separately");
            }
            sum.add(histogram);
        }

        @Override
        void subtract(EncodableHistogram h) {
            sum.subtract((Histogram) h);
        }

        @Override
        long totalCount() {
            return sum.getTotalCount();
        }

        @Override
        double valueAtPercentile(double percentile) {
            return sum.getValueAtPercentile(percentile);
        }

        @Override
        double maxValue() {
            return sum.getMaxValue();
        }

        @Override
        void outputPercentileDistribution(PrintStream out, int ticksPerHalf, double unitRatio, boolean csv) {
            sum.outputPercentileDistribution(out, ticksPerHalf, unitRatio, csv);
        }

        @Override
        Histogram histogram() {
            return sum;
        }
    }

    private static final class OfDouble extends Accumulator {
        private final DoubleHistogram sum;

        OfDouble(DoubleHistogram sum) {
            this.sum = sum;
        }

        @Override
        void add(EncodableHistogram h, String where) {
            if (!(h instanceof DoubleHistogram histogram)) {
                throw new BadInputException(where + ": an integer Histogram line in a log of DoubleHistograms; "
                        + "report such logs separately");
            }
            sum.add(histogram);
        }

        @Override
        void subtract(EncodableHistogram h) {
            sum.subtract((DoubleHistogram) h);
        }

        @Override
        long totalCount() {
            return sum.getTotalCount();
        }

        @Override
        double valueAtPercentile(double percentile) {
            return sum.getValueAtPercentile(percentile);
        }

        @Override
        double maxValue() {
            return sum.getMaxValue();
        }

        @Override
        void outputPercentileDistribution(PrintStream out, int ticksPerHalf, double unitRatio, boolean csv) {
            sum.outputPercentileDistribution(out, ticksPerHalf, unitRatio, csv);
        }

        @Override
        Histogram histogram() {
            return null;
        }
    }
}
