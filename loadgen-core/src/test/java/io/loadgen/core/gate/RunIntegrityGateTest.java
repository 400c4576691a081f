package io.loadgen.core.gate;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.DamagedInputException;
import io.loadgen.core.log.LogIntegrity;
import io.loadgen.core.log.LogInterval;
import io.loadgen.core.log.LogSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 24, items 4 and 5, below the command line: logs of different runs do not merge, one log under two
 * names counts as given twice, a cut log says how much of the run it holds (and a gate's count and throughput
 * rules fail on it), the warm-up is told apart, and a JSON's {@code integrity} block is judged as the log is.
 */
class RunIntegrityGateTest {
    private static final String RUN_A = "11111111-1111-4111-8111-111111111111";
    private static final String RUN_B = "22222222-2222-4222-8222-222222222222";
    private static final String RUN_LINE = "run: driver=mockdb target=100ops/s threads=1 duration=20s operations=-"
            + " warmup=2s interval=1s seed=1";

    @TempDir
    Path dir;

    /** A loadgen log of run {@code id}: 100 READ.intended of 1 ms each second from 0 to {@code seconds}. */
    private Path log(String name, String id, int seconds, boolean ended) throws IOException {
        return log(name, id, seconds, ended, 100);
    }

    private Path log(String name, String id, int seconds, boolean ended, long perSecond) throws IOException {
        TestLogs logs = new TestLogs().header(RUN_LINE, "run_id: " + id)
                .seconds(0, seconds, "READ.intended", perSecond, TestLogs.MS);
        if (ended) {
            logs.ended("duration");
        }
        return logs.write(dir.resolve(name));
    }

    private static LogIntegrity readAll(LogSet set) throws IOException {
        while (set.next() != null) {
            // every line
        }
        return set.integrity();
    }

    @Test
    void logsOfDifferentRunsAreRefusedUnlessMixingIsAllowed() throws IOException {
        Path a = log("a.hlog", RUN_A, 20, true);
        Path b = log("b.hlog", RUN_B, 20, true, 90);
        DamagedInputException e = assertThrows(DamagedInputException.class, () -> LogSet.open(List.of(a, b), w -> { }));
        assertEquals(b + " is of run " + RUN_B + " but " + a + " of run " + RUN_A + ": logs of different runs do not"
                + " merge into one run's numbers; give one run's logs, or --allow-mixed to merge them anyway",
                e.getMessage());
        try (LogSet set = LogSet.open(List.of(a, b), w -> { }, true)) {
            assertFalse(readAll(set).damaged());
        }
        Path unnamed = new TestLogs().seconds(0, 3, "READ.intended", 1, TestLogs.MS).write(dir.resolve("old.hlog"));
        try (LogSet set = LogSet.open(List.of(a, unnamed), w -> { })) {
            assertFalse(readAll(set).damaged(), "a log without a run id (older) merges with any");
        }
    }

    @Test
    void oneLogUnderTwoNamesIsGivenTwiceWhateverItsCompression() throws IOException {
        Path plain = log("run.hlog", RUN_A, 20, true);
        Path gz = dir.resolve("copy.hlog.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(Files.readAllBytes(plain));
        }
        assertEquals(gz + " holds the same intervals as " + plain + " (one log under two names); its intervals would"
                + " count twice: give each log once", LogSet.repeatedAmong(List.of(plain, gz)));
        try (LogSet set = LogSet.open(List.of(plain, gz), w -> { })) {
            assertEquals(1, readAll(set).repeatedFiles());
        }
        List<String> warnings = new ArrayList<>();
        List<Verdict> verdicts = Gate.evaluate(List.of(plain, gz), TimeRange.ALL,
                List.of(RuleParser.parse("throughput > 1/s")), null, null, warnings::add);
        assertTrue(Gate.inputDamaged(verdicts), "doubled throughput is not judged");
        assertEquals("1 file given twice", verdicts.get(0).observed());
        assertEquals(List.of(LogSet.repeatedAmong(List.of(plain, gz))), warnings);
        assertEquals("", LogSet.repeatedAmong(List.of(plain, log("other.hlog", RUN_A, 19, true))),
                "different intervals are different logs");
    }

    @Test
    void aLogWithoutItsClosingLineHoldsPartOfTheRun() throws IOException {
        try (LogSet set = LogSet.open(List.of(log("cut.hlog", RUN_A, 3, false)), w -> { })) {
            LogIntegrity i = readAll(set);
            assertTrue(i.cut());
            assertFalse(i.damaged(), "partial is not damaged: what is there is right");
            assertEquals("the log holds 3.0 s of a 20 s run (15 %)", i.describePartial());
        }
        try (LogSet set = LogSet.open(List.of(log("short.hlog", RUN_A, 3, true)), w -> { })) {
            assertFalse(readAll(set).cut(), "a run that ended early (interrupted) wrote its closing line: whole");
        }
    }

    @Test
    void countAndThroughputRulesFailOnAPartialLogUnlessAllowed() throws IOException {
        Path cut = log("cut.hlog", RUN_A, 3, false);
        List<Rule> rules = List.of(RuleParser.parse("throughput > 50/s"), RuleParser.parse("READ.intended.count > 10"),
                RuleParser.parse("READ.intended.p99 < 5ms"), RuleParser.parse("throughput > 50/s over 1s windows"));
        List<Verdict> strict = Gate.evaluate(List.of(cut), TimeRange.ALL, rules, null, null, w -> { });
        assertFalse(Gate.inputDamaged(strict));
        assertEquals(List.of(false, false, true, true), strict.stream().map(Verdict::passed).toList(),
                strict.toString());
        assertEquals("100/s but partial: the log holds 3.0 s of a 20 s run (15 %)", strict.get(0).observed());
        assertEquals("> 50/s of the whole run (--allow-partial: of what it holds)", strict.get(0).limit());
        List<Verdict> allowed = Gate.evaluate(List.of(cut), TimeRange.ALL, rules, null, null, w -> { },
                new InputPolicy(false, true, false));
        assertTrue(Gate.allPassed(allowed), allowed.toString());
        List<Verdict> whole = Gate.evaluate(List.of(log("whole.hlog", RUN_A, 20, true)), TimeRange.ALL, rules, null,
                null, w -> { });
        assertTrue(Gate.allPassed(whole), whole.toString());
    }

    @Test
    void theWarmUpIsToldApartAndLeftOutOfTheGate() throws IOException {
        Path log = log("run.hlog", RUN_A, 20, true);
        List<Boolean> warmup = new ArrayList<>();
        try (LogSet set = LogSet.open(List.of(log), w -> { })) {
            for (LogInterval line = set.next(); line != null; line = set.next()) {
                warmup.add(line.warmup());
            }
            assertEquals(2000, set.warmupMs());
        }
        assertEquals(List.of(true, true, false), warmup.subList(0, 3));
        assertEquals(2, warmup.stream().filter(w -> w).count());
        List<Rule> count = List.of(RuleParser.parse("READ.intended.count >= 1800"),
                RuleParser.parse("READ.intended.count < 1801"));
        assertTrue(Gate.allPassed(Gate.evaluate(List.of(log), TimeRange.ALL, count, null, null, w -> { })),
                "18 measured seconds of 100: the warm-up's 200 are not counted");
        List<Verdict> all = Gate.evaluate(List.of(log), TimeRange.ALL, count, null, null, w -> { },
                new InputPolicy(false, false, true));
        assertEquals("2000", all.get(1).observed(), "--include-warmup counts every line");
    }

    @Test
    void aJsonIntegrityBlockIsJudgedAsTheLogWouldBe() throws IOException {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("schema_version", 1);
        root.put("duration_s", 3.0);
        ObjectNode read = root.putObject("operations").putObject("READ");
        read.put("count", 300).put("errors", 0).put("throughput", 100.0);
        read.putObject("intended").put("count", 300).put("p99_us", 1000.0).put("max_us", 1000.0);
        LogIntegrity damagedAndCut = new LogIntegrity(2, 1, 0, false, true, 3.0, 20.0);
        root.set("integrity", damagedAndCut.toJson());
        assertEquals(damagedAndCut, LogIntegrity.fromJson(root.get("integrity")), "the block reads back as written");
        Path file = dir.resolve("report.json");
        json.writeValue(file.toFile(), root);
        List<Verdict> verdicts = Gate.evaluate(List.of(file), TimeRange.ALL,
                List.of(RuleParser.parse("READ.intended.p99 < 5ms"), RuleParser.parse("throughput > 50/s")), null,
                null, w -> { });
        assertTrue(Gate.inputDamaged(verdicts));
        assertEquals(Verdict.damagedInput(file.toString(), "2 corrupt lines skipped, 1 overlapping interval"),
                verdicts.get(0), "the row a gate on the damaged log shows");
        assertTrue(verdicts.get(1).passed());
        assertEquals("100/s but partial: the log holds 3.0 s of a 20 s run (15 %)", verdicts.get(2).observed());
        root.set("integrity", new LogIntegrity(0, 0, 0, false).toJson());
        json.writeValue(file.toFile(), root);
        assertTrue(Gate.allPassed(Gate.evaluate(List.of(file), TimeRange.ALL,
                List.of(RuleParser.parse("throughput > 50/s")), null, null, w -> { })), "an intact block passes");
    }
}
