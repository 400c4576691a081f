package io.loadgen.drivers.redis;

import io.loadgen.core.driver.DriverContext;
import io.netty.buffer.ByteBuf;

/**
 * The records of {@link RecordLayout} (key names, each field's length and value) for other key-value drivers,
 * written straight into a Netty buffer: the {@code memcached} driver stores the same records, one item per
 * record, so both drivers' data read the same. Writing allocates nothing: each field's letter pattern is kept
 * once, and a value is its short prefix ({@code i42-3:}) followed by the rest of the pattern, cut to the field's
 * length. Immutable after construction; any thread.
 */
public final class RecordValues {
    /** The first byte of a value written by an INSERT. */
    public static final byte INSERTED = RecordLayout.INSERTED;
    /** The first byte of a value written by an UPDATE or READ-MODIFY-WRITE. */
    public static final byte UPDATED = RecordLayout.UPDATED;
    /** Where a driver's warm-up writes: keys of its own, removed after it. */
    public static final String SCRATCH_PREFIX = RecordLayout.SCRATCH_PREFIX;

    private final RecordLayout layout;
    private final FieldLengths lengths;
    private final int fieldCount;
    private final String keyPrefix;
    private final int zeroPadding;
    /** Every field's length when they are all the same, else -1. */
    private final int fixedLength;
    /** Per field, the value of key 0 at the longest length: from the prefix's end on, the field's pattern. */
    private final byte[][] templates;
    private final RecordValues scratch;

    private RecordValues(int fieldCount, FieldLengths lengths, boolean constant, String fieldNamePrefix, int zeroPadding,
                         RecordValues of) {
        boolean scratch = of != null;
        RecordLayout base = new RecordLayout(fieldCount, lengths, fieldNamePrefix, zeroPadding);
        this.layout = scratch ? base.scratch() : base;
        this.lengths = lengths;
        this.fieldCount = fieldCount;
        this.keyPrefix = (scratch ? SCRATCH_PREFIX : "") + "user";
        this.zeroPadding = zeroPadding;
        this.fixedLength = constant ? lengths.max() : -1;
        if (scratch) {
            this.templates = of.templates;
        } else {
            RecordLayout longest = new RecordLayout(fieldCount, FieldLengths.constant(lengths.max()), fieldNamePrefix, 1);
            this.templates = new byte[fieldCount][];
            for (int f = 0; f < fieldCount; f++) {
                templates[f] = longest.value(0, f, INSERTED);
            }
        }
        this.scratch = scratch ? this
                : new RecordValues(fieldCount, lengths, constant, fieldNamePrefix, zeroPadding, this);
    }

    /** A workload's records: its field count, lengths (and their distribution), field names and zero padding. */
    public static RecordValues of(DriverContext.RecordShape shape) {
        String distribution = shape.fieldLengthDistribution();
        boolean varies = ("uniform".equals(distribution) || "zipfian".equals(distribution))
                && shape.minFieldLength() < shape.fieldLength();
        return new RecordValues(shape.fieldCount(),
                new FieldLengths(shape.minFieldLength(), shape.fieldLength(), distribution), !varies,
                shape.fieldNamePrefix(), shape.zeroPadding(), null);
    }

    /** Records of {@code fieldCount} fields of exactly {@code fieldLength} bytes, keys unpadded. */
    public static RecordValues of(int fieldCount, int fieldLength) {
        return of(fieldCount, fieldLength, 1);
    }

    /** Records of {@code fieldCount} fields of exactly {@code fieldLength} bytes, key numbers zero-padded. */
    public static RecordValues of(int fieldCount, int fieldLength, int zeroPadding) {
        return new RecordValues(fieldCount, FieldLengths.constant(fieldLength), true, "field", zeroPadding, null);
    }

    /** The same records under the warm-up's names, {@value #SCRATCH_PREFIX}{@code user<n>}. */
    public RecordValues scratch() {
        return scratch;
    }

    public int fieldCount() {
        return fieldCount;
    }

    /** The record's key, e.g. {@code user42} (zero-padded as the workload asks). */
    public String key(long keyNumber) {
        return layout.key(keyNumber);
    }

    /** {@link #key} written as ASCII into {@code out}, allocating nothing. */
    public void writeKey(ByteBuf out, long keyNumber) {
        for (int i = 0; i < keyPrefix.length(); i++) {
            out.writeByte(keyPrefix.charAt(i));
        }
        int digits = digits(keyNumber);
        for (int i = digits; i < zeroPadding; i++) {
            out.writeByte('0');
        }
        writeDecimal(out, keyNumber, digits);
    }

    /** The length of {@code field}'s value in record {@code keyNumber}. */
    public int length(long keyNumber, int field) {
        return fixedLength >= 0 ? fixedLength : lengths.length(keyNumber, field);
    }

    /** The record's fields' lengths summed: the bytes of its values back to back. */
    public int recordLength(long keyNumber) {
        if (fixedLength >= 0) {
            return fieldCount * fixedLength;
        }
        int sum = 0;
        for (int f = 0; f < fieldCount; f++) {
            sum += lengths.length(keyNumber, f);
        }
        return sum;
    }

    /**
     * Writes field {@code field}'s value of record {@code keyNumber}, as {@code writer} wrote it, into {@code out}:
     * the same bytes as the redis driver's value for that field, allocating nothing.
     */
    public void writeValue(ByteBuf out, long keyNumber, int field, byte writer) {
        int length = length(keyNumber, field);
        int start = out.writerIndex();
        int keyDigits = digits(keyNumber);
        int prefix = 1 + keyDigits + 1 + digits(field) + 1;
        if (prefix <= length) {
            out.writeByte(writer);
            writeDecimal(out, keyNumber, keyDigits);
            out.writeByte('-');
            writeDecimal(out, field, digits(field));
            out.writeByte(':');
            out.writeBytes(templates[field], prefix, length - prefix);
            return;
        }
        // A field shorter than its prefix: the prefix, cut (rare; a few bytes).
        byte[] cut = layout.value(keyNumber, field, writer);
        out.writeBytes(cut, 0, length);
        assert out.writerIndex() - start == length;
    }

    /** {@link #writeValue}'s bytes as text; for tests and readers. */
    public String valueText(long keyNumber, int field, byte writer) {
        return layout.valueText(keyNumber, field, writer);
    }

    private static int digits(long n) {
        int digits = 1;
        for (long rest = n / 10; rest > 0; rest /= 10) {
            digits++;
        }
        return digits;
    }

    /** Writes {@code n} (not negative, {@code digits} long) in decimal. */
    private static void writeDecimal(ByteBuf out, long n, int digits) {
        long divisor = 1;
        for (int i = 1; i < digits; i++) {
            divisor *= 10;
        }
        for (long rest = n; divisor > 0; divisor /= 10) {
            out.writeByte('0' + (int) (rest / divisor));
            rest %= divisor;
        }
    }
}
