package io.loadgen.core.workload;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoreWorkloadPlanTest {

    private static CoreWorkloadPlan.Config config(Map<String, String> props) {
        return CoreWorkloadPlan.Config.of(WorkloadOptions.from(props));
    }

    @Test
    void runPhaseIssuesTheMixInItsProportions() {
        // workloada: 50% READ, 50% UPDATE; 200,000 draws: the share's standard error is 0.11%, so 1% is ~9 sigma.
        CoreWorkloadPlan plan = CoreWorkloadPlan.run(config(Map.of("recordcount", "1000", "readproportion", "0.5",
                "updateproportion", "0.5", "requestdistribution", "zipfian")));
        assertEquals(List.of("READ", "UPDATE"), plan.operations());
        OperationSequence seq = plan.forThread(0, 1, new SplittableRandom(1));
        int n = 200_000;
        int reads = 0;
        for (int i = 0; i < n; i++) {
            int type = seq.nextType(i);
            long key = seq.nextKey(type, i);
            assertTrue(key >= 0 && key < 1000, "existing keys only: " + key);
            if (type == 0) {
                reads++;
            }
        }
        assertEquals(0.5, (double) reads / n, 0.01);
    }

    @Test
    void insertsExtendTheKeySpaceAndLatestFavoursTheNewestAcknowledged() {
        // workloadd: 95% READ latest, 5% INSERT. Inserts take keys 1000, 1001, ...; once acknowledged, reads
        // are drawn near the newest key.
        CoreWorkloadPlan plan = CoreWorkloadPlan.run(config(Map.of("recordcount", "1000", "readproportion", "0.95",
                "updateproportion", "0", "insertproportion", "0.05", "requestdistribution", "latest")));
        assertEquals(List.of("READ", "INSERT"), plan.operations());
        OperationSequence seq = plan.forThread(0, 1, new SplittableRandom(2));
        long nextInsert = 1000;
        int nearNewest = 0;
        int reads = 0;
        for (int i = 0; i < 20_000; i++) {
            int type = seq.nextType(i);
            long key = seq.nextKey(type, i);
            if (type == 1) {
                assertEquals(nextInsert++, key, "inserts continue after the loaded records");
                seq.completed(type, key);
            } else {
                reads++;
                assertTrue(key < nextInsert, "reads only keys already inserted");
                if (key >= nextInsert - 10) {
                    nearNewest++;
                }
            }
        }
        assertTrue(nearNewest > reads / 4, "latest: a large share of reads hit the 10 newest keys: " + nearNewest);
    }

    @Test
    void loadPhaseInsertsEveryKeyOnceOverAllThreads() {
        OperationPlan load = CoreWorkloadPlan.load(config(Map.of("recordcount", "1000", "insertorder", "ordered")));
        Set<Long> keys = new HashSet<>();
        int threads = 3;
        for (int t = 0; t < threads; t++) {
            OperationSequence seq = load.forThread(t, threads, new SplittableRandom(t));
            long share = 1000 / threads + (t < 1000 % threads ? 1 : 0);
            for (long n = 0; n < share; n++) {
                assertEquals(0, seq.nextType(n));
                assertTrue(keys.add(seq.driverKey(seq.nextKey(0, n))));
            }
        }
        assertEquals(1000, keys.size());
        assertTrue(keys.stream().allMatch(k -> k >= 0 && k < 1000));
    }

    @Test
    void hashedInsertOrderGivesTheDriverYcsbsHashedKeyNumbers() {
        OperationSequence hashed = CoreWorkloadPlan.load(config(Map.of("recordcount", "10")))
                .forThread(0, 1, new SplittableRandom(0));
        OperationSequence ordered = CoreWorkloadPlan.load(config(Map.of("recordcount", "10", "insertorder", "ordered")))
                .forThread(0, 1, new SplittableRandom(0));
        assertEquals(5, ordered.driverKey(5));
        assertEquals(Keys.ycsbHash(5), hashed.driverKey(5));
        assertNotEquals(5, hashed.driverKey(5));
    }

    @Test
    void runPhaseDriverKeysAreYcsbsHashInsideAndPastThePrecomputedTable() {
        // 1000 loaded keys: 0..999 come from the precomputed table, inserted keys (1000 on) are hashed per draw.
        OperationSequence hashed = CoreWorkloadPlan.run(config(Map.of("recordcount", "1000", "readproportion", "0.5",
                "insertproportion", "0.5"))).forThread(0, 1, new SplittableRandom(0));
        for (long key : new long[] {0, 1, 255, 256, 999, 1000, 1001, 65_535, 65_536, 1L << 40}) {
            assertEquals(Keys.ycsbHash(key), hashed.driverKey(key), "key " + key);
        }
        // Past the table's bound (2^16 loaded keys) there is no table; the hash is the same.
        OperationSequence big = CoreWorkloadPlan.run(config(Map.of("recordcount", "100000", "readproportion", "1")))
                .forThread(0, 1, new SplittableRandom(0));
        assertEquals(Keys.ycsbHash(99_999), big.driverKey(99_999));
        OperationSequence ordered = CoreWorkloadPlan.run(config(Map.of("recordcount", "1000", "readproportion", "1",
                "insertorder", "ordered"))).forThread(0, 1, new SplittableRandom(0));
        assertEquals(999, ordered.driverKey(999));
    }

    @Test
    void theWorkloadChoosesScanLengthsAndSingleFieldsAsYcsbDoes() {
        // workloade: SCAN lengths uniform in [1, 100]; YCSB defaults readallfields=true (READ: all fields, -1)
        // and writeallfields=false (UPDATE: one field in [0, fieldcount)).
        CoreWorkloadPlan plan = CoreWorkloadPlan.run(config(Map.of("recordcount", "1000", "readproportion", "0.4",
                "updateproportion", "0.3", "scanproportion", "0.3", "maxscanlength", "100", "fieldcount", "7")));
        assertEquals(new io.loadgen.core.driver.DriverContext.RecordShape(7, 100, 1, "constant", "field", 1),
                plan.recordShape());
        OperationSequence seq = plan.forThread(0, 1, new SplittableRandom(3));
        io.loadgen.core.driver.Operation op = new io.loadgen.core.driver.Operation(0);
        Set<Integer> scanLengths = new HashSet<>();
        Set<Integer> updateFields = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            int type = seq.nextType(i);
            op.prepare(type, plan.operations().get(type), 0, seq.nextKey(type, i));
            seq.detail(type, op);
            switch (plan.operations().get(type)) {
                case "SCAN" -> scanLengths.add(op.scanLength());
                case "UPDATE" -> updateFields.add(op.fieldIndex());
                default -> assertEquals(-1, op.fieldIndex(), "READ reads all fields");
            }
        }
        assertEquals(100, scanLengths.size(), "every length 1..100 drawn");
        assertTrue(scanLengths.stream().allMatch(n -> n >= 1 && n <= 100));
        assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6), updateFields);
    }

    @Test
    void zeroProportionTypesAreNotIssued() {
        Map<String, String> p = new LinkedHashMap<>(Map.of("recordcount", "100", "readproportion", "0",
                "updateproportion", "0", "scanproportion", "1"));
        assertEquals(List.of("SCAN"), CoreWorkloadPlan.run(config(p)).operations());
    }
}
