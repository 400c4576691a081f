package io.loadgen.drivers.redis;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The values {@code redis.requests}' writes send, and the check a read makes of them with
 * {@code redis.dataintegrity=true} (YCSB's {@code dataintegrity}). Stateless; any thread.
 *
 * <p>A checked value is derived from what it belongs to (its identity: the key, or for a hash field the key, a
 * {@code /} and the field name) and a version the writer chose: the version in decimal, a {@code :}, then
 * letters drawn from a generator seeded by the identity's hash, the version and the value's size, up to that size:
 * <pre>
 *   17:qhzbtkwmxa...    version 17 of some key's value; another key's version 17 has other letters
 * </pre>
 * so a reader that knows only the key (and the field) can tell a value the run wrote for it from anything else:
 * a value written by hand, cut short, or written for another key. Without the check, values are a fixed
 * letter pattern, cut to size.
 */
final class VersionedValues {
    /** Versions are kept below this, so the header ({@code digits:}) is at most 15 bytes. */
    static final long VERSION_LIMIT = 100_000_000_000_000L;
    /** The smallest value size a checked value may have: the longest header and one letter. */
    static final int MIN_CHECKED_SIZE = 16;

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private VersionedValues() {
    }

    /** FNV-1a of the key's characters (keys are ASCII): the identity of a string's, a list's, a set's value. */
    static long identity(String key) {
        long h = FNV_OFFSET;
        for (int i = 0; i < key.length(); i++) {
            h = (h ^ (key.charAt(i) & 0xff)) * FNV_PRIME;
        }
        return h;
    }

    /** The identity of field {@code field} of the hash whose key's identity is {@code key}. */
    static long field(long key, String field) {
        long h = (key ^ '/') * FNV_PRIME;
        for (int i = 0; i < field.length(); i++) {
            h = (h ^ (field.charAt(i) & 0xff)) * FNV_PRIME;
        }
        return h;
    }

    /** {@link #field(long, String)} of a field name as the reply carries it: bytes from position to limit. */
    static long field(long key, ByteBuffer field) {
        long h = (key ^ '/') * FNV_PRIME;
        for (int i = field.position(); i < field.limit(); i++) {
            h = (h ^ (field.get(i) & 0xff)) * FNV_PRIME;
        }
        return h;
    }

    /** A new value of {@code size} bytes (at least {@link #MIN_CHECKED_SIZE}) for {@code identity}, version {@code version}. */
    static byte[] value(long identity, long version, int size) {
        byte[] v = new byte[size];
        int at = putDecimal(v, version);
        v[at++] = ':';
        long state = seed(identity, version, size);
        for (; at < size; at++) {
            state = step(state);
            v[at] = letter(state);
        }
        return v;
    }

    /**
     * True when {@code value} (position to limit, unchanged) is a value {@link #value} makes for {@code identity}:
     * a version, a colon and that version's letters to the end.
     */
    static boolean matches(long identity, ByteBuffer value) {
        int i = value.position();
        int end = value.limit();
        long version = 0;
        int digits = 0;
        while (i < end && digits < 16) {
            byte b = value.get(i);
            if (b < '0' || b > '9') {
                break;
            }
            version = version * 10 + (b - '0');
            digits++;
            i++;
        }
        if (digits == 0 || i >= end || value.get(i) != ':' || i + 1 >= end) {
            return false;
        }
        long state = seed(identity, version, end - value.position());
        for (i++; i < end; i++) {
            state = step(state);
            if (value.get(i) != letter(state)) {
                return false;
            }
        }
        return true;
    }

    /** An unchecked value: {@code size} bytes of a fixed letter pattern. */
    static byte[] plain(byte[] pattern, int size) {
        return Arrays.copyOf(pattern, size);
    }

    /** The letter pattern plain values are cut from, {@code size} bytes. */
    static byte[] pattern(int size) {
        byte[] p = new byte[size];
        long state = seed(0, 0, 0);
        for (int i = 0; i < size; i++) {
            state = step(state);
            p[i] = letter(state);
        }
        return p;
    }

    /** SplitMix64's finalizer over the identity, the version and the size, so a value cut short is another value. */
    private static long seed(long identity, long version, int size) {
        long z = identity ^ (version * 0x9E3779B97F4A7C15L) ^ (size * 0xC2B2AE3D27D4EB4FL);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return z == 0 ? 1 : z; // xorshift's one fixed point
    }

    /** Marsaglia's xorshift64: one step per byte. */
    private static long step(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        return x;
    }

    private static byte letter(long state) {
        return (byte) ('a' + (int) ((state >>> 40) % 26));
    }

    /** Writes {@code n} (0 .. VERSION_LIMIT) in decimal at the start of {@code v}; returns the index after it. */
    private static int putDecimal(byte[] v, long n) {
        int digits = 1;
        for (long rest = n / 10; rest > 0; rest /= 10) {
            digits++;
        }
        long rest = n;
        for (int i = digits - 1; i >= 0; i--) {
            v[i] = (byte) ('0' + (int) (rest % 10));
            rest /= 10;
        }
        return digits;
    }
}
