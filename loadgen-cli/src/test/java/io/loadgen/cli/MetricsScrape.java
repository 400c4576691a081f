package io.loadgen.cli;

import io.loadgen.drivers.LoopbackServer;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A short throttled mockdb run with {@code --metrics} on a free loopback port, in this JVM, and one scrape of its
 * endpoint once an interval has closed: what tests compare against. Bounded: the run lasts 3 s plus a 3 s linger,
 * the polling 10 s at most.
 */
final class MetricsScrape {
    /** The endpoint's text (Prometheus text format, as asked without an Accept header) and the run's outcome. */
    final String text;
    final Cli run;
    final int port;

    private MetricsScrape(String text, Cli run, int port) {
        this.text = text;
        this.run = run;
        this.port = port;
    }

    static MetricsScrape ofRun() throws Exception {
        int port = LoopbackServer.freePort();
        CompletableFuture<Cli> run = CompletableFuture.supplyAsync(() -> Cli.run("run", "--driver", "mockdb",
                "-p", "mockdb.delay=1ms", "--target", "500", "-d", "3s", "--interval", "1s",
                "--metrics", "127.0.0.1:" + port, "--metrics-linger", "3s", "-q"));
        String text = null;
        long deadlineNs = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() - deadlineNs < 0 && !run.isDone()) {
            String body = get(port, MetricsEndpoint.METRICS_PATH);
            if (body != null && body.contains("loadgen_latency_seconds{")) {
                text = body;
                break;
            }
            Thread.sleep(100);
        }
        Cli done = run.get();
        if (text == null) {
            throw new AssertionError("no interval was served at port " + port + "; the run said: " + done.err);
        }
        return new MetricsScrape(text, done, port);
    }

    /**
     * Every scrape of {@code port} taken every 200 ms while the command {@code args} runs (it must serve there and
     * end within 30 s), and the command's outcome as the last element's {@link #run}.
     */
    static List<MetricsScrape> during(int port, String... args) throws Exception {
        CompletableFuture<Cli> run = CompletableFuture.supplyAsync(() -> Cli.run(args));
        List<String> bodies = new ArrayList<>();
        long deadlineNs = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (System.nanoTime() - deadlineNs < 0 && !run.isDone()) {
            String body = get(port, MetricsEndpoint.METRICS_PATH);
            if (body != null && !body.isBlank()) {
                bodies.add(body);
            }
            Thread.sleep(200);
        }
        Cli done = run.get(30, TimeUnit.SECONDS);
        return bodies.stream().map(b -> new MetricsScrape(b, done, port)).toList();
    }

    /** The body of {@code GET path}, or null when nothing answers (yet). */
    static String get(int port, String path) throws InterruptedException {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(2)).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 ? r.body() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /** The names of the samples in the scrape, as PromQL names them ({@code loadgen_operations_total}). */
    Set<String> names() {
        Set<String> names = new TreeSet<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank() && !line.startsWith("#")) {
                names.add(line.split("[{ ]", 2)[0]);
            }
        }
        return names;
    }
}
