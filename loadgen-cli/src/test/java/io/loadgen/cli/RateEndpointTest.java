package io.loadgen.cli;

import io.loadgen.core.run.LiveMetrics;
import io.loadgen.core.schedule.RateControl;
import io.loadgen.core.time.NanoClock;
import io.loadgen.drivers.LoopbackServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code PUT /rate} on the {@code --metrics} endpoint changes a running run's target from the next interval, as
 * {@code --rate-file} does, and answers with a status a script can act on: 200 taken, 400 not a rate (the
 * command line's own message), 409 a run that cannot change its rate, 405 another method.
 */
class RateEndpointTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @TempDir
    Path dir;

    @Test
    void putRateChangesARunningRunFromTheNextIntervalAndTheLogSaysSo() throws Exception {
        int port = LoopbackServer.freePort();
        Path hlog = dir.resolve("run.hlog");
        Path json = dir.resolve("run.json");
        CompletableFuture<Cli> running = CompletableFuture.supplyAsync(() -> Cli.run("run", "--driver", "mockdb",
                "-p", "mockdb.delay=1ms", "--threads", "8", "--target", "1000", "--duration", "4s",
                "--interval", "500ms", "--seed", "5", "--hlog", hlog.toString(), "--json", json.toString(),
                "--metrics", "127.0.0.1:" + port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(hlog) && Files.readString(hlog).contains("#[StartTime:")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        String url = "http://127.0.0.1:" + port + RateHandler.PATH;
        HttpResponse<String> get = send("GET", url, null);
        assertEquals(200, get.statusCode(), get.body());
        assertEquals("1000", get.body().trim());

        HttpResponse<String> notARate = send("PUT", url, "fast");
        assertEquals(400, notARate.statusCode(), notARate.body());
        assertTrue(notARate.body().contains("'fast' is not a rate"), notARate.body());
        HttpResponse<String> zero = send("PUT", url, "0");
        assertEquals(400, zero.statusCode(), zero.body());
        assertTrue(zero.body().contains("must be a positive rate"), zero.body());
        HttpResponse<String> delete = send("DELETE", url, null);
        assertEquals(405, delete.statusCode(), delete.body());
        assertEquals("GET, PUT", delete.headers().firstValue("Allow").orElse(""));

        Thread.sleep(500);
        HttpResponse<String> put = send("PUT", url + "/3k", null); // rpc-perf's form: the rate in the path
        assertEquals(200, put.statusCode(), put.body());
        assertTrue(put.body().contains("3000 ops/s from the next interval"), put.body());
        assertEquals("3000", send("GET", url, null).body().trim());

        Cli cli = running.get(60, TimeUnit.SECONDS);
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(cli.err.contains("loadgen: PUT /rate from 127.0.0.1: target 3,000 ops/s from the next interval"),
                cli.err);
        // One change, at an interval boundary (a multiple of 0.5 s), named as the endpoint's, with the new rate; the
        // refused requests left nothing.
        String log = Files.readString(hlog);
        Matcher m = Pattern.compile("#\\[event: kind=rate-change source=http start=([0-9.]+) length_ms=0.000"
                + " rate_ops_s=3000]").matcher(log);
        assertTrue(m.find(), "no rate-change event in the log");
        double switchSec = Double.parseDouble(m.group(1));
        assertEquals(0, Math.IEEEremainder(switchSec, 0.5), 0.002, "at a boundary: " + switchSec);
        assertTrue(switchSec >= 0.5 && switchSec <= 3, "switched at " + switchSec);
        assertEquals(1, Pattern.compile("#\\[event: kind=rate-change").matcher(log).results().count());
        // The summary offers the mean target in force: 1000/s until the switch, 3000/s for the rest of the 4 s, and
        // the run achieved it (8 threads at 1 ms carry up to 8000/s).
        double offered = (1000 * switchSec + 3000 * (4 - switchSec)) / 4;
        var summary = new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toFile());
        assertEquals(offered, summary.get("target_ops_per_sec").asDouble(), offered * 0.001);
        assertEquals(offered, summary.get("throughput_ops_per_sec").asDouble(), offered * 0.05);
    }

    @Test
    void aRunThatCannotChangeItsRateAnswersConflictWithTheReason() throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), new LiveMetrics())) {
            RateHandler.refuseOn(endpoint, "sweep");
            String url = "http://127.0.0.1:" + endpoint.port() + RateHandler.PATH;
            HttpResponse<String> put = send("PUT", url, "5k");
            assertEquals(409, put.statusCode(), put.body());
            assertTrue(put.body().contains("sweep sets the rate of each of its steps itself"), put.body());
            assertEquals(409, send("GET", url, null).statusCode());
        }
        // A throttled run's control before its start: the rate is known, a change is refused until it runs.
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(new InetSocketAddress("127.0.0.1", 0), new LiveMetrics())) {
            RateHandler.serveOn(endpoint, new RateControl(2000, 4, 1, 1_000_000_000L, NanoClock.SYSTEM), null);
            String url = "http://127.0.0.1:" + endpoint.port() + RateHandler.PATH;
            assertEquals("2000", send("GET", url, null).body().trim());
            HttpResponse<String> early = send("PUT", url, "5k");
            assertEquals(409, early.statusCode(), early.body());
            assertTrue(early.body().contains("has not started yet"), early.body());
            HttpResponse<String> empty = send("PUT", url, "");
            assertEquals(400, empty.statusCode(), empty.body());
            assertTrue(empty.body().contains("no rate given"), empty.body());
            HttpResponse<String> long_ = send("PUT", url, "9".repeat(300));
            assertEquals(400, long_.statusCode(), long_.body());
        }
    }

    @Test
    void anUnthrottledRunRefusesARateChange() throws Exception {
        int port = LoopbackServer.freePort();
        Path hlog = dir.resolve("run.hlog");
        CompletableFuture<Cli> running = CompletableFuture.supplyAsync(() -> Cli.run("run", "--driver", "mockdb",
                "-p", "mockdb.delay=1ms", "--duration", "3s", "--hlog", hlog.toString(), "-q",
                "--metrics", "127.0.0.1:" + port));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(hlog) && Files.readString(hlog).contains("#[StartTime:")) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        HttpResponse<String> put = send("PUT", "http://127.0.0.1:" + port + RateHandler.PATH, "5k");
        assertEquals(409, put.statusCode(), put.body());
        assertTrue(put.body().contains("unthrottled"), put.body());
        Cli cli = running.get(60, TimeUnit.SECONDS);
        assertEquals(0, cli.exitCode, cli.err);
        assertTrue(!Files.readString(hlog).contains("kind=rate-change"), "no change logged");
    }

    private static HttpResponse<String> send(String method, String url, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }
}
