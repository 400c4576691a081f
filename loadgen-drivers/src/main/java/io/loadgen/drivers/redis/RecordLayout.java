package io.loadgen.drivers.redis;

import java.nio.charset.StandardCharsets;

/**
 * How a YCSB record is laid out in Redis: its key name, its entry in the sorted-set index, its field
 * names and each field's value. Immutable after construction; any thread.
 *
 * <p>As in YCSB's Redis binding, a record is a hash {@code user<keyNumber>} of {@code fieldCount}
 * fields {@code field0 .. field{n-1}}, and every inserted key is also a member of the sorted set
 * {@value #INDEX_KEY}, scored by {@link #indexScore} (YCSB's {@code hash(key)}: the key's Java
 * {@code hashCode}), so a SCAN is a range query on that score.
 *
 * <p>A value is {@code fieldLength} bytes that depend only on the key number, the field index and
 * whether it was written by an insert or an update, so a test can check what it reads back:
 * <pre>
 *   i42-3:dkpuzgnqxelsbhov...   insert of key 42, field 3: "i" key "-" field ":", then field 3's pattern
 *   u42-3:dkpuzgnqxelsbhov...   the same field after an UPDATE or READ-MODIFY-WRITE
 * </pre>
 * Each field's pattern is computed once; a value is a copy of it with the short prefix written over
 * its start (cut to {@code fieldLength} when the field is shorter than the prefix).
 */
final class RecordLayout {
    /** The sorted set that indexes every inserted key, as in YCSB. */
    static final String INDEX_KEY = "_indices";

    /** The first byte of a value written by an INSERT. */
    static final byte INSERTED = 'i';
    /** The first byte of a value written by an UPDATE or READ-MODIFY-WRITE. */
    static final byte UPDATED = 'u';

    /** Where the driver's warm-up writes: keys and an index of its own, removed after it. */
    static final String SCRATCH_PREFIX = "loadgen-warmup:";

    private final String keyPrefix;
    private final String indexKey;
    private final String fieldNamePrefix;
    private final int fieldCount;
    private final int fieldLength;
    private final FieldLengths lengths;
    private final int zeroPadding;
    private final String[] fieldNames;
    private final byte[][] fieldNameBytes;
    private final byte[][] patterns;

    RecordLayout(int fieldCount, int fieldLength) {
        this(fieldCount, FieldLengths.constant(fieldLength), "field", 1);
    }

    /**
     * @param lengths         each value's length (YCSB's {@code fieldlengthdistribution})
     * @param fieldNamePrefix field names are this prefix and the field's index (YCSB's {@code fieldnameprefix})
     * @param zeroPadding     key numbers are zero-padded to this many digits (YCSB's {@code zeropadding})
     */
    RecordLayout(int fieldCount, FieldLengths lengths, String fieldNamePrefix, int zeroPadding) {
        this(fieldCount, lengths, fieldNamePrefix, zeroPadding, "", INDEX_KEY);
    }

    private RecordLayout(int fieldCount, FieldLengths lengths, String fieldNamePrefix, int zeroPadding, String keyPrefix,
                         String indexKey) {
        int fieldLength = lengths.max();
        this.keyPrefix = keyPrefix;
        this.indexKey = indexKey;
        this.fieldNamePrefix = fieldNamePrefix;
        this.lengths = lengths;
        this.zeroPadding = zeroPadding;
        this.fieldCount = fieldCount;
        this.fieldLength = fieldLength;
        this.fieldNames = new String[fieldCount];
        this.fieldNameBytes = new byte[fieldCount][];
        this.patterns = new byte[fieldCount][];
        for (int f = 0; f < fieldCount; f++) {
            fieldNames[f] = fieldNamePrefix + f;
            fieldNameBytes[f] = fieldNames[f].getBytes(StandardCharsets.US_ASCII);
            patterns[f] = pattern(f, fieldLength);
        }
    }

    /**
     * The same records under other names, {@value #SCRATCH_PREFIX}{@code user<n>} indexed in
     * {@value #SCRATCH_PREFIX}{@code _indices}: what the warm-up writes, so the workload's data are untouched.
     */
    RecordLayout scratch() {
        return new RecordLayout(fieldCount, lengths, fieldNamePrefix, zeroPadding, SCRATCH_PREFIX, SCRATCH_PREFIX + INDEX_KEY);
    }

    /** The sorted set this layout's keys are indexed in: {@value #INDEX_KEY}, as in YCSB. */
    String indexKey() {
        return indexKey;
    }

    /** The record's key: {@code user} + key number. The one place key names are made. */
    static String keyName(long keyNumber) {
        return "user" + keyNumber;
    }

    /** This layout's key for a record: {@code user}, zero-padded as YCSB's {@code zeropadding} asks, + key number. */
    String key(long keyNumber) {
        if (!keyPrefix.isEmpty()) {
            return keyPrefix + unprefixedKey(keyNumber);
        }
        return unprefixedKey(keyNumber);
    }

    private String unprefixedKey(long keyNumber) {
        if (zeroPadding <= 1) {
            return keyName(keyNumber);
        }
        String digits = Long.toString(keyNumber);
        return "user" + "0".repeat(Math.max(0, zeroPadding - digits.length())) + digits;
    }

    /** The key's score in {@value #INDEX_KEY}: YCSB's {@code hash(key)}, i.e. {@code key.hashCode()}. */
    static double indexScore(String key) {
        return key.hashCode();
    }

    int fieldCount() {
        return fieldCount;
    }

    String fieldName(int field) {
        return fieldNames[field];
    }

    /** The field's name as the bytes sent; shared, never to be written. */
    byte[] fieldNameBytes(int field) {
        return fieldNameBytes[field];
    }

    /**
     * A fresh value for {@code field} of record {@code keyNumber} (not negative), as written by
     * {@code writer}. Fresh because Lettuce encodes it later, on its I/O thread.
     */
    byte[] value(long keyNumber, int field, byte writer) {
        byte[] v = java.util.Arrays.copyOf(patterns[field], lengths.length(keyNumber, field));
        int at = 0;
        at = put(v, at, writer);
        at = putDecimal(v, at, keyNumber);
        at = put(v, at, (byte) '-');
        at = putDecimal(v, at, field);
        put(v, at, (byte) ':');
        return v;
    }

    /** {@link #value} as text (values are ASCII); for tests and readers. */
    String valueText(long keyNumber, int field, byte writer) {
        return new String(value(keyNumber, field, writer), StandardCharsets.US_ASCII);
    }

    /** Letters a..z from an offset and a stride that depend on the field, so fields differ. */
    private static byte[] pattern(int field, int length) {
        byte[] p = new byte[length];
        int stride = 1 + 2 * (field % 13); // odd, so coprime with 26: every letter appears
        for (int j = 0; j < length; j++) {
            p[j] = (byte) ('a' + (int) (((long) field * 3 + (long) j * stride) % 26));
        }
        return p;
    }

    private static int put(byte[] v, int at, byte b) {
        if (at < v.length) {
            v[at] = b;
        }
        return at + 1;
    }

    /** Writes {@code n} (not negative) in decimal at {@code at}, cut at the array's end. */
    private static int putDecimal(byte[] v, int at, long n) {
        int digits = 1;
        for (long rest = n / 10; rest > 0; rest /= 10) {
            digits++;
        }
        long rest = n;
        for (int i = digits - 1; i >= 0; i--) {
            if (at + i < v.length) {
                v[at + i] = (byte) ('0' + (int) (rest % 10));
            }
            rest /= 10;
        }
        return at + digits;
    }
}
