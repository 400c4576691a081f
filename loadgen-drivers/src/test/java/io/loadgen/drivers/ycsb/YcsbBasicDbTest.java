package io.loadgen.drivers.ycsb;

import io.loadgen.core.driver.Status;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import io.loadgen.core.workload.CoreWorkloadPlan;
import io.loadgen.core.workload.WorkloadOptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * YCSB's own {@code site.ycsb.BasicDB}, from core's jar in the tests' YCSB folder, run by the ycsb driver through a
 * workload of all six operations. With {@code basicdb.verbose=true} BasicDB prints every call it gets, so the test
 * counts what reached it: each of loadgen's operations is exactly the calls YCSB's CoreWorkload makes for it (a
 * READ-MODIFY-WRITE is a read and an update), with the workload's table, {@code user<n>} keys and the record's
 * fields; and {@code basicdb.verbose=false}, a property loadgen does not know, reaches it and silences it.
 */
class YcsbBasicDbTest {
    private static final int OPERATIONS = 600;
    private static final Pattern CALL = Pattern.compile("^(READ|UPDATE|INSERT|SCAN|DELETE) loadgentable (user\\d+)(?: (.*))?$");

    /** Four 8-byte fields, a custom table, and every operation in the mix. */
    private static Map<String, String> workload() {
        Map<String, String> w = new LinkedHashMap<>();
        w.put("recordcount", "200");
        w.put("table", "loadgentable");
        w.put("fieldcount", "4");
        w.put("fieldlength", "8");
        w.put("maxscanlength", "5");
        w.put("readproportion", "0.3");
        w.put("updateproportion", "0.2");
        w.put("insertproportion", "0.1");
        w.put("scanproportion", "0.1");
        w.put("readmodifywriteproportion", "0.2");
        w.put("deleteproportion", "0.1");
        return w;
    }

    /** Runs BasicDB under the workload with {@code verbose}; returns the result and what BasicDB printed. */
    private static Map.Entry<RunResult, String> run(boolean verbose) throws Exception {
        Map<String, String> driver = Map.of("ycsb.classpath", YcsbFolder.classpath(YcsbFolder.lib()),
                "ycsb.db", "site.ycsb.BasicDB", "basicdb.verbose", Boolean.toString(verbose));
        Map<String, String> all = new HashMap<>(workload());
        all.putAll(driver);
        RunOptions options = RunOptions.builder("ycsb").properties(driver).effectiveProperties(all).threads(2)
                .operations((long) OPERATIONS).seed(7).coldStart(true).build();
        CoreWorkloadPlan plan = CoreWorkloadPlan.run(CoreWorkloadPlan.Config.of(WorkloadOptions.from(all)));
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            RunResult result = new LoadRun(options, new YcsbDriverProvider(), plan, null).run();
            return Map.entry(result, printed.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
        }
    }

    private static long count(RunResult r, String op) {
        return r.operations().stream().filter(o -> o.name().equals(op)).mapToLong(OpResult::count).sum();
    }

    @Test
    void ycsbsCoreIsNotOnTheTestClassPathSoTheDriversOwnLoaderIsWhatFindsIt() {
        assertThrows(ClassNotFoundException.class, () -> Class.forName("site.ycsb.DB"));
    }

    @Test
    void everyOperationReachesBasicDbAsYcsbsCoreWorkloadCallsIt() throws Exception {
        Map.Entry<RunResult, String> run = run(true);
        RunResult r = run.getKey();
        assertEquals(OPERATIONS, r.totalOperations());
        for (OpResult op : r.operations()) {
            assertEquals(op.count(), op.statusCount(Status.OK), op.name() + ": BasicDB answers OK");
        }
        assertEquals(List.of("READ", "UPDATE", "INSERT", "SCAN", "READ-MODIFY-WRITE", "DELETE"),
                r.operations().stream().map(OpResult::name).toList());

        Map<String, Long> calls = new HashMap<>();
        for (String line : run.getValue().split("\n")) {
            Matcher m = CALL.matcher(line);
            if (!m.matches()) {
                continue;
            }
            calls.merge(m.group(1), 1L, Long::sum);
            String args = m.group(3);
            switch (m.group(1)) {
                // readallfields=true: all fields; writeallfields=false: an update writes one field, an insert all
                case "READ" -> assertEquals("[ <all fields>]", args);
                case "UPDATE" -> assertTrue(args.matches("\\[ field[0-3]=.{8} ]"), line);
                case "INSERT" -> assertTrue(args.matches("\\[ (field[0-3]=.{8} ){4}]"), line);
                case "SCAN" -> assertTrue(args.matches("[1-5] \\[ <all fields>]"), line);
                default -> assertEquals(null, args, line); // DELETE: the table and the key only
            }
        }
        long rmw = count(r, "READ-MODIFY-WRITE");
        assertEquals(count(r, "READ") + rmw, (long) calls.getOrDefault("READ", 0L), "a read per READ and per READ-MODIFY-WRITE");
        assertEquals(count(r, "UPDATE") + rmw, (long) calls.getOrDefault("UPDATE", 0L), "an update per UPDATE and per READ-MODIFY-WRITE");
        assertEquals(count(r, "INSERT"), (long) calls.getOrDefault("INSERT", 0L));
        assertEquals(count(r, "SCAN"), (long) calls.getOrDefault("SCAN", 0L));
        assertEquals(count(r, "DELETE"), (long) calls.getOrDefault("DELETE", 0L));
        // Each DB got every property, the workload's too, and the thread count, as YCSB's client gives them.
        String printed = run.getValue();
        assertEquals(2, printed.split("\\*+ properties \\*+", -1).length - 1, "one DB, one init(), per thread");
        for (String property : List.of("\"basicdb.verbose\"=\"true\"", "\"table\"=\"loadgentable\"",
                "\"recordcount\"=\"200\"", "\"threadcount\"=\"2\"")) {
            assertTrue(printed.contains(property), property + " in " + printed.lines().limit(20).toList());
        }
        assertEquals(2L, r.driverStats().get("db_instances"));
    }

    /**
     * YCSB's statuses map to loadgen's by name: a binding that answers each of YCSB's constants, a Status it made
     * itself with a YCSB name and one with another name, and null, by key number (StatusPerKeyDB, compiled with the
     * tests' bindings). Keys run 0..23 on one thread, so each of the 12 answers comes twice.
     */
    @Test
    void ycsbsStatusesMapByNameBatchedOkIsOkAndOtherNamesAreErrors() throws Exception {
        RunOptions options = RunOptions.builder("ycsb").property("ycsb.classpath",
                        YcsbFolder.classpath(YcsbFolder.lib(), YcsbFolder.redisBinding()))
                .property("ycsb.db", "site.ycsb.db.loadgen.StatusPerKeyDB").operation("UPDATE").operations(24L)
                .threads(1).coldStart(true).build();
        RunResult r = new LoadRun(options, new YcsbDriverProvider(), null).run();
        OpResult updates = r.operations().get(0);
        assertEquals(24, updates.count());
        assertEquals(4, updates.statusCount(Status.OK), "OK and BATCHED_OK");
        assertEquals(6, updates.statusCount(Status.ERROR), "ERROR, a name YCSB lacks, and null");
        assertEquals(4, updates.statusCount(Status.NOT_FOUND), "core's NOT_FOUND and the binding's own");
        for (Status s : List.of(Status.NOT_IMPLEMENTED, Status.UNEXPECTED_STATE, Status.BAD_REQUEST, Status.FORBIDDEN,
                Status.SERVICE_UNAVAILABLE)) {
            assertEquals(2, updates.statusCount(s), s.name());
        }
        assertEquals(2L, r.driverStats().get("batched_ok"));
        assertEquals(4L, r.driverStats().get("other_statuses"));
    }

    @Test
    void basicdbVerboseFalseIsAPropertyLoadgenDoesNotKnowAndReachesBasicDb() throws Exception {
        Map.Entry<RunResult, String> run = run(false);
        assertEquals(OPERATIONS, run.getKey().totalOperations());
        assertEquals(OPERATIONS, run.getKey().operations().stream().mapToLong(o -> o.statusCount(Status.OK)).sum());
        assertFalse(run.getValue().contains("properties"), "BasicDB's init() printed: " + run.getValue());
        assertFalse(run.getValue().lines().anyMatch(l -> CALL.matcher(l).matches()), "BasicDB printed calls");
    }
}
