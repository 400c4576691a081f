package io.loadgen.core.sweep;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalDouble;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sweep written as CSV and JSON reads back as the rows the table printed, and the knee sits where the
 * SLA verdict says the objective stops holding. The synthetic sweep: 1 s steps on one thread at
 * 100 ... 500 ops/s; steps up to 300 keep up with intended p99 = 2, 4, 8 ms; 400 keeps up at 40 ms;
 * 500 completes only 450 (falls behind) at 900 ms.
 */
class SweepResultsTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path dir;

    static List<SweepStep> steps() {
        return List.of(
                SlaVerdictTest.step(1, 100, 2, 1),
                SlaVerdictTest.step(2, 200, 4, 1),
                SlaVerdictTest.step(3, 300, 8, 2),
                SlaVerdictTest.step(4, 400, 40, 3),
                SlaVerdictTest.step(5, 500, 900, 3, 450, 1_000_000_000L, 50));
    }

    @Test
    void csvAndJsonReadBackAsTheTablesRows() throws Exception {
        List<SweepStep> steps = steps();
        Path csv = dir.resolve("s.csv");
        Path json = dir.resolve("s.json");
        SweepFiles.writeCsv(steps, csv);
        SweepFiles.writeJson(steps, json);
        List<SweepPoint> fromCsv = SweepResults.read(csv);
        List<SweepPoint> fromJson = SweepResults.read(json);
        assertEquals(5, fromCsv.size());
        for (int i = 0; i < steps.size(); i++) {
            SweepPoint expected = SweepPoint.of(steps.get(i));
            for (SweepPoint got : List.of(fromCsv.get(i), fromJson.get(i))) {
                assertEquals(expected.offeredOpsPerSec(), got.offeredOpsPerSec());
                assertEquals(expected.keptUp(), got.keptUp());
                assertEquals(expected.intendedP99Ns(), got.intendedP99Ns(), 1000.0, "the CSV rounds to the µs");
                assertEquals(expected.serviceP99Ns(), got.serviceP99Ns(), 1000.0);
                assertEquals(expected.unissued(), got.unissued());
            }
        }
        assertTrue(SweepResults.looksLikeSweep(csv));
        assertTrue(SweepResults.looksLikeSweep(json));
    }

    @Test
    void kneeWithoutAnObjectiveIsTheHighestRateThatKeptUp() {
        List<SweepPoint> points = steps().stream().map(SweepPoint::of).toList();
        assertFalse(points.get(4).keptUp());
        assertEquals(400.0, SweepKnee.of(points, null));
    }

    @Test
    void kneeWithAnObjectiveIsWhereTheSlaVerdictSaysItStopsHolding() {
        List<SweepStep> steps = steps();
        List<SweepPoint> points = steps.stream().map(SweepPoint::of).toList();
        SweepKnee.Objective p99Under10ms = new SweepKnee.Objective("p99 < 10ms", 99, 10 * MS, false);
        assertEquals(300.0, SweepKnee.of(points, p99Under10ms));
        OptionalDouble verdict = SlaVerdict.of(Sla.parse("p99<10ms"), steps).intendedUpTo();
        assertEquals(verdict.getAsDouble(), SweepKnee.of(points, p99Under10ms));
        SweepKnee.Objective impossible = new SweepKnee.Objective("p99 < 1ms", 99, MS, false);
        assertEquals(-1.0, SweepKnee.of(points, impossible));
        assertEquals("no step kept up and met p99 < 1ms", SweepKnee.describe(-1, impossible));
    }

    @Test
    void aFileThatIsNotASweepIsBadInput() throws Exception {
        Path p = Files.writeString(dir.resolve("x.csv"), "a,b,c\n1,2,3\n");
        BadInputException e = assertThrows(BadInputException.class, () -> SweepResults.read(p));
        assertTrue(e.getMessage().contains("is not a sweep's CSV or JSON"), e.getMessage());
    }

    @Test
    void aCsvFromBeforeTheDiagnosisColumnStillReads() throws Exception {
        Path old = dir.resolve("old.csv");
        Files.writeString(old, "offered_ops_per_sec,achieved_ops_per_sec,intended_p50_ms,intended_p99_ms,"
                + "intended_p99_9_ms,intended_max_ms,service_p99_ms,errors,unissued,kept_up\n"
                + "100,99.6,10.093,68.682,88.146,88.146,29.901,0,0,true\n");
        List<SweepPoint> points = SweepResults.read(old);
        assertEquals(1, points.size());
        assertTrue(points.get(0).keptUp());
        Path now = dir.resolve("new.csv");
        Files.writeString(now, SweepFiles.CSV_HEADER + "\n100,99.6,10.093,68.682,88.146,88.146,29.901,0,0,true,ok\n");
        assertEquals(1, SweepResults.read(now).size());
    }
}
