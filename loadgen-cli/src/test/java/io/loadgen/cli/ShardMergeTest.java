package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.core.record.RunId;
import io.loadgen.core.shard.Shard;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code report}, {@code gate} and {@code plot} over a sharded run's logs: two real runs' logs, each given
 * the {@code #[shard: ...]} header line a shard writes, read through a glob. The merge is exact (the
 * counts add up and the distribution is that of the histograms' sum), and a shard missing or given twice
 * is refused, not merged.
 */
class ShardMergeTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    @BeforeAll
    static void twoShards() throws Exception {
        for (int i = 0; i < 2; i++) {
            Path plain = dir.resolve("plain-" + i + ".hlog");
            Cli run = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "-p", "mockdb.randomize=true",
                    "--target", i == 0 ? "1000" : "600", "--threads", "2", "--duration", "1s", "--interval", "250ms",
                    "--seed", String.valueOf(i + 1), "-q", "--hlog", plain.toString());
            assertEquals(0, run.exitCode, run.err);
            shardOf(plain, "shard-" + i + ".hlog", i);
        }
    }

    /** {@code log} as shard {@code index} of 2 writes it: its header line first. */
    private static Path shardOf(Path log, String name, int index) throws Exception {
        Path shard = dir.resolve(name);
        // The shards of one run share its id (RunId), as a real sharded run's logs do.
        Files.writeString(shard, "#[shard: index=" + index + " count=2 start_at=-]\n" + Files.readString(log)
                .replaceFirst("#\\[run_id: [^\\]]*\\]", "#[run_id: " + RunId.of(new Shard(index, 2), 0, "test") + "]"));
        return shard;
    }

    private static String path(String name) {
        return dir.resolve(name).toString();
    }

    private static String glob() {
        return path("shard-*.hlog");
    }

    /** The READ.intended histograms of {@code logs}, summed as HdrHistogram's own reader reads them. */
    private static Histogram summed(String... logs) throws Exception {
        Histogram sum = new Histogram(3);
        for (String log : logs) {
            HistogramLogReader reader = new HistogramLogReader(log);
            for (EncodableHistogram h = reader.nextIntervalHistogram(); h != null; h = reader.nextIntervalHistogram()) {
                if ("READ.intended".equals(h.getTag())) {
                    sum.add((Histogram) h);
                }
            }
            reader.close();
        }
        return sum;
    }

    private static List<String> distribution(String text) {
        return text.lines().filter(l -> !l.startsWith("#")).toList();
    }

    @Test
    void aGlobOfShardLogsMergesExactly() throws Exception {
        Cli merged = Cli.run("report", glob(), "-tag", "READ.intended", "-o", path("merged"));
        assertEquals(0, merged.exitCode, merged.err);
        assertEquals("loadgen: merged 2 shard logs (0-1 of 2)\n", merged.err);
        Histogram sum = summed(path("shard-0.hlog"), path("shard-1.hlog"));
        assertTrue(sum.getTotalCount() > 0);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        sum.outputPercentileDistribution(new PrintStream(expected, true, StandardCharsets.UTF_8), 5, 1_000_000.0);
        assertEquals(distribution(expected.toString(StandardCharsets.UTF_8)),
                distribution(Files.readString(Path.of(path("merged.hgrm")))),
                "the merged distribution is that of the two shards' histograms added: counts and percentiles");
        assertEquals(summed(path("shard-0.hlog")).getTotalCount() + summed(path("shard-1.hlog")).getTotalCount(),
                sum.getTotalCount());
    }

    @Test
    void theMergedLogIsAWholeRunOfItsOwn() throws Exception {
        Cli merge = Cli.run("report", glob(), "--merge-to", path("merged.hlog"), "-tag", "READ.intended");
        assertEquals(0, merge.exitCode, merge.err);
        Cli again = Cli.run("report", path("merged.hlog"), "-tag", "READ.intended");
        assertEquals(0, again.exitCode, again.err);
        assertEquals("", again.err, "no shard line: the merged log is not shard 0");
        assertEquals(merge.out, again.out);
    }

    @Test
    void theJsonNamesTheShardsMerged() throws Exception {
        Cli report = Cli.run("report", glob(), "--json", "-");
        assertEquals(0, report.exitCode, report.err);
        JsonNode shards = JSON.readTree(report.out).path("shards");
        assertEquals("{\"count\":2,\"start_at\":null,\"merged\":[0,1],\"missing\":[]}", shards.toString());
    }

    @Test
    void aMissingShardIsRefusedUnlessPartialIsAllowed() throws Exception {
        Cli one = Cli.run("report", path("shard-0.hlog"), "-tag", "READ.intended");
        assertEquals(Main.EXIT_DAMAGED_INPUT, one.exitCode, one.err);
        assertEquals("loadgen: not merged: shard 1 of 2 missing; give every shard's log once, or --allow-partial to"
                + " merge what is there\n", one.err);
        assertEquals("", one.out);
        Cli partial = Cli.run("report", path("shard-0.hlog"), "-tag", "READ.intended", "--allow-partial", "--json", "-");
        assertEquals(0, partial.exitCode, partial.err);
        assertEquals("loadgen: merged 1 shard log (0 of 2); partial: shard 1 of 2 missing\n", partial.err);
        assertEquals("[1]", JSON.readTree(partial.out).path("shards").path("missing").toString());
    }

    @Test
    void aShardGivenTwiceIsRefused() throws Exception {
        Path again = shardOf(Path.of(path("plain-0.hlog")), "again-0.hlog", 0);
        Cli twice = Cli.run("report", glob(), again.toString(), "-tag", "READ.intended");
        assertEquals(Main.EXIT_DAMAGED_INPUT, twice.exitCode, twice.err);
        assertEquals("loadgen: not merged: shard 0 given 2 times (" + path("shard-0.hlog") + ", " + again
                + "); give every shard's log once, or --allow-partial to merge what is there\n", twice.err);
    }

    @Test
    void shardAndUnshardedLogsDoNotMix() {
        Cli mixed = Cli.run("report", glob(), path("plain-0.hlog"));
        assertEquals(Main.EXIT_BAD_INPUT, mixed.exitCode, mixed.err);
        assertEquals("loadgen: " + path("plain-0.hlog") + " is not a shard log but " + path("shard-0.hlog") + " is: merge"
                + " the shard logs of one run alone (an unsharded run's log is a whole run of its own)\n", mixed.err);
    }

    @Test
    void theGateJudgesOnlyAWholeShardedRun() {
        Cli whole = Cli.run("gate", glob(), "--rule", "READ.intended.count > 0");
        assertEquals(0, whole.exitCode, whole.out + whole.err);
        Cli missing = Cli.run("gate", path("shard-1.hlog"), "--rule", "READ.intended.count > 0");
        assertEquals(Main.EXIT_DAMAGED_INPUT, missing.exitCode, missing.out + missing.err);
        assertTrue(missing.out.contains("shard 0 of 2 missing"), missing.out);
    }

    @Test
    void aGlobThatMatchesNothingIsBadInputAndALiteralNameIsReadAsNamed() throws Exception {
        Cli none = Cli.run("report", path("nothing-*.hlog"));
        assertEquals(Main.EXIT_BAD_INPUT, none.exitCode, none.err);
        assertTrue(none.err.startsWith("loadgen: no file matches '" + path("nothing-*.hlog") + "'"), none.err);
        Path odd = Files.copy(Path.of(path("plain-1.hlog")), dir.resolve("odd[1].hlog"));
        Cli literal = Cli.run("report", odd.toString(), "-tag", "READ.intended");
        assertEquals(0, literal.exitCode, literal.err);
    }

    @Test
    void plotDrawsAShardedRunAsOne() {
        Cli plot = Cli.run("plot", glob(), "-o", path("charts"));
        assertEquals(0, plot.exitCode, plot.err);
        assertEquals(List.of(path("charts/shard-0.percentiles.png"), path("charts/shard-0.over-time.png")),
                plot.out.lines().toList());
    }
}
