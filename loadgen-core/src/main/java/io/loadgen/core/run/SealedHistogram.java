package io.loadgen.core.run;

import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;

/**
 * A histogram that its owner fills and then seals: while sealed, every method that would change it
 * throws {@link UnsupportedOperationException}, so the sinks an {@link IntervalSnapshot} is handed to
 * cannot change what the next sink reads. Reading (counts, percentiles, {@link #copy()}, encoding into a
 * log line) works as on any {@link Histogram}; {@link #copy()} is a plain, writable histogram.
 *
 * <p>Only the interval aggregator's thread {@link #unseal()}s, fills and {@link #seal()}s; sinks read
 * it on that same thread, between a seal and the next unseal.
 */
final class SealedHistogram extends Histogram {
    /** Not initialised: it must read false while the superclass constructor sets the timestamps. */
    private boolean sealed;

    /** Same range and precision as {@code template}, empty and writable. */
    SealedHistogram(AbstractHistogram template) {
        super(template);
    }

    /** Makes it writable again, for its owner to refill. */
    SealedHistogram unseal() {
        sealed = false;
        return this;
    }

    /** Makes it read-only until the next {@link #unseal()}. */
    SealedHistogram seal() {
        sealed = true;
        return this;
    }

    private void checkWritable() {
        if (sealed) {
            throw new UnsupportedOperationException("an interval snapshot's histograms are read-only;"
                    + " copy() one to change it");
        }
    }

    @Override
    public void recordValue(long value) {
        checkWritable();
        super.recordValue(value);
    }

    @Override
    public void recordValue(long value, long expectedIntervalBetweenValueSamples) {
        checkWritable();
        super.recordValue(value, expectedIntervalBetweenValueSamples);
    }

    @Override
    public void recordValueWithCount(long value, long count) {
        checkWritable();
        super.recordValueWithCount(value, count);
    }

    @Override
    public void recordValueWithExpectedInterval(long value, long expectedIntervalBetweenValueSamples) {
        checkWritable();
        super.recordValueWithExpectedInterval(value, expectedIntervalBetweenValueSamples);
    }

    @Override
    public void recordConvertedDoubleValueWithCount(double value, long count) {
        checkWritable();
        super.recordConvertedDoubleValueWithCount(value, count);
    }

    @Override
    public void reset() {
        checkWritable();
        super.reset();
    }

    @Override
    public void add(AbstractHistogram other) {
        checkWritable();
        super.add(other);
    }

    @Override
    public void subtract(AbstractHistogram other) {
        checkWritable();
        super.subtract(other);
    }

    @Override
    public void addWhileCorrectingForCoordinatedOmission(AbstractHistogram other, long expectedInterval) {
        checkWritable();
        super.addWhileCorrectingForCoordinatedOmission(other, expectedInterval);
    }

    @Override
    public void shiftValuesLeft(int binaryOrdersOfMagnitude) {
        checkWritable();
        super.shiftValuesLeft(binaryOrdersOfMagnitude);
    }

    @Override
    public void shiftValuesRight(int binaryOrdersOfMagnitude) {
        checkWritable();
        super.shiftValuesRight(binaryOrdersOfMagnitude);
    }

    @Override
    public void setAutoResize(boolean autoResize) {
        checkWritable();
        super.setAutoResize(autoResize);
    }

    @Override
    public void setStartTimeStamp(long timeStampMsec) {
        checkWritable();
        super.setStartTimeStamp(timeStampMsec);
    }

    @Override
    public void setEndTimeStamp(long timeStampMsec) {
        checkWritable();
        super.setEndTimeStamp(timeStampMsec);
    }

    @Override
    public void setTag(String tag) {
        checkWritable();
        super.setTag(tag);
    }
}
