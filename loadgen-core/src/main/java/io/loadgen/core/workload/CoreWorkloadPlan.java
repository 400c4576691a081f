package io.loadgen.core.workload;

import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.workload.generator.DiscreteChooser;
import io.loadgen.core.workload.generator.ExponentialGenerator;
import io.loadgen.core.workload.generator.HotspotGenerator;
import io.loadgen.core.workload.generator.KeyCounter;
import io.loadgen.core.workload.generator.NumberGenerator;
import io.loadgen.core.workload.generator.ScrambledZipfianGenerator;
import io.loadgen.core.workload.generator.SequentialGenerator;
import io.loadgen.core.workload.generator.SkewedLatestGenerator;
import io.loadgen.core.workload.generator.UniformGenerator;
import io.loadgen.core.workload.generator.ZipfianGenerator;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * YCSB CoreWorkload's operation mix and key choice, as an {@link OperationPlan}: the run phase draws each
 * operation's type from the proportions and its key from {@code requestdistribution}; INSERTs take new keys
 * from a shared counter that starts after the loaded records (so the key space grows as in YCSB, and
 * {@code latest} favours the newest acknowledged keys). The load phase ({@link #load}) inserts
 * {@code insertstart .. insertstart + insertcount - 1} once each, spread over the threads.
 *
 * <p>Built on the main thread; each run thread gets its own sequence with its own generators; the
 * insert-key counter is shared and thread-safe. Key numbers given to the driver are YCSB's: hashed with
 * FNV-1a 64 when {@code insertorder=hashed}, the plain number when {@code ordered}.
 */
public final class CoreWorkloadPlan implements OperationPlan {

    /**
     * The parts of a YCSB workload that choose operations and keys.
     *
     * @param proportions         operation type (driver name, e.g. {@code READ-MODIFY-WRITE}) to proportion, in order
     * @param recordCount         records loaded ({@code recordcount})
     * @param insertStart         first key of this client's range ({@code insertstart})
     * @param insertCount         keys this client loads ({@code insertcount})
     * @param operationCount      {@code operationcount}, for sizing the zipfian range as YCSB does
     * @param requestDistribution uniform, zipfian, latest, hotspot, sequential or exponential
     */
    public record Config(Map<String, Double> proportions, long recordCount, long insertStart, long insertCount,
                         long operationCount, String requestDistribution, double hotspotDataFraction,
                         double hotspotOpnFraction, double exponentialPercentile, double exponentialFrac,
                         boolean hashedKeys, int fieldCount, int fieldLength, int minFieldLength,
                         String fieldLengthDistribution, int zeroPadding, String fieldNamePrefix,
                         boolean readAllFields, boolean writeAllFields, int minScanLength, int maxScanLength,
                         boolean zipfianScanLength) {

        /** The parts of validated YCSB properties this plan uses. */
        public static Config of(WorkloadOptions o) {
            return new Config(o.opProportions(), o.recordCount(), o.insertStart(), o.insertCount(), o.operationCount(),
                    o.requestDistribution().name().toLowerCase(java.util.Locale.ROOT), o.hotspotDataFraction(),
                    o.hotspotOpnFraction(), o.exponentialPercentile(), o.exponentialFrac(),
                    o.insertOrder() == WorkloadOptions.InsertOrder.HASHED, o.fieldCount(), o.fieldLength(),
                    o.minFieldLength(), o.fieldLengthDistribution().name().toLowerCase(java.util.Locale.ROOT),
                    o.zeroPadding(), o.fieldNamePrefix(), o.readAllFields(), o.writeAllFields(), o.minScanLength(), o.maxScanLength(),
                    o.scanLengthDistribution() == WorkloadOptions.ScanLengthDistribution.ZIPFIAN);
        }
    }

    private final Config config;
    private final List<String> types;
    private final double[] weights;
    private final int insertType;
    private final int readType;
    private final int updateType;
    private final int scanType;
    private final KeyCounter insertKeys;
    /**
     * {@code insertorder=hashed}: the driver keys of key numbers {@code 0 .. length - 1}, computed once and
     * shared read-only by every thread, when the loaded keys fit {@link #HASHED_KEY_TABLE_MAX}; else empty.
     * A lookup is one load where the hash is eight dependent multiplies (~7 ns of a workloada operation's
     * draws); keys past the table (a big key space, or run-phase inserts) are hashed as before.
     */
    private final long[] hashedKeyTable;
    private final AtomicLong sequentialPosition = new AtomicLong();
    /** Most key numbers whose hashes {@link #hashedKeyTable} holds: 2^16, 512 KiB. */
    static final int HASHED_KEY_TABLE_MAX = 1 << 16;

    private CoreWorkloadPlan(Config config) {
        this.config = config;
        List<String> t = new ArrayList<>();
        List<Double> w = new ArrayList<>();
        config.proportions().forEach((type, p) -> {
            if (p > 0) {
                t.add(type);
                w.add(p);
            }
        });
        this.types = List.copyOf(t);
        this.weights = w.stream().mapToDouble(Double::doubleValue).toArray();
        this.insertType = types.indexOf("INSERT");
        this.readType = types.indexOf("READ");
        this.updateType = types.indexOf("UPDATE");
        this.scanType = types.indexOf("SCAN");
        // YCSB: the run phase's inserts continue after the loaded records.
        this.insertKeys = new KeyCounter(config.insertStart() + config.recordCount());
        this.hashedKeyTable = hashedKeyTable(config);
    }

    private static long[] hashedKeyTable(Config config) {
        long loadedEnd = config.insertStart() + config.insertCount();
        if (!config.hashedKeys() || loadedEnd > HASHED_KEY_TABLE_MAX) {
            return new long[0];
        }
        long[] table = new long[(int) loadedEnd];
        for (int key = 0; key < table.length; key++) {
            table[key] = Keys.ycsbHash(key);
        }
        return table;
    }

    /** The run phase: the mix of operations over the loaded records. */
    public static CoreWorkloadPlan run(Config config) {
        return new CoreWorkloadPlan(config);
    }

    /** The load phase: INSERT each of {@code insertcount} keys from {@code insertstart} once, over all threads. */
    public static OperationPlan load(Config config) {
        return new OperationPlan() {
            @Override
            public List<String> operations() {
                return List.of("INSERT");
            }

            @Override
            public DriverContext.RecordShape recordShape() {
                return shape(config);
            }

            @Override
            public OperationSequence forThread(int threadIndex, int threads, SplittableRandom random) {
                return new OperationSequence() {
                    @Override
                    public int nextType(long n) {
                        return 0;
                    }

                    @Override
                    public long nextKey(int type, long n) {
                        return config.insertStart() + n * threads + threadIndex;
                    }

                    @Override
                    public long driverKey(long logicalKey) {
                        return config.hashedKeys() ? Keys.ycsbHash(logicalKey) : logicalKey;
                    }
                };
            }
        };
    }

    @Override
    public List<String> operations() {
        return types;
    }

    @Override
    public DriverContext.RecordShape recordShape() {
        return shape(config);
    }

    private static DriverContext.RecordShape shape(Config c) {
        return new DriverContext.RecordShape(c.fieldCount(), c.fieldLength(), c.minFieldLength(),
                c.fieldLengthDistribution(), c.fieldNamePrefix(), c.zeroPadding());
    }

    @Override
    public OperationSequence forThread(int threadIndex, int threads, SplittableRandom random) {
        SplittableRandom detail = random.split();
        NumberGenerator scanLengths = config.zipfianScanLength()
                ? new ZipfianGenerator(config.minScanLength(), config.maxScanLength(), detail.split())
                : new UniformGenerator(config.minScanLength(), config.maxScanLength(), detail.split());
        return new Sequence(new DiscreteChooser(weights, random.split()), keyChooser(random.split()), scanLengths,
                detail);
    }

    private NumberGenerator keyChooser(SplittableRandom random) {
        long lo = config.insertStart();
        long hi = lo + config.insertCount() - 1;
        return switch (config.requestDistribution()) {
            case "uniform" -> new UniformGenerator(lo, hi, random);
            case "zipfian" -> {
                // YCSB sizes the zipfian range for the keys this run may insert, so new keys can be chosen too.
                long expectedNewKeys = (long) (config.operationCount() * proportion("INSERT") * 2.0);
                yield new ScrambledZipfianGenerator(lo, hi + expectedNewKeys, random);
            }
            case "latest" -> new SkewedLatestGenerator(insertKeys, random);
            case "hotspot" -> new HotspotGenerator(lo, hi, config.hotspotDataFraction(), config.hotspotOpnFraction(),
                    random);
            case "sequential" -> new SequentialGenerator(lo, hi, sequentialPosition);
            case "exponential" -> ExponentialGenerator.forRecords(config.recordCount(), config.exponentialPercentile(),
                    config.exponentialFrac(), random);
            default -> throw new IllegalArgumentException("unknown requestdistribution " + config.requestDistribution());
        };
    }

    private double proportion(String type) {
        Double p = config.proportions().get(type);
        return p == null ? 0 : p;
    }

    /** One thread's draws; its generators are its own, the insert counter is shared. */
    private final class Sequence implements OperationSequence {
        private final DiscreteChooser chooser;
        private final NumberGenerator keys;
        private final NumberGenerator scanLengths;
        private final SplittableRandom fields;
        private final boolean exponential;

        Sequence(DiscreteChooser chooser, NumberGenerator keys, NumberGenerator scanLengths, SplittableRandom fields) {
            this.chooser = chooser;
            this.keys = keys;
            this.scanLengths = scanLengths;
            this.fields = fields;
            this.exponential = keys instanceof ExponentialGenerator;
        }

        /** YCSB: a READ reads one random field unless readallfields, an UPDATE writes one unless writeallfields. */
        @Override
        public void detail(int type, Operation op) {
            if (type == scanType) {
                op.detail(-1, (int) scanLengths.next());
            } else if ((type == readType && !config.readAllFields()) || (type == updateType && !config.writeAllFields())) {
                op.detail(fields.nextInt(config.fieldCount()), 0);
            }
        }

        @Override
        public int nextType(long n) {
            return chooser.next();
        }

        @Override
        public long nextKey(int type, long n) {
            if (type == insertType) {
                return insertKeys.next();
            }
            return existingKey();
        }

        /** YCSB's nextKeynum: a key that has been inserted (and acknowledged) already. */
        private long existingKey() {
            long last = insertKeys.lastValue();
            long key;
            if (exponential) {
                do {
                    key = last - keys.next();
                } while (key < 0);
            } else {
                do {
                    key = keys.next();
                } while (key > last);
            }
            return key;
        }

        @Override
        public long driverKey(long logicalKey) {
            final long[] table = hashedKeyTable;
            if (logicalKey >= 0 && logicalKey < table.length) {
                return table[(int) logicalKey];
            }
            return config.hashedKeys() ? Keys.ycsbHash(logicalKey) : logicalKey;
        }

        @Override
        public void completed(int type, long logicalKey) {
            if (type == insertType) {
                insertKeys.acknowledge(logicalKey);
            }
        }
    }
}
