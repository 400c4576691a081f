package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.drivers.LoopbackServer;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/**
 * A real Prometheus (Debian's package) on a free loopback port, with its own temporary storage and a scrape config
 * that scrapes one target every second; queried through its HTTP API. Used from one test thread; {@link #close}
 * kills it and removes its storage.
 */
final class PrometheusProcess extends LoopbackServer {
    static final Path BINARY = Path.of("/usr/bin/prometheus");
    static final String INSTALL = "the Prometheus test needs a real Prometheus: apt-get install prometheus";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private PrometheusProcess(int targetPort) throws IOException {
        super(BINARY, INSTALL);
        Files.writeString(dir.resolve("prometheus.yml"), String.join("\n",
                "global:",
                "  scrape_interval: 1s",
                "  scrape_timeout: 1s",
                "scrape_configs:",
                "  - job_name: loadgen",
                "    static_configs:",
                "      - targets: ['127.0.0.1:" + targetPort + "']",
                ""));
    }

    /** Starts Prometheus scraping {@code 127.0.0.1:targetPort/metrics} every second; returns once it is ready. */
    static PrometheusProcess start(int targetPort) throws IOException, InterruptedException {
        PrometheusProcess p = new PrometheusProcess(targetPort);
        try {
            p.restart();
        } catch (IOException | InterruptedException | RuntimeException | Error e) {
            p.close();
            throw e;
        }
        return p;
    }

    @Override
    protected List<String> arguments() {
        return List.of("--config.file=" + dir.resolve("prometheus.yml"),
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port);
    }

    @Override
    protected boolean answers() {
        try {
            return get("/-/ready").statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The result of an instant PromQL query ({@code /api/v1/query}): its {@code data.result} array, each element with
     * its {@code metric} labels and {@code value} [time, "number"].
     */
    JsonNode query(String promql) throws IOException, InterruptedException {
        HttpResponse<String> r = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        JsonNode body = JSON.readTree(r.body());
        if (r.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
            throw new AssertionError("query " + promql + " failed: " + r.statusCode() + " " + r.body());
        }
        return body.path("data").path("result");
    }

    /** The value of an instant query that returns one series. */
    double single(String promql) throws IOException, InterruptedException {
        JsonNode result = query(promql);
        if (result.size() != 1) {
            throw new AssertionError("query " + promql + " returned " + result.size() + " series: " + result);
        }
        return Double.parseDouble(result.get(0).path("value").get(1).asText());
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Kills Prometheus and removes its storage (the base class removes only the directory's own files). */
    @Override
    public void close() {
        try {
            kill();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | AssertionError e) {
            // not started, or already gone
        }
        Path data = dir.resolve("data");
        if (Files.exists(data)) {
            try (var walk = Files.walk(data)) {
                walk.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                // a temp dir left behind is harmless
            }
        }
        super.close();
    }
}
