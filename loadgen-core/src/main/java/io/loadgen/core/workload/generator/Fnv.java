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

    private Fnv() {
    }

    /**
     * FNV-1a over the value's 8 bytes, least significant first, then {@link Math#abs(long)} as YCSB does.
     *
     * <p>Like YCSB's, the result is negative only in the one-in-2^64 case where the hash is
     * {@link Long#MIN_VALUE}; callers reducing it modulo a count should use {@link Math#floorMod(long, long)}.
     */
    public static long hash64(long value) {
        long hash = OFFSET_BASIS_64;
        long rest = value;
        for (int i = 0; i < 8; i++) {
            hash ^= rest & 0xFF;
            hash *= PRIME_64;
            rest >>= 8;
        }
        return Math.abs(hash);
    }
}
