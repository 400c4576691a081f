package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.HdrHistogram.HistogramLogProcessor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@code report} does beyond HistogramLogProcessor: merging logs on absolute time, every tag in one
 * pass, JSON in the run's own schema, and damaged logs read as far as they are usable.
 */
class ReportCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    @BeforeAll
    static void twoRuns() {
        for (String name : new String[]{"a", "b"}) {
            Cli run = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "-p", "mockdb.randomize=true",
                    "--target", name.equals("a") ? "1000" : "600", "--threads", "2", "--duration", "2s",
                    "--interval", "250ms", "--seed", name.equals("a") ? "1" : "2", "-q",
                    "--hlog", dir.resolve(name + ".hlog").toString(), "--json", dir.resolve(name + ".json").toString());
            assertEquals(0, run.exitCode, run.err);
        }
    }

    private static String log(String name) {
        return dir.resolve(name).toString();
    }

    private static long totalCount(Path hgrm) throws Exception {
        Matcher m = Pattern.compile("Total count\\s*=\\s*(\\d+)").matcher(Files.readString(hgrm));
        assertTrue(m.find(), hgrm.toString());
        return Long.parseLong(m.group(1));
    }

    @Test
    void severalLogsMergeExactlyAndTheMergedLogIsReadByHistogramLogProcessor() throws Exception {
        Cli merged = Cli.run("report", log("a.hlog"), log("b.hlog"), "-tag", "READ.intended", "-o", log("ab"),
                "--merge-to", log("ab.hlog"), "--allow-mixed"); // two runs: merged only when asked
        assertEquals(0, merged.exitCode, merged.err);
        for (String one : new String[]{"a", "b"}) {
            Cli single = Cli.run("report", log(one + ".hlog"), "-tag", "READ.intended", "-o", log(one));
            assertEquals(0, single.exitCode, single.err);
        }
        // Nothing is re-binned: the merged distribution counts every operation of both runs.
        long a = totalCount(Path.of(log("a.hgrm")));
        long b = totalCount(Path.of(log("b.hgrm")));
        assertEquals(a + b, totalCount(Path.of(log("ab.hgrm"))));
        JsonNode ja = JSON.readTree(Path.of(log("a.json")).toFile());
        JsonNode jb = JSON.readTree(Path.of(log("b.json")).toFile());
        assertEquals(ja.at("/operations/READ/intended/count").asLong() + jb.at("/operations/READ/intended/count").asLong(),
                a + b, "the runs' own counts");
        // HistogramLogProcessor on the merged log gives the same distribution as report on the two logs.
        new HistogramLogProcessor(new String[]{"-i", log("ab.hlog"), "-o", log("ab-hlp"), "-tag", "READ.intended"}).run();
        assertArrayEquals(Files.readAllBytes(Path.of(log("ab-hlp.hgrm"))), Files.readAllBytes(Path.of(log("ab.hgrm"))));
        // On the merged time line, b's intervals sit where b ran: its StartTime is honoured.
        List<String> lines = Files.readAllLines(Path.of(log("ab.hlog")));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("#[BaseTime: ")), "the merged log states its BaseTime");
        assertEquals(Files.readAllLines(Path.of(log("a.hlog"))).stream().filter(l -> l.startsWith("Tag=")).count()
                        + Files.readAllLines(Path.of(log("b.hlog"))).stream().filter(l -> l.startsWith("Tag=")).count(),
                lines.stream().filter(l -> l.startsWith("Tag=")).count(), "every interval line of both logs");
    }

    @Test
    void jsonFromTheLogIsTheRunsOwnSummary() throws Exception {
        Cli report = Cli.run("report", log("a.hlog"), "--json", "-");
        assertEquals(0, report.exitCode, report.err);
        JsonNode fromLog = JSON.readTree(report.out);
        JsonNode fromRun = JSON.readTree(Path.of(log("a.json")).toFile());
        for (String view : new String[]{"intended", "service", "corrected", "failed"}) {
            assertEquals(fromRun.at("/operations/READ/" + view), fromLog.at("/operations/READ/" + view), view);
        }
        assertEquals(fromRun.at("/harness/lag"), fromLog.at("/harness/lag"));
        assertEquals(fromRun.at("/harness/hiccup"), fromLog.at("/harness/hiccup"), "the log's harness.hiccup lines");
        assertTrue(fromLog.at("/harness/verdict").isNull(), "a verdict needs the run, not its log");
        assertEquals("mockdb", fromLog.get("driver").asText());
        assertEquals(1000.0, fromLog.get("target_ops_per_sec").asDouble());
        assertEquals(2, fromLog.get("threads").asInt());
        assertEquals(fromRun.at("/operations/READ/errors"), fromLog.at("/operations/READ/errors"), "from READ.status");
        assertEquals(fromRun.at("/operations/READ/returns"), fromLog.at("/operations/READ/returns"), "from READ.status");
        assertEquals(fromRun.get("throughput_ops_per_sec").asDouble(), fromLog.get("throughput_ops_per_sec").asDouble(),
                fromRun.get("throughput_ops_per_sec").asDouble() * 0.05, "count over the logged span");

        Cli byTag = Cli.run("report", log("a.hlog"), "--json", "-", "--json-by", "tag");
        assertEquals(0, byTag.exitCode, byTag.err);
        JsonNode tags = JSON.readTree(byTag.out).get("tags");
        assertEquals(List.of("READ.intended", "READ.service", "READ.failed.intended", "READ.failed.service",
                "harness.lag", "harness.hiccup"), fieldNames(tags));
        assertEquals(fromRun.at("/operations/READ/service/p99_us"), tags.at("/READ.service/p99_us"));
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void allTagsInOnePassEqualsOneRunPerTag() throws Exception {
        Cli all = Cli.run("report", "-i", log("a.hlog"), "-alltags", "-o", log("all"));
        assertEquals(0, all.exitCode, all.err);
        for (String tag : new String[]{"READ.intended", "READ.service", "harness.lag"}) {
            new HistogramLogProcessor(new String[]{"-i", log("a.hlog"), "-o", log("one-" + tag), "-tag", tag}).run();
            assertArrayEquals(Files.readAllBytes(Path.of(log("one-" + tag + ".hgrm"))),
                    Files.readAllBytes(Path.of(log("all." + tag + ".hgrm"))), tag);
            assertArrayEquals(Files.readAllBytes(Path.of(log("one-" + tag))), Files.readAllBytes(Path.of(log("all." + tag))), tag);
        }
        // Without a tag, a loadgen log (every line tagged, where HistogramLogProcessor finds nothing) reports each tag.
        Cli plain = Cli.run("report", log("a.hlog"));
        assertEquals(0, plain.exitCode, plain.err);
        assertTrue(plain.out.startsWith("#[Tag: READ.intended]\n#[StartTime: "), plain.out);
        assertTrue(plain.out.contains("#[Tag: harness.lag]\n"), plain.out);
    }

    @Test
    void absoluteTimeWindowsSelectTheSameIntervalsAsRelativeOnes() throws Exception {
        String start = Files.readAllLines(Path.of(log("a.hlog"))).stream().filter(l -> l.startsWith("#[StartTime: "))
                .findFirst().orElseThrow().split(" ")[1];
        double t0 = Double.parseDouble(start);
        Cli relative = Cli.run("report", log("a.hlog"), "-tag", "READ.service", "--start", "0.5", "--end", "1.25");
        Cli absolute = Cli.run("report", log("a.hlog"), "-tag", "READ.service", "--absolute",
                "--start", Double.toString(t0 + 0.5), "--end", Double.toString(t0 + 1.25));
        assertEquals(0, absolute.exitCode, absolute.err);
        assertEquals(relative.out, absolute.out);
        Cli whole = Cli.run("report", log("a.hlog"), "-tag", "READ.service");
        assertFalse(whole.out.equals(relative.out), "the window leaves intervals out");
    }

    @Test
    void aKilledRunsLogIsReadUpToItsTruncatedLastLine() throws Exception {
        String whole = Files.readString(Path.of(log("a.hlog")));
        String text = whole.substring(0, whole.indexOf("#[run end: ")); // a killed run writes no closing line
        Path killed = dir.resolve("killed.hlog");
        Files.writeString(killed, text.substring(0, text.length() - 25));
        long lines = text.lines().count();
        Cli report = Cli.run("report", killed.toString(), "-tag", "harness.lag");
        assertEquals(0, report.exitCode, report.err);
        assertTrue(report.err.startsWith("warning: " + killed + ":" + lines + ": the last line is truncated (was the"
                + " run killed?); read the log up to the line before it\nloadgen: partial: the log holds "), report.err);
        assertTrue(report.out.contains("#[Max"), report.out);
    }

    @Test
    void corruptLinesAreNamedAndOnlyAnUnusableLogIsBadInput() throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(Path.of(log("a.hlog"))));
        int secondRead = -1;
        for (int i = 0, seen = 0; secondRead < 0; i++) {
            if (lines.get(i).startsWith("Tag=READ.intended,") && ++seen == 2) {
                secondRead = i;
            }
        }
        lines.set(secondRead, lines.get(secondRead).substring(0, 60) + "%%%");
        Path damaged = dir.resolve("damaged.hlog");
        Files.write(damaged, lines);
        Cli report = Cli.run("report", damaged.toString(), "-tag", "READ.intended");
        assertEquals(0, report.exitCode, report.err);
        assertTrue(report.err.startsWith("warning: " + damaged + ":" + (secondRead + 1) + ": corrupt histogram"),
                report.err);

        Path json = dir.resolve("not-a-log.hlog");
        Files.writeString(json, "{ \"driver\": \"mockdb\" }\n");
        assertBadInput(Cli.run("report", json.toString()), json + " is not an HdrHistogram interval log");
        assertBadInput(Cli.run("report", log("a.hlog"), "-tag", "READ.nope"),
                "no interval tagged 'READ.nope' in " + log("a.hlog") + "; tags present: READ.failed.intended, READ.failed.service, READ.intended, READ.service,"
                        + " READ.status, harness.hiccup, harness.lag");
        assertBadInput(Cli.run("report", log("a.hlog"), "--start", "500"), "no interval in " + log("a.hlog")
                + " falls in the time range");
        assertBadInput(Cli.run("report", dir.resolve("missing.hlog").toString()), "interval log "
                + dir.resolve("missing.hlog") + " does not exist");
        assertBadInput(Cli.run("report", log("a.hlog"), "-start", "soon"), "");
    }

    private static void assertBadInput(Cli cli, String prefix) {
        assertEquals(2, cli.exitCode, cli.err);
        assertEquals(1, cli.err.lines().count(), "one line: " + cli.err);
        assertTrue(cli.err.contains(prefix), cli.err);
        assertFalse(cli.err.contains("\tat "), "no stack trace without -v");
    }
}
