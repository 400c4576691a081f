package io.loadgen.core.workload.generator;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FnvTest {
    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /** FNV-1a 64 from the spec, in unbounded arithmetic: for each byte (low first) xor, then multiply mod 2^64. */
    private static long specFnv1a64ThenAbs(long value) {
        BigInteger hash = new BigInteger("CBF29CE484222325", 16);
        BigInteger prime = BigInteger.valueOf(1099511628211L);
        for (int i = 0; i < 8; i++) {
            long octet = (value >>> (8 * i)) & 0xFF;
            hash = hash.xor(BigInteger.valueOf(octet)).multiply(prime).mod(TWO_64);
        }
        return Math.abs(hash.longValue()); // YCSB returns Math.abs of the signed 64-bit hash
    }

    @Test
    void matchesSpecFnv1a64OverTheEightBytes() {
        for (long v : new long[] {0, 1, 42, -1, 255, 256, 1L << 40, Long.MAX_VALUE, Long.MIN_VALUE, 123_456_789_012L}) {
            assertEquals(specFnv1a64ThenAbs(v), Fnv.hash64(v), "value " + v);
        }
    }

    @Test
    void matchesSpecOnBothSidesOfTheFourZeroByteShortcut() {
        // Values below 2^32 take the shortcut (four zero bytes as one multiply), the rest hash all eight bytes.
        for (long v : new long[] {0xFFFF_FFFFL, 1L << 32, (1L << 32) + 1, 0xFF00_0000L, 1L << 56, Integer.MAX_VALUE}) {
            assertEquals(specFnv1a64ThenAbs(v), Fnv.hash64(v), "value " + v);
        }
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        for (int i = 0; i < 2_000; i++) {
            long v = random.nextLong() >>> random.nextInt(64); // every magnitude, both sides of 2^32
            assertEquals(specFnv1a64ThenAbs(v), Fnv.hash64(v), "value " + v);
        }
    }

    @Test
    void matchesYcsbFnvhash64Values() {
        // Computed independently (Python, FNV-1a 64 over 8 little-endian bytes, then abs as YCSB's Utils.fnvhash64).
        assertEquals(6284781860667377211L, Fnv.hash64(0));
        assertEquals(8517097267634966620L, Fnv.hash64(1));
        assertEquals(55488592825689361L, Fnv.hash64(42));
        assertEquals(8289690350564177859L, Fnv.hash64(-1));
        assertEquals(6089181255519459853L, Fnv.hash64(1099511627783L));
    }
}
