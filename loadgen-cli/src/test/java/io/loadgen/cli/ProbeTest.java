package io.loadgen.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.Limits;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The probe (issue 24, item 7): hostile and careless inputs across every command, as a table
 * ({@code probe/cases.tsv}: exit code, the fragment the line must name, the arguments). For each: that exit code,
 * exactly one line on stderr that starts {@code loadgen: } and names the culprit, no stack trace, nothing on
 * stdout for bad input (a gate that found damage still prints its table), no input file changed (every fixture's SHA-256 before and after) and no output file written. The
 * reliability page (docs/reliability.md) publishes the table's size.
 */
class ProbeTest {
    /** The reliability page's promise; the table may grow, never shrink below it. */
    static final int AT_LEAST = 200;

    @TempDir
    static Path dir;

    /** The fixtures the cases read: a real log and its JSON summary, then broken copies and odd files. */
    @BeforeAll
    static void fixtures() throws IOException {
        Path log = dir.resolve("good.hlog");
        Cli run = Cli.run("run", "--driver", "noop", "--target", "1000", "--duration", "1s", "-q",
                "--hlog", log.toString(), "--json", dir.resolve("good.json").toString());
        assertEquals(0, run.exitCode, run.err);
        Cli shard = Cli.run("run", "--driver", "noop", "--target", "500", "--duration", "1s", "-q", "--shard", "0/2",
                "--hlog", dir.resolve("shard0.hlog").toString());
        assertEquals(0, shard.exitCode, shard.err);
        // Damaged logs: one histogram's payload corrupted; one interval written twice.
        List<String> lines = Files.readAllLines(log);
        List<Integer> intervals = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("Tag=")) {
                intervals.add(i);
            }
        }
        List<String> corrupt = new ArrayList<>(lines);
        String victim = corrupt.get(intervals.get(3));
        int payload = victim.lastIndexOf(',') + 1;
        corrupt.set(intervals.get(3), victim.substring(0, payload + 20) + "!!!!" + victim.substring(payload + 24));
        Files.write(dir.resolve("corrupt.hlog"), corrupt);
        List<String> twice = new ArrayList<>(lines);
        twice.add(intervals.get(4), lines.get(intervals.get(4)));
        Files.write(dir.resolve("dup.hlog"), twice);
        Files.createDirectories(dir.resolve("out"));
        Files.createDirectories(dir.resolve("dir"));
        Files.createFile(dir.resolve("empty.hlog"));
        Files.write(dir.resolve("header-only.hlog"), AbsurdInputTest.headerLines(log));
        byte[] noise = new byte[4096];
        new Random(24).nextBytes(noise);
        Files.write(dir.resolve("garbage.hlog"), noise);
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        Files.write(dir.resolve("binary.properties"), everyByte);
        Files.writeString(dir.resolve("text.txt"), "hello, world\n");
        Files.write(dir.resolve("latin1.properties"), "recordcount=zehn\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        // YAML: a syntax error, nothing, an unknown key, the wrong shape, no phases, a negative rate, no such driver.
        Files.writeString(dir.resolve("bad.yaml"), "driver: noop\nphases:\n  - {name: a, duration: 1s, rate: 10\n");
        Files.writeString(dir.resolve("empty.yaml"), "");
        Files.writeString(dir.resolve("unknown.yaml"), "driver: noop\nphasez:\n  - {name: a, duration: 1s, rate: 10}\n");
        Files.writeString(dir.resolve("list.yaml"), "- driver\n- noop\n");
        Files.writeString(dir.resolve("nophases.yaml"), "driver: noop\nphases: []\n");
        Files.writeString(dir.resolve("negative.yaml"), "driver: noop\nphases:\n  - {name: a, duration: 1s, rate: -5}\n");
        Files.writeString(dir.resolve("nodriver.yaml"), "driver: nosuch\nphases:\n  - {name: a, duration: 1s, rate: 10}\n");
        Files.writeString(dir.resolve("rules-unknown.yaml"), "rulez:\n  - READ.intended.p99 < 5ms\n");
        Files.writeString(dir.resolve("rules-bad-rule.yaml"), "rules:\n  - READ.intended.p99 < soon\n");
        // JSON summaries: not JSON, the wrong shape, and four that contradict themselves.
        Files.writeString(dir.resolve("broken.json"), "{\"operations\": {");
        Files.writeString(dir.resolve("array.json"), "[]");
        ObjectMapper json = new ObjectMapper();
        ObjectNode negative = (ObjectNode) json.readTree(dir.resolve("good.json").toFile());
        ((ObjectNode) negative.at("/operations/READ/intended")).put("p50_us", -5.0);
        json.writeValue(dir.resolve("negative.json").toFile(), negative);
        ObjectNode errors = (ObjectNode) json.readTree(dir.resolve("good.json").toFile());
        ((ObjectNode) errors.at("/operations/READ")).put("errors", errors.at("/operations/READ/count").asLong() + 1);
        json.writeValue(dir.resolve("errors-above-count.json").toFile(), errors);
        ObjectNode future = (ObjectNode) json.readTree(dir.resolve("good.json").toFile());
        future.put("schema_version", 99);
        json.writeValue(dir.resolve("future-schema.json").toFile(), future);
        ObjectNode disordered = (ObjectNode) json.readTree(dir.resolve("good.json").toFile());
        ObjectNode intended = (ObjectNode) disordered.at("/operations/READ/intended");
        intended.put("p99_us", intended.get("max_us").asDouble() * 2);
        json.writeValue(dir.resolve("disordered.json").toFile(), disordered);
    }

    static Stream<Arguments> cases() throws IOException {
        return table().stream().map(c -> Arguments.of(c[2], Integer.parseInt(c[0]), c[1]));
    }

    /** The table's rows: {exit, fragment, arguments}. */
    static List<String[]> table() throws IOException {
        List<String[]> rows = new ArrayList<>();
        try (InputStream in = ProbeTest.class.getResourceAsStream("/probe/cases.tsv");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cols = line.split("\t");
                assertEquals(3, cols.length, "a row is EXIT<TAB>FRAGMENT<TAB>ARGUMENTS: " + line);
                rows.add(cols);
            }
        }
        return rows;
    }

    @Test
    void theTableHoldsAtLeastTheNumberTheDocsPublish() throws IOException {
        int rows = table().size();
        assertTrue(rows >= AT_LEAST, rows + " cases");
        String page = Files.readString(Path.of("../docs/reliability.md"));
        assertTrue(page.contains(String.format("%,d hostile or careless inputs", rows)),
                "docs/reliability.md gives the probe's size: " + String.format("%,d", rows));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void refusedInOneLineWithNothingChanged(String args, int exit, String fragment) throws IOException {
        String[] argv = args.replace("$D", dir.toString()).split(" ");
        for (int i = 0; i < argv.length; i++) {
            argv[i] = argv[i].replace("{SP}", " ");
        }
        Map<Path, String> before = contents();
        Cli cli = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> Cli.run(argv), "bad input is refused at once");
        String err = cli.err.strip();
        assertEquals(exit, cli.exitCode, "exit code; stderr: " + Limits.quote(err));
        assertFalse(err.contains("\tat ") || err.contains("Exception"), "no stack trace or exception: " + err);
        if (exit == 3) { // damaged input: the reader's warnings (one per damaged line), then the one line
            while (err.startsWith("warning: ") && err.contains("\n")) {
                err = err.substring(err.indexOf('\n') + 1);
            }
        }
        assertFalse(err.isEmpty() || err.contains("\n"), "one line on stderr, got: " + Limits.quote(err));
        assertTrue(err.startsWith("loadgen: "), err);
        assertTrue(err.contains(fragment), "the line names '" + fragment + "': " + Limits.quote(err));
        assertFalse(err.contains("hunter2"), "a password is never echoed");
        if (exit == 2 && !args.contains("--json -")) { // a gate that found damage (3) still prints its table
            assertEquals("", cli.out, "nothing on stdout");
        }
        assertEquals(before, contents(), "no input changed and no output written");
    }

    /** Every file under the fixtures' directory and its SHA-256. */
    private static Map<Path, String> contents() throws IOException {
        Map<Path, String> files = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                files.put(dir.relativize(p), Files.isRegularFile(p) ? sha256(Files.readAllBytes(p)) : "dir");
            }
        }
        return files;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
