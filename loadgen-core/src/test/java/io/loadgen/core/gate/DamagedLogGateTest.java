package io.loadgen.core.gate;

import io.loadgen.core.log.LogIntegrity;
import io.loadgen.core.log.LogSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A gate judges only complete data: damaged logs fail it, a killed run's torn last line only warns. */
class DamagedLogGateTest {
    private static final List<Rule> P99_UNDER_5MS = List.of(RuleParser.parse("READ.intended.p99 < 5ms"));

    @TempDir
    Path dir;

    private Path goodLog(String name) throws IOException {
        return new TestLogs().seconds(0, 5, "READ.intended", 100, TestLogs.MS).write(dir.resolve(name));
    }

    private List<Verdict> gate(List<Path> logs, List<String> warnings) throws IOException {
        return Gate.evaluate(logs, TimeRange.ALL, P99_UNDER_5MS, null, null, warnings::add);
    }

    private static LogIntegrity integrity(List<Path> logs) throws IOException {
        try (LogSet set = LogSet.open(logs, w -> { })) {
            while (set.next() != null) {
                // read every line
            }
            return set.integrity();
        }
    }

    @Test
    void anIntactLogPassesWithoutAnInputRow() throws IOException {
        List<String> warnings = new ArrayList<>();
        List<Verdict> verdicts = gate(List.of(goodLog("good.hlog")), warnings);
        assertEquals(1, verdicts.size());
        assertTrue(Gate.allPassed(verdicts));
        assertFalse(Gate.inputDamaged(verdicts));
        assertEquals(List.of(), warnings);
    }

    /** {@code gate good.hlog good.hlog} used to double the throughput and pass. */
    @Test
    void theSameLogTwiceFailsTheInputCheck() throws IOException {
        Path log = goodLog("good.hlog");
        List<String> warnings = new ArrayList<>();
        List<Verdict> verdicts = gate(List.of(log, dir.resolve(".").resolve("good.hlog")), warnings);
        assertTrue(Gate.inputDamaged(verdicts));
        assertEquals("1 file given twice", verdicts.get(0).observed());
        assertTrue(verdicts.get(1).passed(), "the rule itself is still shown");
        assertEquals(1, warnings.size(), warnings.toString());
        assertEquals(new LogIntegrity(0, 0, 1, false), integrity(List.of(log, log)));
    }

    /** Every interval written twice: from the second copy on, each tag's first interval overlaps the previous. */
    @Test
    void intervalsWrittenTwiceAreOverlapsAndFailTheInputCheck() throws IOException {
        Path good = goodLog("good.hlog");
        List<String> lines = Files.readAllLines(good);
        List<String> twice = new ArrayList<>(lines);
        lines.stream().filter(l -> l.startsWith("Tag=")).forEach(twice::add);
        Path doubled = Files.write(dir.resolve("doubled.hlog"), twice);
        List<Verdict> verdicts = gate(List.of(doubled), new ArrayList<>());
        assertTrue(Gate.inputDamaged(verdicts));
        assertEquals("1 overlapping interval", verdicts.get(0).observed());
    }

    @Test
    void aCorruptLineInTheMiddleFailsTheInputCheck() throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(goodLog("good.hlog")));
        int third = lines.size() - 3;
        lines.set(third, lines.get(third).replaceAll(",[^,]*$", ",bm90IGEgaGlzdG9ncmFt"));
        Path corrupt = Files.write(dir.resolve("corrupt.hlog"), lines);
        List<Verdict> verdicts = gate(List.of(corrupt), new ArrayList<>());
        assertTrue(Gate.inputDamaged(verdicts));
        assertEquals("1 corrupt line skipped", verdicts.get(0).observed());
    }

    /** What a killed run leaves: judged on what is there, with a warning. */
    @Test
    void aTornLastLineOnlyWarns() throws IOException {
        String text = Files.readString(goodLog("good.hlog"));
        Path torn = Files.writeString(dir.resolve("torn.hlog"), text.substring(0, text.length() - 20));
        List<String> warnings = new ArrayList<>();
        List<Verdict> verdicts = gate(List.of(torn), warnings);
        assertFalse(Gate.inputDamaged(verdicts));
        assertTrue(Gate.allPassed(verdicts));
        assertEquals(1, warnings.size());
        assertTrue(warnings.get(0).contains("the last line is truncated"), warnings.get(0));
        assertEquals(new LogIntegrity(0, 0, 0, true), integrity(List.of(torn)));
    }

    /** A last line that ends with its line break was written whole: bad, it is corruption, not a killed run's cut. */
    @Test
    void aCompleteButCorruptLastLineIsDamageNotACut() throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(goodLog("good.hlog")));
        int last = lines.size() - 1;
        lines.set(last, lines.get(last).replaceAll(",[^,]*$", ",bm90IGEgaGlzdG9ncmFt"));
        Path corrupt = Files.write(dir.resolve("corrupt-last.hlog"), lines); // Files.write ends every line
        List<String> warnings = new ArrayList<>();
        List<Verdict> verdicts = gate(List.of(corrupt), warnings);
        assertTrue(Gate.inputDamaged(verdicts), warnings.toString());
        assertTrue(warnings.get(0).contains("corrupt histogram"), warnings.get(0));
    }

    /**
     * An outage: 30 operations succeeded in 1 ms and 970 failed. The latency rule still judges the successes,
     * but its row says how many failed operations it leaves out.
     */
    @Test
    void aLatencyRuleSaysHowManyFailedOperationsItLeavesOut() throws IOException {
        Path outage = new TestLogs().seconds(0, 1, "READ.intended", 30, TestLogs.MS)
                .seconds(0, 1, "READ.service", 30, TestLogs.MS)
                .seconds(0, 1, "READ.failed.intended", 970, 20 * TestLogs.US)
                .seconds(0, 1, "READ.failed.service", 970, 20 * TestLogs.US)
                .write(dir.resolve("outage.hlog"));
        List<Verdict> verdicts = gate(List.of(outage), new ArrayList<>());
        assertEquals(1, verdicts.size());
        assertTrue(verdicts.get(0).observed().endsWith(" (970 failed not included)"), verdicts.get(0).observed());
    }
}
