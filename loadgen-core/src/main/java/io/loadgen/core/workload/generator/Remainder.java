package io.loadgen.core.workload.generator;

import java.math.BigInteger;

/**
 * {@code Math.floorMod(x, d)} for one fixed divisor, by a multiply instead of a division; immutable, any thread.
 *
 * <p>A 64-bit division is the slowest step of a scrambled zipfian key (rank, FNV hash, then the hash modulo
 * the key count): in a profile of workloada it drew as many samples as the hash. For {@code 0 <= x < 2^63}
 * the quotient is {@code floor(x * m / 2^(63 + l))} with {@code l = ceil(log2 d)} and
 * {@code m = ceil(2^(63 + l) / d)}, exactly (Granlund and Montgomery, "Division by Invariant Integers using
 * Multiplication", PLDI 1994, theorem 4.2: {@code m * d} exceeds {@code 2^(63 + l)} by less than
 * {@code d <= 2^l}). {@code m} needs 64 bits, so the high half of {@code x * m} is taken unsigned. A power
 * of two is a mask; a negative {@code x} (FNV's {@code Long.MIN_VALUE}) goes to {@link Math#floorMod}.
 * <pre><code>
 * Remainder byKeys = new Remainder(1000);
 * byKeys.of(123_456_789L);   // 789, as Math.floorMod(123_456_789L, 1000L)
 * </code></pre>
 */
final class Remainder {
    private final long divisor;
    /** {@code divisor - 1} when the divisor is a power of two, else -1. */
    private final long mask;
    /** {@code ceil(2^(63 + l) / divisor)}, as an unsigned 64-bit number. */
    private final long magic;
    /** {@code l - 1}: the shift from the product's high half to the quotient. */
    private final int shift;

    /** @param divisor positive */
    Remainder(long divisor) {
        if (divisor <= 0) {
            throw new IllegalArgumentException("divisor must be positive: " + divisor);
        }
        this.divisor = divisor;
        boolean powerOfTwo = (divisor & (divisor - 1)) == 0;
        this.mask = powerOfTwo ? divisor - 1 : -1;
        if (powerOfTwo) {
            this.magic = 0;
            this.shift = 0;
        } else {
            int l = 64 - Long.numberOfLeadingZeros(divisor - 1); // ceil(log2 d), at least 2 here
            BigInteger d = BigInteger.valueOf(divisor);
            BigInteger[] qr = BigInteger.ONE.shiftLeft(63 + l).divideAndRemainder(d);
            BigInteger m = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
            this.magic = m.longValue(); // the low 64 bits: m < 2^64
            this.shift = l - 1;
        }
    }

    /** {@code Math.floorMod(x, divisor)}. */
    long of(long x) {
        if (x < 0) {
            return Math.floorMod(x, divisor);
        }
        if (mask >= 0) {
            return x & mask;
        }
        // Unsigned high half of x * magic: the signed one, plus x when magic's top bit is set (x >= 0).
        long high = Math.multiplyHigh(x, magic) + ((magic >> 63) & x);
        long quotient = high >>> shift;
        return x - quotient * divisor;
    }
}
