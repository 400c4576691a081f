package io.loadgen.core;

/**
 * The largest values loadgen accepts, each with why, in one place: a value beyond one cannot be meant,
 * or cannot be held, and is refused as bad input in one line naming the limit rather than run (a 10^12
 * ops/s target once ran for 11 minutes; 100,000 threads ran out of memory with a stack trace). Stateless;
 * any thread.
 *
 * <p>Memory limits are derived from the heap this JVM may grow to ({@link Runtime#maxMemory()}, set with
 * {@code -Xmx}, e.g. {@code LOADGEN_JAVA_OPTS=-Xmx4g ./loadgen ...}), so a bigger heap admits more.
 */
public final class Limits {
    /**
     * The highest total target: one operation per nanosecond, the resolution of the clock intended
     * starts are measured on. Above it two operations share an intended start.
     */
    public static final double MAX_TARGET_OPS_PER_SEC = 1e9;

    /** The longest run: 366 days. A longer one cannot be meant, and the run's times stay far from overflowing a long. */
    public static final long MAX_DURATION_NS = 366L * 24 * 3600 * 1_000_000_000L;

    /**
     * The longest sweep, all its steps together: a day. A sweep searches for a knee, in minutes to hours; a
     * longer one is a typo ({@code --steps 100000} of 1 s each was 28 hours that started without a word). A
     * longer test at one rate is a {@code run}, whose limit is {@link #MAX_DURATION_NS}.
     */
    public static final long MAX_SWEEP_NS = 24L * 3600 * 1_000_000_000L;

    /** The most steps a sweep's --steps may ask for: 10,000. Each opens the driver anew, and a table or chart of more rows cannot be read. */
    public static final int MAX_SWEEP_STEPS = 10_000;

    /**
     * The most operations in a run: 2^53, the largest count a double holds exactly (throughput and
     * shares are computed in doubles); at the highest target that is 104 days.
     */
    public static final long MAX_OPERATIONS = 1L << 53;

    /** The shortest status and interval-log period: 10 ms. Below it the sampler, not the target, sets the pace. */
    public static final long MIN_INTERVAL_NS = 10_000_000L;

    /**
     * The share of the heap a run's preallocated state (histograms, in-flight slots, record buffers) may
     * take; the rest is for the sampler's totals, the driver and the JVM.
     */
    public static final double HEAP_SHARE = 0.5;

    /**
     * The most operations one async issuer may have in flight (--max-in-flight): 2^20. Its slots are
     * preallocated; a million per thread is beyond any pipeline depth a store accepts.
     */
    public static final int MAX_IN_FLIGHT = 1 << 20;

    /** Bytes one in-flight slot of an async issuer takes (the slot and its queue entry), with margin. */
    public static final long BYTES_PER_IN_FLIGHT_SLOT = 64;

    /**
     * The largest record (fields × length) is a sixteenth of the heap: a driver keeps one record's values
     * and encodes each write from them, so several in flight must fit beside the histograms.
     */
    public static final int RECORD_HEAP_FRACTION = 16;

    /** Bytes a field takes beyond its value (its name, array entries), with margin. */
    private static final long FIELD_OVERHEAD_BYTES = 64;

    /** Messages quote at most this many characters of a value, then say how long it was. */
    public static final int QUOTE_CHARS = 80;

    private Limits() {
    }

    /** The heap this JVM may grow to, in bytes. */
    public static long maxHeapBytes() {
        return Runtime.getRuntime().maxMemory();
    }

    /** The heap a run's preallocated state may take: {@link #HEAP_SHARE} of {@link #maxHeapBytes()}. */
    public static long heapBudgetBytes() {
        return (long) (maxHeapBytes() * HEAP_SHARE);
    }

    /**
     * Refuses a record shape that would not fit in {@link #RECORD_HEAP_FRACTION} of the heap: the values,
     * an overhead per field, and a table of 8 bytes per possible length (zipfian lengths).
     *
     * @param countName  how the user set the field count, e.g. {@code fieldcount}
     * @param lengthName how the user set the field length, e.g. {@code fieldlength}
     * @throws BadInputException naming both, the size, the heap and the fix
     */
    public static void checkRecordShape(String countName, int fieldCount, String lengthName, int fieldLength) {
        long recordBytes = fieldCount * (fieldLength + FIELD_OVERHEAD_BYTES) + 8L * fieldLength;
        long allowed = maxHeapBytes() / RECORD_HEAP_FRACTION;
        if (recordBytes > allowed) {
            throw new BadInputException("a record of " + countName + "=" + fieldCount + " x " + lengthName + "="
                    + fieldLength + " bytes (about " + bytes(recordBytes) + ") is above the limit of "
                    + bytes(allowed) + ", a sixteenth of this JVM's maximum heap (" + bytes(maxHeapBytes())
                    + "; drivers keep a record's values and encode writes from them): lower " + lengthName
                    + " or " + countName + ", or give a larger heap, e.g. LOADGEN_JAVA_OPTS=-Xmx8g");
        }
    }

    /** "1.5 GB", "300 MB": a byte count for messages. */
    public static String bytes(long n) {
        if (n >= 1L << 30) {
            return String.format(java.util.Locale.ROOT, "%.1f GB", n / (double) (1L << 30));
        }
        return Math.max(1, Math.round(n / (double) (1L << 20))) + " MB";
    }

    /**
     * {@code text} for a message: whole when it is short, else its first {@link #QUOTE_CHARS} characters and
     * how long it was, e.g. {@code "aaaa… (5000000 chars)"}, so a 5 MB value is never echoed whole.
     */
    public static String quote(String text) {
        if (text == null || text.length() <= QUOTE_CHARS) {
            return text;
        }
        return text.substring(0, QUOTE_CHARS) + "… (" + text.length() + " chars)";
    }
}
