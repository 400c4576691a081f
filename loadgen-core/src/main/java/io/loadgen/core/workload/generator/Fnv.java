package io.loadgen.core.workload.generator;

/**
 * The 64-bit FNV-1a hash of a {@code long}, as YCSB's {@code Utils.fnvhash64}; stateless, any thread.
 *
 * <p>Used to scatter key numbers ({@code insertorder=hashed}) and zipfian ranks
 * ({@link ScrambledZipfianGenerator}). Values must equal YCSB's so that the same record count
 * and insert order name the same keys.
 */
public final class Fnv {
    /** FNV-1a 64-bit offset basis. */
    public static final long OFFSET_BASIS_64 = 0xCBF29CE484222325L;
    /** FNV-1a 64-bit prime, 2^40 + 2^8 + 0xb3. */
    public static final long PRIME_64 = 1099511628211L;
    /** {@code PRIME_64^4 mod 2^64}: four steps over zero bytes. */
    private static final long PRIME_64_POW_4 = PRIME_64 * PRIME_64 * PRIME_64 * PRIME_64;

    private Fnv() {
    }

    /**
     * FNV-1a over the value's 8 bytes, least significant first, then {@link Math#abs(long)} as YCSB does.
     *
     * <p>Like YCSB's, the result is negative only in the one-in-2^64 case where the hash is
     * {@link Long#MIN_VALUE}; callers reducing it modulo a count should use {@link Math#floorMod(long, long)}.
     *
     * <p>Each byte is a dependent xor and multiply, so the eight cost about 13 ns; a key draw hashes twice
     * (zipfian rank, then the key). A zero byte leaves {@code hash ^ 0 = hash}, so its step is only the
     * multiply: when the upper four bytes are zero (every key and rank below 2^32) their four steps are one
     * multiply by {@code PRIME_64^4}, with the same result.
     */
    public static long hash64(long value) {
        long hash = step(step(step(step(OFFSET_BASIS_64, value), value >>> 8), value >>> 16), value >>> 24);
        if (value >>> 32 == 0) {
            return Math.abs(hash * PRIME_64_POW_4);
        }
        return Math.abs(step(step(step(step(hash, value >>> 32), value >>> 40), value >>> 48), value >>> 56));
    }

    /** One FNV-1a step: xor in the low byte of {@code bytes}, multiply by the prime. */
    private static long step(long hash, long bytes) {
        return (hash ^ (bytes & 0xFF)) * PRIME_64;
    }
}
