package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static io.loadgen.core.gate.TestLogs.MS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A run judged against a baseline run: one rule per operation type, view and statistic, limit from the baseline. */
class RegressionTest {
    @TempDir
    Path dir;

    private Path json(String name, String summary) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, summary);
        return file;
    }

    @Test
    void parsesAllowancesWithTheirSignsAndDefaults() {
        Regression r = Regression.parse("p99:+10%, p99.9:20%,max:-5%,throughput:-5%,p(99.99):+1.5%");
        assertEquals(List.of(
                new Regression.Item(Stat.percentile(99), 0.10, "+10%"),
                new Regression.Item(Stat.percentile(99.9), 0.20, "+20%"),
                new Regression.Item(Stat.MAX, -0.05, "-5%"),
                new Regression.Item(null, -0.05, "-5%"),
                new Regression.Item(Stat.percentile(99.99), 0.015, "+1.5%")), r.items());
        assertEquals(-0.05, Regression.parse("throughput:5%").items().get(0).change(), "an unsigned drop");
    }

    @Test
    void badAllowancesAreBadInput() {
        String how = "write STAT:+N%, e.g. 'p99:+10%,p99.9:+20%' (STAT is p50, p99.9, max, mean or another latency"
                + " statistic; or throughput:-N%)";
        assertEquals("--max-regression 'p99:10ms': 'p99:10ms' is not an allowance; " + how,
                assertThrows(BadInputException.class, () -> Regression.parse("p99:10ms")).getMessage());
        assertEquals("--max-regression 'p99x:+10%': unknown statistic 'p99x'; " + how,
                assertThrows(BadInputException.class, () -> Regression.parse("p99x:+10%")).getMessage());
        assertEquals("--max-regression 'count:+10%': count is not a latency; " + how,
                assertThrows(BadInputException.class, () -> Regression.parse("count:+10%")).getMessage());
    }

    @Test
    void eachOperationTypeAndViewInBothMayGrowByItsAllowance() throws IOException {
        Path baseline = json("old.json", JsonGateTest.SUMMARY);
        // The new run: READ intended p99 4.2 -> 4.8 ms (+14%), p99.9 9 -> 10 ms (+11%); UPDATE unchanged;
        // throughput, the successes per second, 99,135 in 10 s -> in 11 s: 9913.5 -> 9012/s (-9%).
        String current = JsonGateTest.SUMMARY
                .replace("\"p99_us\": 4200.0, \"p99_9_us\": 9000.0", "\"p99_us\": 4800.0, \"p99_9_us\": 10000.0")
                .replace("\"duration_s\": 10.0", "\"duration_s\": 11.0");
        Path now = json("new.json", current);
        List<Verdict> v = Gate.evaluate(List.of(now), TimeRange.ALL, List.of(), baseline,
                Regression.parse("p99:+10%,p99.9:+20%,throughput:-5%"), w -> { });
        // JSON summaries have no intervals, so no confidence interval: the plain comparison, saying so.
        String plain = " (no intervals: " + baseline + " is a JSON summary: plain comparison)";
        assertEquals(new Verdict("READ.intended.p99 <= baseline +10%", "4.8 ms" + plain,
                "<= 4.62 ms (baseline 4.2 ms +10%)", false), v.get(0));
        assertEquals(new Verdict("READ.intended.p99.9 <= baseline +20%", "10 ms" + plain,
                "<= 10.8 ms (baseline 9 ms +20%)", true), v.get(1));
        assertEquals(new Verdict("READ.service.p99 <= baseline +10%", "2 ms" + plain, "<= 2.2 ms (baseline 2 ms +10%)",
                true), v.get(2));
        // 2 types x 3 views x 2 statistics, then throughput.
        assertEquals(13, v.size());
        assertEquals("UPDATE.corrected.p99.9 <= baseline +20%", v.get(11).rule());
        assertEquals(new Verdict("throughput >= baseline -5%", "9012/s (succeeded; 45 failed not counted)" + plain,
                ">= 9418/s (baseline 9914/s -5%)", false), v.get(12));
    }

    @Test
    void aLogComparesWithAJsonBaselineOnTheViewsBothHold() throws IOException {
        Path baseline = json("old.json", JsonGateTest.SUMMARY);
        Path log = new TestLogs()
                .seconds(0, 10, "READ.intended", 100, 4 * MS)
                .seconds(0, 10, "READ.service", 100, 3 * MS)
                .write(dir.resolve("new.hlog"));
        List<Verdict> v = Gate.evaluate(List.of(log), TimeRange.ALL, List.of(), baseline, Regression.parse("p99:+10%"),
                w -> { });
        String plain = " (no intervals: " + baseline + " is a JSON summary: plain comparison)";
        assertEquals(List.of(
                new Verdict("READ.intended.p99 <= baseline +10%", "4 ms" + plain, "<= 4.62 ms (baseline 4.2 ms +10%)",
                        true),
                new Verdict("READ.service.p99 <= baseline +10%", "3 ms" + plain, "<= 2.2 ms (baseline 2 ms +10%)",
                        false)), v);
    }

    @Test
    void aBaselineStatisticTheJsonDoesNotHoldIsBadInput() throws IOException {
        Path baseline = json("old.json", JsonGateTest.SUMMARY);
        BadInputException e = assertThrows(BadInputException.class, () -> Gate.evaluate(List.of(baseline),
                TimeRange.ALL, List.of(), baseline, Regression.parse("p97:+10%"), w -> { }));
        assertEquals("--baseline: " + baseline + " holds p50, p90, p95, p99, p99.9, p99.99, min, max, mean and count;"
                + " for p97 gate on the run's interval log (loadgen run --hlog), which holds every percentile",
                e.getMessage());
    }

    @Test
    void runsWithNoOperationTypeInCommonAreBadInput() throws IOException {
        Path baseline = json("old.json", JsonGateTest.SUMMARY);
        Path log = new TestLogs().seconds(0, 10, "PING.intended", 100, MS).write(dir.resolve("ping.hlog"));
        BadInputException e = assertThrows(BadInputException.class, () -> Gate.evaluate(List.of(log), TimeRange.ALL,
                List.of(), baseline, Regression.parse("p99:+10%"), w -> { }));
        assertEquals("the baseline " + baseline + " and " + log + " have no operation type in common (baseline: READ,"
                + " UPDATE; current: PING); compare runs of the same workload", e.getMessage());
    }
}
