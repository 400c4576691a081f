package io.loadgen.drivers.http;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.driver.Status;
import io.loadgen.core.record.View;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.KeyManagerFactory;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD;

/** The {@code http} driver against a real {@link HttpTargetServer} on loopback. */
class HttpDriverTest {
    private static final InetSocketAddress ANY_PORT = new InetSocketAddress("127.0.0.1", 0);

    /**
     * Several named requests in one run, each its own operation type and series, mixed by weight; each status
     * class ends as its own status: 200 OK, 404 NOT_FOUND, 503 SERVICE_UNAVAILABLE, 302 ERROR (not 2xx). The
     * driver's counts by class add up to the operations of each type.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void namedRequestsAreSeriesOfTheirOwnAndStatusClassesAreCounted(@TempDir Path dir) throws Exception {
        try (HttpTargetServer server = HttpTargetServer.start(ANY_PORT, HttpTargetServer.Options.DEFAULT)) {
            Path requests = dir.resolve("requests.yaml");
            Files.writeString(requests, String.join("\n",
                    "requests:",
                    "  - {name: home, url: '" + server.url("/") + "', weight: 4}",
                    "  - {name: missing, url: '" + server.url("/status/404") + "', weight: 2}",
                    "  - {name: busy, url: '" + server.url("/status/503") + "', weight: 1}",
                    "  - {name: moved, url: '" + server.url("/status/302") + "', weight: 1}", ""));
            RunResult r = run(RunOptions.builder("http").property("http.requests", requests.toString())
                    .target(2000.0).threads(2).duration(Duration.ofMillis(1000)));
            assertEquals(List.of("home", "missing", "busy", "moved"),
                    r.operations().stream().map(OpResult::name).toList());
            OpResult home = op(r, "home");
            OpResult missing = op(r, "missing");
            OpResult busy = op(r, "busy");
            OpResult moved = op(r, "moved");
            assertEquals(home.count(), home.statusCount(Status.OK));
            assertEquals(missing.count(), missing.statusCount(Status.NOT_FOUND));
            assertEquals(busy.count(), busy.statusCount(Status.SERVICE_UNAVAILABLE));
            assertEquals(moved.count(), moved.statusCount(Status.ERROR));
            assertEquals(0, missing.histogram(View.INTENDED).getTotalCount(), "failures stay out of the success series");
            assertEquals(missing.count(), missing.failedHistogram(View.INTENDED).getTotalCount());
            long total = r.totalOperations();
            // weights 4:2:1:1 of about 2000 draws: each share within 5 standard deviations of its binomial mean
            double sd = Math.sqrt(total * 0.5 * 0.5);
            assertEquals(total * 0.5, home.count(), 5 * sd, "home's share of the mix: 4/8");
            Map<String, Number> stats = r.driverStats();
            long sent = stats.get("requests").longValue();
            assertTrue(sent - total >= 0 && sent - total <= 2, "at most one request per connection in flight at the end");
            assertTrue(stats.get("status_2xx").longValue() >= home.count());
            assertTrue(stats.get("status_3xx").longValue() >= moved.count());
            assertTrue(stats.get("status_4xx").longValue() >= missing.count());
            assertTrue(stats.get("status_5xx").longValue() >= busy.count());
            long byClass = stats.get("status_2xx").longValue() + stats.get("status_3xx").longValue()
                    + stats.get("status_4xx").longValue() + stats.get("status_5xx").longValue();
            assertTrue(byClass >= total && byClass <= sent, "every answer counted once by class: " + stats);
        }
    }

    /** {@code http.success} widens what counts as OK: with 2xx,3xx a 302 is OK. */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void successClassesAreTheUsersToChoose() throws Exception {
        try (HttpTargetServer server = HttpTargetServer.start(ANY_PORT, HttpTargetServer.Options.DEFAULT)) {
            RunResult r = run(RunOptions.builder("http").property("http.url", server.url("/status/302"))
                    .property("http.success", "2xx,3xx").operations(200L));
            assertEquals(200, op(r, "GET").statusCount(Status.OK));
        }
    }

    /**
     * Without --max-in-flight, http.connections is the concurrency (wrk's -c): against a server that holds
     * every response D = 50 ms, unthrottled for 1 s, C connections complete C / D = 20 C requests a second.
     * With C = 4 on 2 threads: 80, within 20% (the run's last partial round, the timers' lateness).
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void connectionsAreTheConcurrencyAsWrksC() throws Exception {
        try (HttpTargetServer server = HttpTargetServer.start(ANY_PORT,
                HttpTargetServer.Options.DEFAULT.withDelay(Duration.ofMillis(50)))) {
            RunResult r = run(RunOptions.builder("http").property("http.url", server.url("/"))
                    .property("http.connections", "4").threads(2).duration(Duration.ofSeconds(1)));
            assertEquals(4, r.harness().get("max_concurrency").intValue());
            assertEquals(4, r.driverStats().get("connections").intValue());
            assertEquals(80, r.throughputOpsPerSec(), 16, "C / D = 4 / 50 ms");
        }
    }

    /**
     * A request unanswered http.timeout after it was sent completes with TIMEOUT at its deadline (service near
     * 100 ms, not the server's 400 ms), the connection is reopened for the next one, and every operation is
     * counted once: timeouts in the driver's counters equal the TIMEOUT returns.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void aTimeoutEndsTheRequestAtItsDeadlineAndTheConnectionIsReopened() throws Exception {
        try (HttpTargetServer server = HttpTargetServer.start(ANY_PORT,
                HttpTargetServer.Options.DEFAULT.withDelay(Duration.ofMillis(400)))) {
            RunResult r = run(RunOptions.builder("http").property("http.url", server.url("/"))
                    .property("http.timeout", "100ms").coldStart(true).target(5.0).duration(Duration.ofMillis(1000)));
            OpResult get = op(r, "GET");
            assertTrue(get.count() >= 4, "5/s for 1 s: " + get.count());
            assertEquals(get.count(), get.statusCount(Status.TIMEOUT));
            assertEquals(get.count(), r.driverStats().get("timeouts").longValue());
            assertTrue(r.driverStats().get("reconnects").longValue() >= get.count() - 1);
            long maxMs = TimeUnit.NANOSECONDS.toMillis(get.failedHistogram(View.SERVICE).getMaxValue());
            assertTrue(maxMs >= 100 && maxMs < 150, "service ends at the 100 ms deadline: " + maxMs + " ms");
        }
    }

    /**
     * Pipelined HEAD and POST on one connection: a HEAD's response has a Content-Length but no body, and the
     * decoder must not wait for one (else every later response on the connection is misread); a POST's body
     * goes out with its length. Every request is answered OK and none is unreadable.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void pipelinedHeadAndPostAreFramedRight(@TempDir Path dir) throws Exception {
        try (HttpTargetServer server = HttpTargetServer.start(ANY_PORT, HttpTargetServer.Options.DEFAULT)) {
            Path body = dir.resolve("body.json");
            Files.writeString(body, "{\"q\": \"x\"}");
            Path requests = dir.resolve("requests.json");
            Files.writeString(requests, "[{\"name\": \"head\", \"method\": \"HEAD\", \"url\": \"" + server.url("/") + "\"},"
                    + " {\"name\": \"post\", \"method\": \"POST\", \"url\": \"" + server.url("/search?x=1") + "\","
                    + " \"headers\": {\"Content-Type\": \"application/json\"}, \"body\": \"@body.json\"}]");
            RunResult r = run(RunOptions.builder("http").property("http.requests", requests.toString())
                    .property("http.connections", "1").property("http.pipelining", "8").maxInFlight(8)
                    .target(4000.0).duration(Duration.ofMillis(800)));
            for (OpResult op : r.operations()) {
                assertEquals(op.count(), op.statusCount(Status.OK), op.name() + ": " + r.driverStats());
                assertTrue(op.count() > 500, op.name() + " ran: " + op.count());
            }
            assertEquals(0, r.driverStats().get("bad_responses").longValue());
            assertEquals(8, r.harness().get("max_concurrency").intValue());
        }
    }

    /**
     * https against a server with a self-signed certificate (made by the JDK's keytool): refused with a line
     * that names http.insecure, and answered OK with it.
     */
    @Test
    @Timeout(value = 60, threadMode = SEPARATE_THREAD)
    void httpsWithASelfSignedCertificate(@TempDir Path dir) throws Exception {
        try (HttpTargetServer server = HttpTargetServer.start(ANY_PORT,
                HttpTargetServer.Options.DEFAULT.withTls(selfSigned(dir)))) {
            String url = server.url("/");
            assertTrue(url.startsWith("https://"), url);
            BadInputException refused = assertThrows(BadInputException.class,
                    () -> run(RunOptions.builder("http").property("http.url", url).operations(10L)));
            assertTrue(refused.getMessage().contains("cannot connect to " + url.substring(0, url.length() - 1))
                    && refused.getMessage().contains("http.insecure=true"), refused.getMessage());
            RunResult r = run(RunOptions.builder("http").property("http.url", url).property("http.insecure", "true")
                    .target(500.0).duration(Duration.ofMillis(500)));
            OpResult get = op(r, "GET");
            assertTrue(get.count() > 100);
            assertEquals(get.count(), get.statusCount(Status.OK));
        }
    }

    @Test
    void aServerThatIsNotThereIsOneLine() {
        int port;
        try (HttpTargetServer server = HttpTargetServer.start(ANY_PORT, HttpTargetServer.Options.DEFAULT)) {
            port = server.port(); // closed again: nothing listens there now
        }
        BadInputException e = assertThrows(BadInputException.class, () -> run(RunOptions.builder("http")
                .property("http.url", "http://127.0.0.1:" + port + "/").operations(1L)));
        assertTrue(e.getMessage().startsWith("http: cannot connect to http://127.0.0.1:" + port + " ("), e.getMessage());
        assertTrue(e.getMessage().contains("loadgen http-server --port " + port), e.getMessage());
    }

    @Test
    void fewerConnectionsThanThreadsIsRefused() {
        BadInputException e = assertThrows(BadInputException.class, () -> run(RunOptions.builder("http")
                .property("http.connections", "2").threads(4).operations(1L)));
        assertEquals("http.connections 2 is fewer than --threads 4: each thread needs a connection; give at least 4"
                + " connections, or fewer threads", e.getMessage());
    }

    private static RunResult run(RunOptions.Builder b) throws Exception {
        return new LoadRun(b.seed(1).build(), DriverRegistry.find("http"), null).run();
    }

    private static OpResult op(RunResult r, String name) {
        return r.operations().stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }

    /** A server TLS context with a self-signed certificate for 127.0.0.1, made by the JDK's own keytool. */
    static SslContext selfSigned(Path dir) throws Exception {
        Path store = dir.resolve("server.p12");
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname",
                "secp256r1", "-dname", "CN=localhost", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "changeit", "-keypass", "changeit")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "keytool: " + out);
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        return SslContextBuilder.forServer(kmf).build();
    }
}
