package io.loadgen.cli;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.loadgen.core.BadInputException;
import io.loadgen.core.run.LiveMetrics;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.io.PrintStream;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The {@code --metrics} endpoint: an HTTP server on the JDK's {@code com.sun.net.httpserver} that serves
 * {@code GET /metrics} through the Prometheus client's {@link MetricsHandler} (OpenMetrics or Prometheus text, as the
 * scraper asks) from a {@link LiveMetricsCollector} over a {@link LiveMetrics}. Further paths of the same server
 * are added with {@link #addHandler} (e.g. a {@code PUT /rate}).
 * <pre><code>
 * LiveMetrics live = new LiveMetrics();
 * try (MetricsEndpoint endpoint = MetricsEndpoint.start(address, live)) {
 *     endpoint.addHandler("/rate", rateHandler);
 *     new LoadRun(options, provider, System.err).publishTo(live).run();
 * }
 * </code></pre>
 * Threads: started and closed by the command's main thread; requests are served on one daemon thread of its own,
 * which reads the run's latest interval (never a worker's state, so the recording path neither waits nor allocates
 * for a scrape).
 */
final class MetricsEndpoint implements AutoCloseable {
    /** The path Prometheus scrapes. */
    static final String METRICS_PATH = "/metrics";

    private final HttpServer server;
    private final ExecutorService executor;

    private MetricsEndpoint(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Binds {@code address} (unresolved, as {@link MetricsOptions} reads it) and starts serving {@code live}.
     *
     * @throws BadInputException naming the option and the fix: an unknown host, an address not of this machine,
     *                           a port in use or not allowed
     */
    static MetricsEndpoint start(InetSocketAddress address, LiveMetrics live) {
        String what = "--metrics " + address.getHostString() + ":" + address.getPort();
        InetSocketAddress bound;
        try {
            bound = new InetSocketAddress(InetAddress.getByName(address.getHostString()), address.getPort());
        } catch (UnknownHostException e) {
            throw new BadInputException(what + ": unknown host '" + address.getHostString() + "'; give an address of"
                    + " this machine, e.g. 127.0.0.1:" + address.getPort() + ", or 0.0.0.0:" + address.getPort()
                    + " in a container", e);
        }
        HttpServer server;
        try {
            server = HttpServer.create(bound, 8);
        } catch (BindException e) {
            String why = e.getMessage() == null ? "" : e.getMessage().toLowerCase(java.util.Locale.ROOT);
            throw new BadInputException(what + ": " + (why.contains("in use") ? "the port is in use; choose another"
                    + " port (0 takes a free one)" : why.contains("assign") ? "not an address of this machine; give"
                    + " 127.0.0.1:PORT, or 0.0.0.0:PORT in a container" : "cannot listen (" + e.getMessage()
                    + "); choose another port (0 takes a free one)"), e);
        } catch (IOException e) {
            throw new BadInputException(what + ": cannot listen (" + e.getMessage() + "); choose another address", e);
        }
        PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new LiveMetricsCollector(live));
        server.createContext(METRICS_PATH, new MetricsHandler(registry));
        ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "loadgen-metrics");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.start();
        return new MetricsEndpoint(server, executor);
    }

    /**
     * Serves {@code path} (and every path under it) with {@code handler} on this endpoint's server, next to
     * {@code /metrics}: how a command adds control of the run to the same port (e.g. {@code PUT /rate}). The handler
     * runs on the endpoint's own thread, one request at a time; it must answer every exchange (a status and a
     * body, then close it). Any thread, before or while serving.
     *
     * @throws IllegalArgumentException when {@code path} is already served
     */
    void addHandler(String path, HttpHandler handler) {
        server.createContext(path, handler);
    }

    /** The port listened on: the one asked, or the free one taken for port 0. */
    int port() {
        return server.getAddress().getPort();
    }

    /** The URL Prometheus scrapes, for the line that announces it. */
    String url() {
        InetSocketAddress a = server.getAddress();
        String host = a.getAddress().getHostAddress();
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort() + METRICS_PATH;
    }

    /**
     * Keeps serving for {@code linger} (so a scraper reads the run's last interval), then closes. A stop (an
     * interrupt) ends the wait at once. Main thread, after the run.
     */
    void closeAfter(Duration linger, PrintStream say) {
        if (!linger.isZero()) {
            if (say != null) {
                say.println("loadgen: --metrics-linger: serving the last interval at " + url() + " for "
                        + io.loadgen.core.time.Durations.format(linger));
            }
            try {
                Thread.sleep(linger.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        close();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
