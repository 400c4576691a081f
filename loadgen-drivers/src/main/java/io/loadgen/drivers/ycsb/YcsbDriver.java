package io.loadgen.drivers.ycsb;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.drivers.redis.FieldLengths;
import io.loadgen.drivers.support.Causes;
import io.loadgen.drivers.support.WorkerRandoms;
import io.loadgen.drivers.support.YcsbOperations;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.Vector;
import java.util.concurrent.atomic.LongAdder;

/**
 * A YCSB binding's {@code site.ycsb.DB} run as a blocking driver: one DB instance per worker thread, made and
 * {@code init()}ed when the driver opens and {@code cleanup()}ed when it closes, as YCSB's client threads do, each
 * operation one call of the DB's method with YCSB CoreWorkload's arguments (the workload's {@code table}, the key
 * {@code user<n>}, the fields, values as the binding's own {@code ByteArrayByteIterator}s) on the worker's thread
 * with the binding's class loader as its context class loader. YCSB's Status maps to loadgen's by name, BATCHED_OK
 * to OK; an exception the binding throws counts as ERROR (the run reports it), as YCSB's client cannot.
 *
 * <p>Per call the driver allocates what YCSB's own client gives the binding (the key String, a HashMap and a byte
 * iterator per field written) and nothing else: the read and scan results are one reused map and vector per
 * worker, the values' bytes are views of one random buffer, and the binding's methods are method handles resolved
 * at open. Thread-safe as {@link Driver} requires: each worker uses only its own {@link Slot}.
 */
final class YcsbDriver implements Driver {
    private static final Logger LOG = LogManager.getLogger(YcsbDriver.class);
    /** loadgen's status for each of YCSB's, by {@link YcsbBinding#STATUS_NAMES} index. */
    private static final Status[] STATUSES = YcsbBinding.STATUS_NAMES.stream()
            .map(n -> n.equals("BATCHED_OK") ? Status.OK : Status.valueOf(n)).toArray(Status[]::new);
    /** How many records a SCAN reads when the run has no workload to say (the redis driver's default too). */
    static final int DEFAULT_SCAN_LENGTH = 10;
    /** Values are views into a buffer this much longer than the longest value, at a random offset. */
    private static final int VALUE_SPREAD = 1 << 16;
    /** A key no workload makes ({@code user<n>} are), read during warm-up. */
    static final String WARM_UP_KEY = "loadgen-warmup";
    /**
     * Warm-up reads per DB, at most: the binding's classes are new to this JVM at every open (a class loader of
     * their own), so its client runs interpreted until the JIT has seen a few thousand calls.
     */
    static final int WARM_UP_ROUNDS = 2000;

    private final YcsbBinding binding;
    private final Slot[] slots;
    private final String table;
    private final String[] fieldNames;
    /** For each field, the one-field set a READ of that field passes, as YCSB's CoreWorkload builds it. */
    private final List<Set<String>> oneField;
    private final FieldLengths lengths;
    private final int zeroPadding;
    private final boolean readAllFields;
    private final boolean writeAllFields;
    /** Printable ASCII, as YCSB's RandomByteIterator writes; never written after open. */
    private final byte[] valueBytes;
    private final LongAdder batchedOk = new LongAdder();
    private final LongAdder otherStatuses = new LongAdder();
    /** The last status that was not OK (a YCSB Status), or null: written on failures only. */
    private volatile Object lastFailed;
    private boolean closed;

    /** Per worker: its DB instance and what its calls reuse. Used by that worker's thread only. */
    private static final class Slot {
        final Object db;
        final SplittableRandom random;
        final StringBuilder key = new StringBuilder(32);
        final Map<String, Object> result = new HashMap<>();
        final Vector<Object> rows = new Vector<>();

        Slot(Object db, SplittableRandom random) {
            this.db = db;
            this.random = random;
        }
    }

    private YcsbDriver(YcsbBinding binding, YcsbSettings settings, Slot[] slots, long seed) {
        this.binding = binding;
        this.slots = slots;
        this.table = settings.table();
        this.lengths = settings.lengths();
        this.zeroPadding = settings.zeroPadding();
        this.readAllFields = settings.readAllFields();
        this.writeAllFields = settings.writeAllFields();
        this.fieldNames = new String[settings.fieldCount()];
        List<Set<String>> sets = new ArrayList<>();
        for (int f = 0; f < fieldNames.length; f++) {
            fieldNames[f] = settings.fieldNamePrefix() + f;
            sets.add(Set.of(fieldNames[f]));
        }
        this.oneField = List.copyOf(sets);
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        this.valueBytes = new byte[VALUE_SPREAD + lengths.max()];
        for (int i = 0; i < valueBytes.length; i++) {
            valueBytes[i] = (byte) (' ' + random.nextInt(95));
        }
    }

    /**
     * Makes and initialises one DB per thread; on a failure, cleans up those already made and closes the binding.
     *
     * @throws io.loadgen.core.BadInputException naming why a DB could not be made or started
     */
    static YcsbDriver open(YcsbBinding binding, YcsbSettings settings, DriverContext context) {
        SplittableRandom[] randoms = WorkerRandoms.split(context);
        Slot[] slots = new Slot[context.threads()];
        try {
            for (int i = 0; i < slots.length; i++) {
                slots[i] = new Slot(binding.open(settings.dbProperties()), randoms[i]);
            }
        } catch (RuntimeException | Error e) {
            try {
                cleanup(binding, slots);
            } finally {
                binding.close();
            }
            throw e;
        }
        return new YcsbDriver(binding, settings, slots, context.seed());
    }

    @Override
    public Status execute(Operation op) throws Exception {
        Slot slot = slots[op.workerIndex()];
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(binding.loader());
        try {
            return status(call(slot, op.typeIndex(), key(slot, op.keyNumber()), op.keyNumber(), op.fieldIndex(),
                    op.scanLength()));
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new UndeclaredThrowableException(t);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** One YCSB operation, as CoreWorkload's doTransaction* and doInsert call the DB; returns the DB's status. */
    private Object call(Slot slot, int type, String key, long keyNumber, int field, int scanLength) throws Throwable {
        switch (type) {
            case YcsbOperations.READ:
                return read(slot, key, field < 0 ? null : oneField.get(field));
            case YcsbOperations.UPDATE:
                return binding.update(slot.db, table, key, values(slot, keyNumber, field));
            case YcsbOperations.INSERT:
                return binding.insert(slot.db, table, key, values(slot, keyNumber, -1));
            case YcsbOperations.SCAN:
                try {
                    return binding.scan(slot.db, table, key, scanLength > 0 ? scanLength : DEFAULT_SCAN_LENGTH,
                            field < 0 ? null : oneField.get(field), slot.rows);
                } finally {
                    slot.rows.clear();
                }
            case YcsbOperations.READ_MODIFY_WRITE:
                // YCSB reads, then writes whatever the read said; the first status that is not OK is the outcome.
                Set<String> fields = readAllFields ? null : oneField.get(slot.random.nextInt(fieldNames.length));
                Object read = read(slot, key, fields);
                Object written = binding.update(slot.db, table, key,
                        values(slot, keyNumber, writeAllFields ? -1 : slot.random.nextInt(fieldNames.length)));
                return binding.statusCode(read) == 0 ? written : read;
            case YcsbOperations.DELETE:
                return binding.delete(slot.db, table, key);
            default:
                throw new IllegalArgumentException("operation type " + type + " is not one of YCSB's six");
        }
    }

    private Object read(Slot slot, String key, Set<String> fields) throws Throwable {
        try {
            return binding.read(slot.db, table, key, fields, slot.result);
        } finally {
            slot.result.clear();
        }
    }

    /**
     * A fresh map of field to ByteArrayByteIterator, as CoreWorkload builds for a write: every field, or only
     * {@code field} when it is not -1. Fresh, as a binding that batches may keep it; the bytes are never rewritten.
     */
    private Map<String, Object> values(Slot slot, long keyNumber, int field) throws Throwable {
        int from = field < 0 ? 0 : field;
        int to = field < 0 ? fieldNames.length : field + 1;
        Map<String, Object> values = new HashMap<>(2 * (to - from));
        for (int f = from; f < to; f++) {
            values.put(fieldNames[f], binding.bytes(valueBytes, slot.random.nextInt(VALUE_SPREAD),
                    lengths.length(keyNumber, f)));
        }
        return values;
    }

    /** YCSB's key for {@code keyNumber}: {@code user} and the number, zero-padded to {@code zeropadding} digits. */
    private String key(Slot slot, long keyNumber) {
        StringBuilder key = slot.key;
        key.setLength(0);
        key.append("user");
        for (int pad = zeroPadding - digits(keyNumber); pad > 0; pad--) {
            key.append('0');
        }
        return key.append(keyNumber).toString();
    }

    private static int digits(long n) {
        int digits = 1;
        for (long rest = n / 10; rest != 0; rest /= 10) {
            digits++;
        }
        return n < 0 ? digits + 1 : digits;
    }

    /** loadgen's status for the DB's: by name, BATCHED_OK as OK (and counted), any other name as ERROR (counted). */
    private Status status(Object ycsbStatus) throws Throwable {
        int code = binding.statusCode(ycsbStatus);
        if (code == 0) {
            return Status.OK;
        }
        if (code == YcsbBinding.BATCHED_OK) {
            batchedOk.increment();
            return Status.OK;
        }
        lastFailed = ycsbStatus;
        if (code < 0) {
            otherStatuses.increment();
            return Status.ERROR;
        }
        return STATUSES[code];
    }

    /**
     * Reads a key no workload writes ({@value #WARM_UP_KEY}) on every DB in turn, {@value #WARM_UP_ROUNDS} times each
     * at most, within the budget.
     */
    @Override
    public void warmUp(long budgetNs) {
        long endNs = System.nanoTime() + budgetNs;
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(binding.loader());
        try {
            for (int round = 0; round < WARM_UP_ROUNDS && System.nanoTime() - endNs < 0; round++) {
                for (Slot slot : slots) {
                    try {
                        read(slot, WARM_UP_KEY, null);
                    } catch (Throwable t) {
                        return; // a binding that fails a read of a missing key warms no further; the run will tell
                    }
                }
            }
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /**
     * {@code db_instances}: the DBs made, one per thread. {@code batched_ok}: operations the binding batched to
     * run later (BATCHED_OK, counted as OK). {@code other_statuses}: statuses with a name YCSB does not have, or
     * null (counted as ERROR).
     */
    @Override
    public Map<String, Number> stats() {
        Map<String, Number> stats = new LinkedHashMap<>();
        stats.put("db_instances", (long) slots.length);
        stats.put("batched_ok", batchedOk.sum());
        stats.put("other_statuses", otherStatuses.sum());
        return stats;
    }

    @Override
    public String lastFailure() {
        Object failed = lastFailed;
        return failed == null ? null : binding.dbClass() + " returned " + binding.describe(failed);
    }

    /** Calls every DB's {@code cleanup()}, as YCSB's client threads do at their end, then closes the binding. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            cleanup(binding, slots);
        } finally {
            binding.close();
        }
    }

    /** Calls {@code cleanup()} on every DB made so far (null slots are not); one warning if any fails. */
    private static void cleanup(YcsbBinding binding, Slot[] slots) {
        int failed = 0;
        Throwable last = null;
        for (Slot slot : slots) {
            if (slot == null) {
                continue;
            }
            try {
                binding.cleanup(slot.db);
            } catch (Throwable t) {
                failed++;
                last = t;
            }
        }
        if (last != null) {
            LOG.warn("ycsb: cleanup() failed on {} of {} {} instances: {}", failed, slots.length, binding.dbClass(),
                    Causes.rootMessage(last));
            LOG.debug("last cleanup failure", last);
        }
    }
}
