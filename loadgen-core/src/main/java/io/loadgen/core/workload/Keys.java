package io.loadgen.core.workload;

/**
 * Record keys as YCSB's CoreWorkload names them: {@code "user"}, zero padding, then the key number
 * or its 64-bit FNV-1a hash. Stateless; any thread.
 *
 * <p>Same names as YCSB for the same key numbers, so a data set loaded by YCSB can be read by
 * loadgen and the other way round:
 * <pre><code>
 * Keys.keyName(5, false, 1);   // "user5"
 * Keys.keyName(5, false, 8);   // "user00000005"
 * Keys.keyName(0, true, 1);    // "user6284781860667377211"
 * </code></pre>
 */
public final class Keys {
    private static final String PREFIX = "user";

    private Keys() {
    }

    /**
     * YCSB's {@code Utils.fnvhash64}: FNV-1a over the eight bytes of {@code value}, low byte first,
     * then {@link Math#abs(long)} (so {@code Long.MIN_VALUE} stays negative, as in YCSB).
     */
    public static long ycsbHash(long value) {
        return io.loadgen.core.workload.generator.Fnv.hash64(value);
    }

    /**
     * YCSB's {@code CoreWorkload.buildKeyName}: {@code "user"}, then zeros until the number has
     * {@code zeroPadding} digits, then the number ({@link #ycsbHash} of it when {@code hashed}).
     */
    public static String keyName(long keyNumber, boolean hashed, int zeroPadding) {
        String digits = Long.toString(hashed ? ycsbHash(keyNumber) : keyNumber);
        int fill = zeroPadding - digits.length();
        if (fill <= 0) {
            return PREFIX + digits;
        }
        StringBuilder sb = new StringBuilder(PREFIX.length() + zeroPadding).append(PREFIX);
        for (int i = 0; i < fill; i++) {
            sb.append('0');
        }
        return sb.append(digits).toString();
    }
}
