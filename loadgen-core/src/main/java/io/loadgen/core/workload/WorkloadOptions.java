package io.loadgen.core.workload;

import io.loadgen.core.BadInputException;
import io.loadgen.core.EditDistance;
import io.loadgen.core.Limits;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * YCSB's CoreWorkload properties, parsed once, validated and defaulted in one place
 * ({@link #from(Map)}), then immutable. Built on the main thread; safe to share.
 *
 * <p>Defaults are YCSB's, so a YCSB workload file means the same here. {@link #from(Map)} reads
 * only the keys in {@link #knownKeys()}; the rest ({@link #remaining(Map)}) are the driver's,
 * which rejects what it does not know. Usage:
 * <pre><code>
 * Map&lt;String, String&gt; props = ...;                       // -P files, then -p overrides
 * WorkloadOptions workload = WorkloadOptions.from(props); // throws BadInputException
 * Map&lt;String, String&gt; driverProps = WorkloadOptions.remaining(props);
 * </code></pre>
 *
 * <p>The YCSB client properties {@code threadcount}, {@code target}, {@code maxexecutiontime} and
 * {@code db} are accepted and recorded so that files carrying them load; they are not driver
 * properties. See {@code workloads/README.md} for which ones a command honours.
 */
public final class WorkloadOptions {
    /** The YCSB workload classes that mean the core workload. */
    public static final List<String> CORE_WORKLOAD_CLASSES =
            List.of("site.ycsb.workloads.CoreWorkload", "com.yahoo.ycsb.workloads.CoreWorkload");

    /** Operation names, in YCSB's order; the keys of {@link #opProportions()}. */
    public static final List<String> OPERATIONS =
            List.of("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "DELETE");

    private static final List<String> PROPORTION_KEYS = List.of("readproportion", "updateproportion",
            "insertproportion", "scanproportion", "readmodifywriteproportion", "deleteproportion");
    private static final List<String> CLIENT_KEYS = List.of("threadcount", "target", "maxexecutiontime", "db");
    private static final Set<String> KNOWN_KEYS = knownKeySet();
    /** The longest scan: 10^7 records, which zipfian scan lengths sum 10^7 powers over once (about 0.3 s). */
    static final int MAX_SCAN_LENGTH = 10_000_000;

    /** How operations pick existing records ({@code requestdistribution}). */
    public enum RequestDistribution { UNIFORM, ZIPFIAN, LATEST, HOTSPOT, SEQUENTIAL, EXPONENTIAL }

    /** Whether inserted keys are hashed or in key-number order ({@code insertorder}). */
    public enum InsertOrder { HASHED, ORDERED }

    /** How long each field value is ({@code fieldlengthdistribution}). */
    public enum FieldLengthDistribution { CONSTANT, UNIFORM, ZIPFIAN }

    /** How many records a scan reads ({@code scanlengthdistribution}). */
    public enum ScanLengthDistribution { UNIFORM, ZIPFIAN }

    private final String workloadClass;
    private final long recordCount;
    private final long operationCount;
    private final Map<String, Double> opProportions;
    private final RequestDistribution requestDistribution;
    private final double zipfianConstant;
    private final double hotspotDataFraction;
    private final double hotspotOpnFraction;
    private final double exponentialPercentile;
    private final double exponentialFrac;
    private final InsertOrder insertOrder;
    private final long insertStart;
    private final long insertCount;
    private final int zeroPadding;
    private final int fieldCount;
    private final int fieldLength;
    private final int minFieldLength;
    private final FieldLengthDistribution fieldLengthDistribution;
    private final boolean readAllFields;
    private final boolean writeAllFields;
    private final int minScanLength;
    private final int maxScanLength;
    private final ScanLengthDistribution scanLengthDistribution;
    private final String table;
    private final String fieldNamePrefix;
    private final OptionalInt threadCount;
    private final OptionalDouble target;
    private final Optional<Duration> maxExecutionTime;
    private final Optional<String> db;

    private WorkloadOptions(Reader r) {
        workloadClass = r.string("workload", CORE_WORKLOAD_CLASSES.get(0));
        recordCount = r.longAtLeast("recordcount", 0, 0);
        operationCount = r.longAtLeast("operationcount", 0, 0);
        opProportions = r.proportions();
        requestDistribution = r.choice("requestdistribution", RequestDistribution.UNIFORM);
        zipfianConstant = r.positive("zipfianconstant", 0.99);
        hotspotDataFraction = r.fraction("hotspotdatafraction", 0.2);
        hotspotOpnFraction = r.fraction("hotspotopnfraction", 0.8);
        exponentialPercentile = r.positive("exponential.percentile", 95);
        exponentialFrac = r.positive("exponential.frac", 0.8571428571);
        insertOrder = r.choice("insertorder", InsertOrder.HASHED);
        insertStart = r.longAtLeast("insertstart", 0, 0);
        insertCount = r.longAtLeast("insertcount", Math.max(0, recordCount - insertStart), 0);
        zeroPadding = r.intAtLeast("zeropadding", 1, 0);
        fieldCount = r.intAtLeast("fieldcount", 10, 1);
        fieldLength = r.intAtLeast("fieldlength", 100, 1);
        minFieldLength = r.intAtLeast("minfieldlength", 1, 1);
        fieldLengthDistribution = r.choice("fieldlengthdistribution", FieldLengthDistribution.CONSTANT);
        readAllFields = r.bool("readallfields", true);
        writeAllFields = r.bool("writeallfields", false);
        minScanLength = r.intAtLeast("minscanlength", 1, 1);
        maxScanLength = r.intAtLeast("maxscanlength", 1000, 1);
        scanLengthDistribution = r.choice("scanlengthdistribution", ScanLengthDistribution.UNIFORM);
        table = r.string("table", "usertable");
        fieldNamePrefix = r.string("fieldnameprefix", "field");
        threadCount = r.has("threadcount") ? OptionalInt.of(r.intAtLeast("threadcount", 1, 1)) : OptionalInt.empty();
        target = r.has("target") ? OptionalDouble.of(r.atLeastZero("target")) : OptionalDouble.empty();
        maxExecutionTime = r.has("maxexecutiontime")
                ? Optional.of(Duration.ofSeconds(r.longAtLeast("maxexecutiontime", 0, 0))) : Optional.empty();
        db = r.has("db") ? Optional.of(r.string("db", "")) : Optional.empty();
    }

    /**
     * Reads the workload keys of {@code props} (others are ignored), applying YCSB's defaults.
     *
     * @throws BadInputException naming the property and the fix
     */
    public static WorkloadOptions from(Map<String, String> props) {
        WorkloadOptions o = new WorkloadOptions(new Reader(props));
        o.check();
        return o;
    }

    /** Every key {@link #from(Map)} reads: CoreWorkload's, then the YCSB client's. */
    public static Set<String> knownKeys() {
        return KNOWN_KEYS;
    }

    /** The entries of {@code props} that are not workload keys, in their order: the driver's properties. */
    public static Map<String, String> remaining(Map<String, String> props) {
        Map<String, String> rest = new LinkedHashMap<>();
        props.forEach((k, v) -> {
            if (!KNOWN_KEYS.contains(k)) {
                rest.put(k, v);
            }
        });
        return Collections.unmodifiableMap(rest);
    }

    /**
     * True when {@code props} sets any workload key: a YCSB-style key-value workload. Without one,
     * a run issues one operation type (ping, noop) and there is no key space to check.
     */
    public static boolean hasWorkloadKeys(Map<String, String> props) {
        return props.keySet().stream().anyMatch(KNOWN_KEYS::contains);
    }

    /**
     * The workload key closest to {@code key} when it is at most two edits away (a letter added,
     * dropped, changed or two swapped), for "did you mean" hints; empty for a known key or none near.
     */
    public static Optional<String> closestKey(String key) {
        if (KNOWN_KEYS.contains(key)) {
            return Optional.empty();
        }
        return EditDistance.closest(key.toLowerCase(Locale.ROOT), KNOWN_KEYS, EditDistance.TYPO);
    }

    /** {@code "; did you mean the workload property 'readproportion'?"} for a near miss, else empty. */
    public static String didYouMean(String key) {
        return closestKey(key).map(k -> "; did you mean the workload property '" + k + "'?").orElse("");
    }

    private void check() {
        if (!CORE_WORKLOAD_CLASSES.contains(workloadClass)) {
            throw new BadInputException("property workload: loadgen runs YCSB's core workload only, not '"
                    + Limits.quote(workloadClass) + "'; set workload=" + CORE_WORKLOAD_CLASSES.get(0) + " or leave it out");
        }
        if (opProportions.values().stream().allMatch(p -> p == 0.0)) {
            throw new BadInputException("the operation proportions " + String.join(", ", PROPORTION_KEYS)
                    + " are all 0; give at least one a share above 0");
        }
        if (recordCount == 0 && readsExistingRecords()) {
            throw new BadInputException("property recordcount must be above 0 when reads, updates, scans, "
                    + "read-modify-writes or deletes are in the mix; set it to the number of records loaded");
        }
        if (insertStart + insertCount > recordCount && recordCount > 0) {
            throw new BadInputException("insertstart (" + insertStart + ") + insertcount (" + insertCount
                    + ") is above recordcount (" + recordCount + "); YCSB requires insertstart + insertcount <= recordcount");
        }
        if (minScanLength > maxScanLength) {
            throw new BadInputException("property minscanlength (" + minScanLength + ") is above maxscanlength ("
                    + maxScanLength + "); make the minimum at most the maximum");
        }
        Limits.checkRecordShape("fieldcount", fieldCount, "fieldlength", fieldLength);
        if (maxScanLength > MAX_SCAN_LENGTH) {
            throw new BadInputException("property maxscanlength " + maxScanLength + " is above the limit of "
                    + MAX_SCAN_LENGTH + " records per scan (a zipfian scan length precomputes over the whole"
                    + " range); give a smaller one");
        }
        if (minFieldLength > fieldLength) {
            throw new BadInputException("property minfieldlength (" + minFieldLength + ") is above fieldlength ("
                    + fieldLength + "); make the minimum at most the maximum");
        }
        if (zipfianConstant == 1.0) {
            throw new BadInputException("property zipfianconstant must not be 1 (YCSB's zipfian divides by 1 - constant); "
                    + "use e.g. 0.99");
        }
        if (exponentialPercentile >= 100) {
            throw new BadInputException("property exponential.percentile must be below 100 (got "
                    + exponentialPercentile + "); YCSB's default is 95");
        }
    }

    private boolean readsExistingRecords() {
        return opProportions.entrySet().stream().anyMatch(e -> !e.getKey().equals("INSERT") && e.getValue() > 0);
    }

    /** The workload class named in the file, one of {@link #CORE_WORKLOAD_CLASSES}. */
    public String workloadClass() {
        return workloadClass;
    }

    /** Records in the data set before the run ({@code recordcount}); YCSB's default 0 means not set. */
    public long recordCount() {
        return recordCount;
    }

    /** Operations in a run ({@code operationcount}); 0 (YCSB's default) means no limit. */
    public long operationCount() {
        return operationCount;
    }

    /**
     * Each operation's proportion as given, in the order READ, UPDATE, INSERT, SCAN,
     * READ-MODIFY-WRITE, DELETE (all six present, unmodifiable). YCSB treats them as weights: an
     * operation chooser divides by their sum, which is 1 in every file YCSB ships.
     */
    public Map<String, Double> opProportions() {
        return opProportions;
    }

    public RequestDistribution requestDistribution() {
        return requestDistribution;
    }

    /** The zipfian skew ({@code zipfianconstant}, 0.99). YCSB ships the key but fixes 0.99; loadgen honours it. */
    public double zipfianConstant() {
        return zipfianConstant;
    }

    /** Fraction of the records that are hot, for {@code requestdistribution=hotspot} (0.2). */
    public double hotspotDataFraction() {
        return hotspotDataFraction;
    }

    /** Fraction of operations that go to the hot records, for {@code hotspot} (0.8). */
    public double hotspotOpnFraction() {
        return hotspotOpnFraction;
    }

    /** {@code exponential.percentile} (95): the percentile of operations that fall within {@link #exponentialFrac()} of the records. */
    public double exponentialPercentile() {
        return exponentialPercentile;
    }

    /** {@code exponential.frac} (0.8571428571): the fraction of the records that percentile covers. */
    public double exponentialFrac() {
        return exponentialFrac;
    }

    public InsertOrder insertOrder() {
        return insertOrder;
    }

    /** The first key number this client inserts or chooses ({@code insertstart}, 0). */
    public long insertStart() {
        return insertStart;
    }

    /** How many records from {@link #insertStart()} this client owns ({@code insertcount}, recordcount - insertstart). */
    public long insertCount() {
        return insertCount;
    }

    /** Digits a key number is zero-padded to ({@code zeropadding}, 1). */
    public int zeroPadding() {
        return zeroPadding;
    }

    public int fieldCount() {
        return fieldCount;
    }

    /** Bytes per field value, or the largest for a non-constant distribution ({@code fieldlength}, 100). */
    public int fieldLength() {
        return fieldLength;
    }

    /** The smallest field length for {@code uniform} and {@code zipfian} field lengths ({@code minfieldlength}, 1). */
    public int minFieldLength() {
        return minFieldLength;
    }

    public FieldLengthDistribution fieldLengthDistribution() {
        return fieldLengthDistribution;
    }

    public boolean readAllFields() {
        return readAllFields;
    }

    public boolean writeAllFields() {
        return writeAllFields;
    }

    public int minScanLength() {
        return minScanLength;
    }

    public int maxScanLength() {
        return maxScanLength;
    }

    public ScanLengthDistribution scanLengthDistribution() {
        return scanLengthDistribution;
    }

    public String table() {
        return table;
    }

    public String fieldNamePrefix() {
        return fieldNamePrefix;
    }

    /** YCSB's {@code threadcount}, when the file sets it. */
    public OptionalInt threadCount() {
        return threadCount;
    }

    /** YCSB's {@code target} in ops/s (0 = unthrottled), when the file sets it. */
    public OptionalDouble target() {
        return target;
    }

    /** YCSB's {@code maxexecutiontime} (whole seconds; 0 = no limit), when the file sets it. */
    public Optional<Duration> maxExecutionTime() {
        return maxExecutionTime;
    }

    /** YCSB's {@code db} (a YCSB binding class, e.g. site.ycsb.BasicDB), when the file sets it; recorded only. */
    public Optional<String> db() {
        return db;
    }

    /** YCSB's key for {@code keyNumber}: {@code user} + (hashed ? {@link Keys#ycsbHash} : the number), zero-padded. */
    public String keyName(long keyNumber) {
        return Keys.keyName(keyNumber, insertOrder == InsertOrder.HASHED, zeroPadding);
    }

    /** The name of field {@code i}: {@code fieldnameprefix} + i. */
    public String fieldName(int i) {
        return fieldNamePrefix + i;
    }

    private static Set<String> knownKeySet() {
        Set<String> keys = new LinkedHashSet<>(List.of("workload", "recordcount", "operationcount"));
        keys.addAll(PROPORTION_KEYS);
        keys.addAll(List.of("requestdistribution", "zipfianconstant", "hotspotdatafraction", "hotspotopnfraction",
                "exponential.percentile", "exponential.frac", "insertorder", "insertstart", "insertcount",
                "zeropadding", "fieldcount", "fieldlength", "minfieldlength", "fieldlengthdistribution",
                "readallfields", "writeallfields", "minscanlength", "maxscanlength", "scanlengthdistribution",
                "table", "fieldnameprefix"));
        keys.addAll(CLIENT_KEYS);
        return Collections.unmodifiableSet(keys);
    }

    /** Typed reads of one property map, each naming its key when the value does not parse. */
    private static final class Reader {
        private final Map<String, String> props;

        Reader(Map<String, String> props) {
            this.props = props;
        }

        boolean has(String key) {
            return props.containsKey(key);
        }

        String string(String key, String dflt) {
            String v = props.get(key);
            return v == null ? dflt : v.trim();
        }

        Map<String, Double> proportions() {
            double[] defaults = {0.95, 0.05, 0, 0, 0, 0};
            Map<String, Double> m = new LinkedHashMap<>();
            for (int i = 0; i < OPERATIONS.size(); i++) {
                m.put(OPERATIONS.get(i), fraction(PROPORTION_KEYS.get(i), defaults[i]));
            }
            return Collections.unmodifiableMap(m);
        }

        double number(String key, double dflt) {
            String v = string(key, null);
            if (v == null) {
                return dflt;
            }
            try {
                double d = Double.parseDouble(v);
                if (Double.isFinite(d)) {
                    return d;
                }
            } catch (NumberFormatException e) {
                // falls through to the message below
            }
            throw new BadInputException("property " + Limits.quote(key) + ": '" + Limits.quote(v) + "' is not a number");
        }

        double fraction(String key, double dflt) {
            double d = number(key, dflt);
            if (d < 0 || d > 1) {
                throw new BadInputException("property " + Limits.quote(key) + ": " + Limits.quote(string(key, "")) + " is not between 0 and 1");
            }
            return d;
        }

        double positive(String key, double dflt) {
            double d = number(key, dflt);
            if (d <= 0) {
                throw new BadInputException("property " + Limits.quote(key) + " must be above 0 (got " + Limits.quote(string(key, "")) + ")");
            }
            return d;
        }

        double atLeastZero(String key) {
            double d = number(key, 0);
            if (d < 0) {
                throw new BadInputException("property " + Limits.quote(key) + " must not be negative (got " + Limits.quote(string(key, "")) + ")");
            }
            return d;
        }

        long longAtLeast(String key, long dflt, long min) {
            String v = string(key, null);
            long n;
            try {
                n = v == null ? dflt : Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new BadInputException("property " + Limits.quote(key) + ": '" + Limits.quote(v) + "' is not a whole number", e);
            }
            if (n < min) {
                throw new BadInputException("property " + Limits.quote(key) + " must be at least " + min + " (got " + n + ")");
            }
            return n;
        }

        int intAtLeast(String key, int dflt, int min) {
            long n = longAtLeast(key, dflt, min);
            if (n > Integer.MAX_VALUE) {
                throw new BadInputException("property " + Limits.quote(key) + ": " + n + " is too large (at most " + Integer.MAX_VALUE + ")");
            }
            return (int) n;
        }

        boolean bool(String key, boolean dflt) {
            String v = string(key, null);
            if (v == null) {
                return dflt;
            }
            return switch (v.toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new BadInputException("property " + Limits.quote(key) + ": '" + Limits.quote(v) + "' is not true or false");
            };
        }

        <E extends Enum<E>> E choice(String key, E dflt) {
            String v = string(key, null);
            if (v == null) {
                return dflt;
            }
            E[] values = dflt.getDeclaringClass().getEnumConstants();
            for (E e : values) {
                if (e.name().equalsIgnoreCase(v)) {
                    return e;
                }
            }
            String valid = Stream.of(values).map(e -> e.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "));
            throw new BadInputException("property " + Limits.quote(key) + ": '" + Limits.quote(v) + "' is not one of " + valid);
        }
    }
}
