package io.loadgen.core.gate;

import io.loadgen.core.summary.TextTable;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Prints verdicts as an aligned table for a person and a CI log, then one line with the outcome.
 * Stateless; any thread.
 *
 * <pre>
 * rule                                         observed                                    limit      result
 * READ.intended.p99 &lt; 5ms                      4.12 ms                                     &lt; 5 ms     PASS
 * READ.intended.p99 &lt; 5ms over 10s windows     41.2 ms @ 120-130 s, 1 of 360 windows failed &lt; 5 ms     FAIL
 *
 * FAILED: 1 of 2 gates failed
 * </pre>
 */
public final class GateTable {
    static final String[] HEADER = {"rule", "observed", "limit", "result"};

    private GateTable() {
    }

    public static void write(List<Verdict> verdicts, PrintStream out) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (Verdict v : verdicts) {
            rows.add(new String[]{v.rule(), v.observed(), v.limit(), v.passed() ? "PASS" : "FAIL"});
        }
        TextTable.print(rows, false, out);
        out.println();
        out.println(outcome(verdicts));
        out.flush();
    }

    /** {@code PASSED: all 4 gates passed} or {@code FAILED: 1 of 4 gates failed}. */
    public static String outcome(List<Verdict> verdicts) {
        long failed = verdicts.stream().filter(v -> !v.passed()).count();
        return failed == 0 ? (verdicts.size() == 1 ? "PASSED: the 1 gate passed" : "PASSED: all " + verdicts.size() + " gates passed")
                : "FAILED: " + failed + " of " + verdicts.size() + " gate" + (verdicts.size() == 1 ? "" : "s") + " failed";
    }
}
