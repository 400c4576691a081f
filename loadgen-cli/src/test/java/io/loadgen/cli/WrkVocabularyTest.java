package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * wrk2's and k6's words mean what they mean there: {@code -R} the rate, {@code -d} the duration, {@code -c}
 * the connections; durations such as {@code 1m30s} and rates such as {@code 10k}; a URL argument, {@code -H},
 * {@code --timeout} and {@code --latency}. Where a flag clashes with YCSB's ({@code -t}, {@code -P}), the
 * refusal names what the wrk or redis-benchmark user meant.
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

    /**
     * wrk's command line: a URL argument selects the http driver with that URL, -H adds headers (http.headers,
     * joined by |), --timeout is http.timeout. Against the in-process http-server with no delay, 20 requests
     * (--operations 20 at 200/s, 100 ms) all answer 200: OK 20, as the JSON's count says.
     */
    @Test
    void aUrlHeadersAndTimeoutAreWrksCommandLine() throws Exception {
        try (var server = io.loadgen.drivers.http.HttpTargetServer.start(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0),
                io.loadgen.drivers.http.HttpTargetServer.Options.DEFAULT)) {
            String url = server.url("/");
            Path json = dir.resolve("wrk.json");
            Cli cli = Cli.run("run", url, "-R", "200", "--operations", "20", "-H", "X-Test: 1", "-H", "Accept: text/plain",
                    "--timeout", "3s", "-q", "--json", json.toString());
            assertEquals(0, cli.exitCode, cli.err);
            JsonNode s = new ObjectMapper().readTree(json.toFile());
            assertEquals("http", s.get("driver").asText());
            assertEquals(url, s.at("/properties/http.url").asText());
            assertEquals("X-Test: 1|Accept: text/plain", s.at("/properties/http.headers").asText());
            assertEquals("3s", s.at("/properties/http.timeout").asText());
            assertEquals(20, s.at("/operations/GET/count").asLong(), "every request answered OK");
        }
        RunCommand redis = Cli.parse(new RunCommand(null), "--driver", "redis", "--timeout", "250ms");
        assertEquals("250ms", redis.load.properties().get("redis.timeout"), "--timeout is any driver's DRIVER.timeout");
        RunCommand agree = Cli.parse(new RunCommand(null), "--driver", "http", "-H", "A: b", "-p", "http.headers=A: c");
        var e = assertThrows(io.loadgen.core.BadInputException.class, () -> agree.load.properties());
        assertEquals("-H A: b and -p http.headers=A: c disagree; give one of them", e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // wrk's -t is threads; here -t is YCSB's run phase, so the number is left over
            "run -t 2 --driver noop | -t is YCSB's run phase here, not wrk's threads, so '2' is left over; for threads"
                    + " write --threads 2",
            "-t 4 -db noop | for threads write --threads 4",
            "sweep -t 2 --driver noop --rates 10 | for threads write --threads 2",
            // redis-benchmark's -P is its pipeline; here -P reads a properties file
            "run --driver redis -P 16 | no file '16': it reads a properties file here (YCSB's -P); for"
                    + " redis-benchmark's pipeline of 16 write --max-in-flight 16",
            "run --driver noop ftp://127.0.0.1/ | 'ftp://127.0.0.1/' is not an http(s) URL",
            "run --driver redis http://127.0.0.1:6379/ | the URL http://127.0.0.1:6379/ is for the http driver, not"
                    + " --driver redis",
            "run --driver redis -H A:{SP}b | -H: driver redis has no headers (no property redis.headers)",
            "run -H nocolon http://127.0.0.1:1/ | -H 'nocolon' is not one 'Name: value' header",
            "run --driver mockdb --timeout 1s | --timeout: driver mockdb has no timeout (no property mockdb.timeout)",
            // wrk's command line has no command: the URL is run's
            "-c 2 http://127.0.0.1:8080/ | no command given; a URL is run's argument, as wrk's: write 'loadgen run"
                    + " http://127.0.0.1:8080/ ...'",
            "http://u:pw@127.0.0.1:8080/ | write 'loadgen run http://u:***@127.0.0.1:8080/ ...'",
            // an unknown option whose value fell to run's URL argument is still the unknown option
            "run --driver noop --latnecy 5 | Unknown options: '--latnecy', '5'; did you mean --latency?"})
    void anotherToolsHabitIsNamedInOneLine(String args, String expected) {
        Cli cli = Cli.run(java.util.Arrays.stream(args.split(" ")).map(a -> a.replace("{SP}", " ")).toArray(String[]::new));
        assertEquals(2, cli.exitCode, cli.err);
        String[] lines = cli.err.strip().split("\n");
        assertEquals(1, lines.length, cli.err);
        assertTrue(lines[0].startsWith("loadgen: ") && lines[0].contains(expected), lines[0]);
        assertTrue(!cli.err.contains("Unmatched argument") && !cli.err.contains("\tat "), cli.err);
    }

    /** {@code -P FILE} still reads a file named by digits when there is one: YCSB's habit wins where they meet. */
    @Test
    void aPropertiesFileNamedByANumberIsStillRead() throws Exception {
        Path file = dir.resolve("16");
        java.nio.file.Files.writeString(file, "mockdb.delay=1ms\n");
        RunCommand run = Cli.parse(new RunCommand(null), "--driver", "mockdb", "-P", file.toString());
        assertEquals("1ms", run.load.properties().get("mockdb.delay"));
    }

    /**
     * --latency prints wrk2's table of the intended latency after the summary. mockdb with a fixed 5 ms delay at
     * 100/s on one thread keeps up (5 ms < the 10 ms interval), so every intended latency is at least 5 ms: the
     * 50.000% line reads at least 5.00ms. The table and the spectrum are of the same histogram as the JSON's
     * intended view: its p50 and p99 (us, to 3 decimals, as the table's ms with 2) and its count.
     */
    @Test
    void latencyPrintsWrk2sDistributionOfIntendedLatency() throws Exception {
        Path json = dir.resolve("lat.json");
        Cli cli = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=5ms", "-R", "100", "--operations", "50",
                "-q", "--latency", "--json", json.toString());
        assertEquals(0, cli.exitCode, cli.err);
        JsonNode intended = new ObjectMapper().readTree(json.toFile()).at("/operations/READ/intended");
        int table = cli.out.indexOf("  Latency Distribution (HdrHistogram - Recorded Latency)\n");
        assertTrue(table > cli.out.indexOf("Concurrency:"), "after the summary: " + cli.out);
        String[] lines = cli.out.substring(table).split("\n");
        String[] percents = {" 50.000%", " 75.000%", " 90.000%", " 99.000%", " 99.900%", " 99.990%", " 99.999%", "100.000%"};
        for (int i = 0; i < percents.length; i++) {
            assertTrue(lines[i + 1].startsWith(percents[i]) && lines[i + 1].endsWith("ms"), lines[i + 1]);
        }
        double p50 = Double.parseDouble(lines[1].substring(8).replace("ms", "").trim());
        double p99 = Double.parseDouble(lines[4].substring(8).replace("ms", "").trim());
        assertTrue(p50 >= 5.0, "no operation is faster than mockdb's 5 ms: " + p50);
        assertEquals(intended.get("p50_us").asDouble() / 1000, p50, 0.005 + 1e-9, "the JSON's intended p50");
        assertEquals(intended.get("p99_us").asDouble() / 1000, p99, 0.005 + 1e-9, "the JSON's intended p99");
        assertEquals("  Detailed Percentile spectrum:", lines[10]);
        assertTrue(cli.out.matches("(?s).*Total count\\s+=\\s+" + intended.get("count").asLong() + "\\].*"), cli.out);
    }
}
