package io.loadgen.core.workload;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.Reader;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadOptionsTest {
    private static final Path WORKLOADS = Path.of("..", "workloads");

    private static Map<String, String> fileProperties(String name) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(WORKLOADS.resolve(name))) {
            p.load(r);
        }
        Map<String, String> m = new LinkedHashMap<>();
        p.stringPropertyNames().forEach(k -> m.put(k, p.getProperty(k)));
        return m;
    }

    private static Map<String, Double> mix(double read, double update, double insert, double scan, double rmw) {
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("READ", read);
        m.put("UPDATE", update);
        m.put("INSERT", insert);
        m.put("SCAN", scan);
        m.put("READ-MODIFY-WRITE", rmw);
        m.put("DELETE", 0.0);
        return m;
    }

    private static String rejection(Map<String, String> props) {
        return assertThrows(BadInputException.class, () -> WorkloadOptions.from(props)).getMessage();
    }

    @Test
    void defaultsAreYcsbs() {
        WorkloadOptions o = WorkloadOptions.from(Map.of("recordcount", "1000"));
        assertEquals("site.ycsb.workloads.CoreWorkload", o.workloadClass());
        assertEquals(0, o.operationCount());
        assertEquals(mix(0.95, 0.05, 0, 0, 0), o.opProportions());
        assertEquals(List.copyOf(o.opProportions().keySet()), WorkloadOptions.OPERATIONS);
        assertEquals(WorkloadOptions.RequestDistribution.UNIFORM, o.requestDistribution());
        assertEquals(0.99, o.zipfianConstant());
        assertEquals(0.2, o.hotspotDataFraction());
        assertEquals(0.8, o.hotspotOpnFraction());
        assertEquals(95.0, o.exponentialPercentile());
        assertEquals(0.8571428571, o.exponentialFrac());
        assertEquals(WorkloadOptions.InsertOrder.HASHED, o.insertOrder());
        assertEquals(0, o.insertStart());
        assertEquals(1000, o.insertCount());
        assertEquals(1, o.zeroPadding());
        assertEquals(10, o.fieldCount());
        assertEquals(100, o.fieldLength());
        assertEquals(1, o.minFieldLength());
        assertEquals(WorkloadOptions.FieldLengthDistribution.CONSTANT, o.fieldLengthDistribution());
        assertTrue(o.readAllFields());
        assertFalse(o.writeAllFields());
        assertEquals(1, o.minScanLength());
        assertEquals(1000, o.maxScanLength());
        assertEquals(WorkloadOptions.ScanLengthDistribution.UNIFORM, o.scanLengthDistribution());
        assertEquals("usertable", o.table());
        assertEquals("field3", o.fieldName(3));
        assertTrue(o.threadCount().isEmpty() && o.target().isEmpty() && o.maxExecutionTime().isEmpty() && o.db().isEmpty());
    }

    @Test
    void insertCountDefaultsToRecordsAfterInsertStart() {
        assertEquals(600, WorkloadOptions.from(Map.of("recordcount", "1000", "insertstart", "400")).insertCount());
    }

    @Test
    void workloadAIsHalfReadsHalfUpdatesZipfian() throws IOException {
        WorkloadOptions o = WorkloadOptions.from(fileProperties("workloada"));
        assertEquals(mix(0.5, 0.5, 0, 0, 0), o.opProportions());
        assertEquals(WorkloadOptions.RequestDistribution.ZIPFIAN, o.requestDistribution());
        assertEquals(1000, o.recordCount());
        assertEquals(1000, o.operationCount());
    }

    @Test
    void workloadBIsReadMostlyZipfian() throws IOException {
        WorkloadOptions o = WorkloadOptions.from(fileProperties("workloadb"));
        assertEquals(mix(0.95, 0.05, 0, 0, 0), o.opProportions());
        assertEquals(WorkloadOptions.RequestDistribution.ZIPFIAN, o.requestDistribution());
    }

    @Test
    void workloadCIsReadOnlyZipfian() throws IOException {
        WorkloadOptions o = WorkloadOptions.from(fileProperties("workloadc"));
        assertEquals(mix(1, 0, 0, 0, 0), o.opProportions());
        assertEquals(WorkloadOptions.RequestDistribution.ZIPFIAN, o.requestDistribution());
    }

    @Test
    void workloadDReadsTheLatestInserts() throws IOException {
        WorkloadOptions o = WorkloadOptions.from(fileProperties("workloadd"));
        assertEquals(mix(0.95, 0, 0.05, 0, 0), o.opProportions());
        assertEquals(WorkloadOptions.RequestDistribution.LATEST, o.requestDistribution());
    }

    @Test
    void workloadEScansShortRanges() throws IOException {
        WorkloadOptions o = WorkloadOptions.from(fileProperties("workloade"));
        assertEquals(mix(0, 0, 0.05, 0.95, 0), o.opProportions());
        assertEquals(WorkloadOptions.RequestDistribution.ZIPFIAN, o.requestDistribution());
        assertEquals(100, o.maxScanLength());
        assertEquals(WorkloadOptions.ScanLengthDistribution.UNIFORM, o.scanLengthDistribution());
    }

    @Test
    void workloadFIsHalfReadsHalfReadModifyWrites() throws IOException {
        WorkloadOptions o = WorkloadOptions.from(fileProperties("workloadf"));
        assertEquals(mix(0.5, 0, 0, 0, 0.5), o.opProportions());
        assertEquals(WorkloadOptions.RequestDistribution.ZIPFIAN, o.requestDistribution());
    }

    @ParameterizedTest
    @ValueSource(strings = {"workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"})
    void ycsbFilesHoldOnlyWorkloadKeys(String name) throws IOException {
        assertEquals(Map.of(), WorkloadOptions.remaining(fileProperties(name)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"backlogged-store", "stw-store", "perfect-store"})
    void scenarioFilesHoldOnlyDriverKeys(String name) throws IOException {
        Map<String, String> props = fileProperties(name);
        assertEquals(props, WorkloadOptions.remaining(props));
    }

    @Test
    void bothYcsbPackageNamesMeanTheCoreWorkload() {
        for (String cls : WorkloadOptions.CORE_WORKLOAD_CLASSES) {
            assertEquals(cls, WorkloadOptions.from(Map.of("recordcount", "1", "workload", cls)).workloadClass());
        }
    }

    @Test
    void otherWorkloadClassesAreRejected() {
        String m = rejection(Map.of("recordcount", "1", "workload", "site.ycsb.workloads.TimeSeriesWorkload"));
        assertEquals("property workload: loadgen runs YCSB's core workload only, not "
                + "'site.ycsb.workloads.TimeSeriesWorkload'; set workload=site.ycsb.workloads.CoreWorkload or leave it out", m);
    }

    @Test
    void proportionAboveOneIsRejectedNamingTheKey() {
        assertEquals("property updateproportion: 1.5 is not between 0 and 1",
                rejection(Map.of("recordcount", "1", "updateproportion", "1.5")));
    }

    @Test
    void unparsableNumberNamesTheKey() {
        assertEquals("property readproportion: 'half' is not a number",
                rejection(Map.of("recordcount", "1", "readproportion", "half")));
        assertEquals("property recordcount: '1e3' is not a whole number", rejection(Map.of("recordcount", "1e3")));
    }

    @Test
    void allZeroProportionsAreRejected() {
        String m = rejection(Map.of("recordcount", "1", "readproportion", "0", "updateproportion", "0"));
        assertTrue(m.startsWith("the operation proportions readproportion, updateproportion,"), m);
    }

    @Test
    void readsNeedARecordCount() {
        assertTrue(rejection(Map.of()).startsWith("property recordcount must be above 0"));
        WorkloadOptions insertsOnly = WorkloadOptions.from(Map.of("readproportion", "0", "updateproportion", "0",
                "insertproportion", "1"));
        assertEquals(0, insertsOnly.recordCount());
    }

    @Test
    void negativeCountsAreRejected() {
        assertEquals("property operationcount must be at least 0 (got -1)",
                rejection(Map.of("recordcount", "1", "operationcount", "-1")));
    }

    @Test
    void enumErrorsListTheValidValues() {
        assertEquals("property requestdistribution: 'zipf' is not one of uniform, zipfian, latest, hotspot, "
                + "sequential, exponential", rejection(Map.of("recordcount", "1", "requestdistribution", "zipf")));
        assertEquals("property insertorder: 'random' is not one of hashed, ordered",
                rejection(Map.of("recordcount", "1", "insertorder", "random")));
    }

    @Test
    void insertRangeMustFitTheRecords() {
        assertTrue(rejection(Map.of("recordcount", "100", "insertstart", "50", "insertcount", "60"))
                .startsWith("insertstart (50) + insertcount (60) is above recordcount (100)"));
    }

    @Test
    void clientPropertiesAreRecorded() {
        WorkloadOptions o = WorkloadOptions.from(Map.of("recordcount", "1", "threadcount", "25", "target", "10000",
                "maxexecutiontime", "30", "db", "site.ycsb.BasicDB"));
        assertEquals(25, o.threadCount().getAsInt());
        assertEquals(10000.0, o.target().getAsDouble());
        assertEquals(java.time.Duration.ofSeconds(30), o.maxExecutionTime().orElseThrow());
        assertEquals("site.ycsb.BasicDB", o.db().orElseThrow());
    }

    @Test
    void remainingKeepsOnlyDriverKeys() {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("recordcount", "10");
        props.put("mockdb.delay", "4ms");
        props.put("readproprtion", "0.5");
        props.put("threadcount", "2");
        assertEquals(List.of("mockdb.delay", "readproprtion"), List.copyOf(WorkloadOptions.remaining(props).keySet()));
    }

    @Test
    void typoOfAWorkloadKeyGetsASuggestion() {
        assertEquals("readproportion", WorkloadOptions.closestKey("readproprtion").orElseThrow());
        assertEquals("recordcount", WorkloadOptions.closestKey("recordcuont").orElseThrow());
        assertEquals("; did you mean the workload property 'requestdistribution'?",
                WorkloadOptions.didYouMean("requestdistributon"));
        assertTrue(WorkloadOptions.closestKey("mockdb.dealy").isEmpty());
        assertTrue(WorkloadOptions.closestKey("readproportion").isEmpty());
        assertEquals("", WorkloadOptions.didYouMean("redis.url"));
    }

    @Test
    void driverRejectionOfAWorkloadTypoSuggestsTheKey() {
        String m = assertThrows(BadInputException.class, () -> io.loadgen.core.driver.DriverProperties.of("mockdb",
                List.of(new io.loadgen.core.driver.PropertySpec("mockdb.delay", "0ms", "delay")),
                WorkloadOptions.remaining(Map.of("recordcount", "10", "readproprtion", "0.5")),
                WorkloadOptions::didYouMean)).getMessage();
        assertEquals("driver mockdb has no property 'readproprtion'; it knows mockdb.delay; "
                + "did you mean the workload property 'readproportion'?", m);
    }

    @Test
    void orderedKeysAreTheKeyNumber() {
        WorkloadOptions o = WorkloadOptions.from(Map.of("recordcount", "10", "insertorder", "ordered"));
        assertEquals("user0", o.keyName(0));
        assertEquals("user1", o.keyName(1));
        assertEquals("user42", o.keyName(42));
        WorkloadOptions padded = WorkloadOptions.from(Map.of("recordcount", "10", "insertorder", "ordered",
                "zeropadding", "8"));
        assertEquals("user00000005", padded.keyName(5));
    }

    @Test
    void hashedKeysAreYcsbsFnv64() {
        WorkloadOptions o = WorkloadOptions.from(Map.of("recordcount", "10"));
        // YCSB Utils.fnvhash64: FNV-1a 64 over the 8 bytes of the value, low byte first, then abs.
        for (long k : new long[] {0, 1, 42, 999_999, Long.MAX_VALUE}) {
            assertEquals("user" + fnv1a64ByTheBook(k), o.keyName(k));
        }
        assertEquals("user6284781860667377211", o.keyName(0));
        assertEquals("user8517097267634966620", o.keyName(1));
        assertEquals(o.keyName(7), o.keyName(7));
    }

    /** FNV-1a written from its definition with unsigned 64-bit arithmetic, independent of {@link Keys}. */
    private static long fnv1a64ByTheBook(long value) {
        BigInteger mod = BigInteger.ONE.shiftLeft(64);
        BigInteger prime = new BigInteger("1099511628211");
        BigInteger hash = new BigInteger("cbf29ce484222325", 16);
        for (int i = 0; i < 8; i++) {
            long octet = (value >>> (8 * i)) & 0xff;
            hash = hash.xor(BigInteger.valueOf(octet)).multiply(prime).mod(mod);
        }
        return Math.abs(hash.longValue());
    }

    @Test
    void aRecordTooBigForTheHeapOrAnAbsurdScanIsRefusedNamingTheLimit() {
        String big = assertThrows(BadInputException.class, () -> WorkloadOptions.from(Map.of("recordcount", "10",
                "fieldlength", "2000000000"))).getMessage();
        assertTrue(big.startsWith("a record of fieldcount=10 x fieldlength=2000000000 bytes"), big);
        assertTrue(big.contains("a sixteenth of this JVM's maximum heap") && big.contains("-Xmx"), big);
        String many = assertThrows(BadInputException.class, () -> WorkloadOptions.from(Map.of("recordcount", "10",
                "fieldcount", "2000000000", "fieldlength", "1"))).getMessage();
        assertTrue(many.startsWith("a record of fieldcount=2000000000"), many);
        String scan = assertThrows(BadInputException.class, () -> WorkloadOptions.from(Map.of("recordcount", "10",
                "maxscanlength", "2000000000"))).getMessage();
        assertTrue(scan.contains("above the limit of 10000000 records per scan"), scan);
    }
}
