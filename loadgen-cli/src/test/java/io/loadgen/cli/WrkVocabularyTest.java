package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * wrk2's and k6's words mean what they mean there: {@code -R} the rate, {@code -d} the duration, {@code -c}
 * the connections; durations such as {@code 1m30s} and rates such as {@code 10k}.
 */
class WrkVocabularyTest {
    @TempDir
    Path dir;

    @Test
    void dashRAndDashDAreTheRateAndTheDuration() throws Exception {
        Path json = dir.resolve("s.json");
        Cli cli = Cli.run("run", "--driver", "noop", "-R", "2k", "-d", "500ms", "-q", "--json", json.toString());
        assertEquals(0, cli.exitCode, cli.err);
        JsonNode s = new ObjectMapper().readTree(json.toFile());
        assertEquals(2000.0, s.get("target_ops_per_sec").asDouble());
        assertEquals("duration", s.get("stop_reason").asText());
        long issued = s.get("operations").elements().next().get("count").asLong() + s.get("unissued_operations").asLong();
        assertEquals(1000, issued, 1, "500 ms at 2000 ops/s is 1000 intended starts");
    }

    @Test
    void sweepRatesTakeSuffixes() {
        SweepCommand sweep = Cli.parse(new SweepCommand(null), "--driver", "noop", "--rates", "500,1.5k,2M", "-d", "1m30s");
        assertEquals(List.of(500.0, 1500.0, 2_000_000.0), sweep.rates);
        assertEquals(java.time.Duration.ofSeconds(90), sweep.duration);
    }

    @Test
    void dashCSetsTheDriversConnectionCount() {
        RunCommand run = Cli.parse(new RunCommand(null), "--driver", "redis", "-c", "16", "-p", "redis.timeout=2s");
        assertEquals("16", run.load.properties().get("redis.connections"));
        assertEquals("2s", run.load.properties().get("redis.timeout"));
        RunCommand ping = Cli.parse(new RunCommand(null), "--driver", "ping", "-c", "4");
        assertEquals("4", ping.load.properties().get("ping.connections"));
        RunCommand http = Cli.parse(new RunCommand(null), "--driver", "http", "-c", "64");
        assertEquals("64", http.load.properties().get("http.connections"));
    }

    @Test
    void dashCAndTheSamePropertyMustAgree() {
        RunCommand run = Cli.parse(new RunCommand(null), "--driver", "ping", "-c", "4", "-p", "ping.connections=2");
        var e = assertThrows(io.loadgen.core.BadInputException.class, () -> run.load.properties());
        assertEquals("-c 4 and -p ping.connections=2 disagree; give one of them", e.getMessage());
    }

    @Test
    void aCompoundDurationRunsAsLongAsItsParts() {
        RunCommand run = Cli.parse(new RunCommand(null), "--driver", "noop", "-d", "1h2m", "--warmup", "1m30s");
        assertEquals(java.time.Duration.ofMinutes(62), run.duration);
        assertEquals(java.time.Duration.ofSeconds(90), run.load.warmup);
        assertTrue(Cli.run("run", "--driver", "noop", "-d", "2s500").err.contains("is not a duration"));
    }
}
