package io.loadgen.core.workload;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadFileTest {
    private static final Path EXAMPLE = Path.of("..", "workloads", "ramp-step-spike.yaml");
    private static final long S = 1_000_000_000L;

    @TempDir
    Path dir;

    private Path write(String yaml) throws IOException {
        Path f = dir.resolve("w.yaml");
        Files.writeString(f, yaml);
        return f;
    }

    private String rejection(String yaml) throws IOException {
        Path f = write(yaml);
        String m = assertThrows(BadInputException.class, () -> WorkloadFile.load(f)).getMessage();
        assertFalse(m.contains("\n"), "one line: " + m);
        assertTrue(m.startsWith(f + ": "), "names the file: " + m);
        return m.substring((f + ": ").length());
    }

    private static String phases(String... lines) {
        return "properties: {recordcount: 10}\nphases:\n" + String.join("\n", lines) + "\n";
    }

    @Test
    void exampleLoads() {
        PhasedWorkload w = WorkloadFile.load(EXAMPLE);
        assertEquals("mockdb", w.driver().orElseThrow());
        assertEquals(4, w.threads());
        assertEquals("1ms", w.properties().get("mockdb.delay"));
        assertEquals("0.9", w.properties().get("readproportion"));
        assertEquals(List.of(
                new PhasedWorkload.Phase("warmup", Duration.ofSeconds(10), 1000, 1000),
                new PhasedWorkload.Phase("ramp", Duration.ofSeconds(30), 1000, 5000),
                new PhasedWorkload.Phase("step", Duration.ofSeconds(20), 5000, 5000),
                new PhasedWorkload.Phase("spike", Duration.ofSeconds(5), 20000, 20000)), w.phases());
        assertEquals(Duration.ofSeconds(65), w.totalDuration());
        assertEquals(0.9, WorkloadOptions.from(w.properties()).opProportions().get("READ"));
        assertEquals(java.util.Map.of("mockdb.delay", "1ms"), WorkloadOptions.remaining(w.properties()));
    }

    @Test
    void rateAtInterpolatesTheRamp() {
        PhasedWorkload w = WorkloadFile.load(EXAMPLE);
        assertEquals(1000, w.rateAt(0));
        assertEquals(1000, w.rateAt(10 * S - 1));
        assertEquals(1000, w.rateAt(10 * S));          // ramp starts at its from
        assertEquals(2000, w.rateAt(10 * S + 30 * S / 4), 1e-9);
        assertEquals(3000, w.rateAt(25 * S), 1e-9);   // halfway through the 30 s ramp
        assertEquals(5000, w.rateAt(40 * S));          // step
        assertEquals(20000, w.rateAt(60 * S));         // spike
        assertEquals(20000, w.rateAt(65 * S - 1));
        assertEquals(0, w.rateAt(65 * S));             // after the end
        assertEquals(0, w.rateAt(-1));
        assertEquals(1, w.phaseIndexAt(25 * S));
    }

    @Test
    void defaultsAreOneThreadNoDriverAndNumberedNames() throws IOException {
        PhasedWorkload w = WorkloadFile.load(write("phases:\n  - {duration: 1s, rate: 10}\n"));
        assertTrue(w.driver().isEmpty());
        assertEquals(1, w.threads());
        assertEquals("phase1", w.phases().get(0).name());
    }

    @Test
    void unknownPhaseFieldNamesPhaseAndField() throws IOException {
        assertEquals("phase 2 (ramp): unknown field 'durtion'; a phase has name, duration, rate (did you mean 'duration'?)",
                rejection(phases("  - {name: warmup, duration: 1s, rate: 10}",
                        "  - {name: ramp, durtion: 1s, rate: 10}")));
    }

    @Test
    void unknownTopLevelFieldIsNamed() throws IOException {
        assertEquals("unknown field 'phase'; the top level has driver, properties, threads, phases (did you mean 'phases'?)",
                rejection("phase:\n  - {duration: 1s, rate: 10}\n"));
    }

    @Test
    void unknownRampFieldNamesPhase() throws IOException {
        assertEquals("phase 1 (ramp): rate: unknown field 'form'; a ramping rate has from, to (did you mean 'from'?)",
                rejection(phases("  - {name: ramp, duration: 1s, rate: {form: 1, to: 2}}")));
    }

    @Test
    void missingDurationIsNamed() throws IOException {
        assertEquals("phase 1 (steady): missing duration; give one such as duration: 30s",
                rejection(phases("  - {name: steady, rate: 10}")));
    }

    @Test
    void badDurationUnitIsNamed() throws IOException {
        String m = rejection(phases("  - {name: steady, duration: 10q, rate: 10}"));
        assertTrue(m.startsWith("phase 1 (steady): duration: unknown unit 'q' in '10q'; write a number with a unit"), m);
        String noUnit = rejection(phases("  - {name: steady, duration: 10, rate: 10}"));
        assertTrue(noUnit.startsWith("phase 1 (steady): duration: '10' is not a duration"), noUnit);
    }

    @Test
    void nonPositiveRatesAreRejected() throws IOException {
        assertEquals("phase 1 (idle): rate must be above 0 ops/s (got 0)",
                rejection(phases("  - {name: idle, duration: 1s, rate: 0}")));
        assertEquals("phase 1 (down): rate.to must be above 0 ops/s (got -5)",
                rejection(phases("  - {name: down, duration: 1s, rate: {from: 10, to: -5}}")));
        assertTrue(rejection(phases("  - {name: x, duration: 1s}")).startsWith("phase 1 (x): missing rate; give ops/s"));
        assertTrue(rejection(phases("  - {name: x, duration: 1s, rate: fast}"))
                .startsWith("phase 1 (x): rate must be ops/s"));
    }

    @Test
    void emptyPhasesAreRejected() throws IOException {
        assertTrue(rejection("threads: 2\nphases: []\n").startsWith("phases is empty; give at least one"));
        assertTrue(rejection("threads: 2\n").startsWith("phases is missing; give at least one"));
    }

    @Test
    void wrongTypesAreNamed() throws IOException {
        assertEquals("threads: 'four' is not a whole number", rejection("threads: four\nphases: []\n"));
        assertEquals("threads must be at least 1 (got 0)", rejection(phases("  - {duration: 1s, rate: 1}")
                .replace("phases:", "threads: 0\nphases:")));
        assertEquals("phases: expected a list", rejection("phases: {duration: 1s}\n"));
    }

    @Test
    void badWorkloadPropertiesNameTheFile() throws IOException {
        assertEquals("properties: property readproportion: 2 is not between 0 and 1",
                rejection("properties: {recordcount: 10, readproportion: 2}\nphases:\n  - {duration: 1s, rate: 1}\n"));
    }

    @Test
    void aFileWithoutWorkloadKeysNeedsNoRecordCount() throws IOException {
        PhasedWorkload w = WorkloadFile.load(write("driver: ping\nproperties: {ping.size: 128}\nphases:\n  - {duration: 1s, rate: 10}\n"));
        assertEquals("128", w.properties().get("ping.size"));
        assertEquals("recordcount", rejection("properties: {readproportion: 1}\nphases:\n  - {duration: 1s, rate: 1}\n")
                .substring("properties: property ".length(), "properties: property ".length() + "recordcount".length()));
    }

    @Test
    void brokenYamlAndMissingFileAreOneLine() throws IOException {
        Path broken = write("phases: [\n");
        assertEquals(broken + ":2:1: expected the node content, but found '<stream end>'; fix the YAML there",
                assertThrows(BadInputException.class, () -> WorkloadFile.load(broken)).getMessage());
        Path missing = dir.resolve("nope.yaml");
        assertEquals(missing + ": no such file; give the path of a YAML workload",
                assertThrows(BadInputException.class, () -> WorkloadFile.load(missing)).getMessage());
    }
}
