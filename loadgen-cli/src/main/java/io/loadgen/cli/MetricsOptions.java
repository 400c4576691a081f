package io.loadgen.cli;

import io.loadgen.core.Limits;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * {@code --metrics HOST:PORT} and {@code --metrics-linger TIME} of {@code run}, {@code sweep} and {@code findmax}:
 * where the live metrics endpoint listens ({@link MetricsEndpoint}) and how long it keeps serving the last interval
 * after the run. Parsed on the main thread.
 */
final class MetricsOptions {
    /** The host a bare port binds to: the loopback interface, so nothing is exposed unless asked. */
    static final String DEFAULT_HOST = "127.0.0.1";

    @Option(names = "--metrics", paramLabel = "HOST:PORT", converter = AddressConverter.class, order = 170,
            description = "Serve live metrics for Prometheus (OpenMetrics text) at http://HOST:PORT/metrics: each"
                    + " interval's intended and service percentiles per operation as gauges, the same numbers as the"
                    + " interval log's interval (not a Prometheus summary, whose sliding windows match no interval"
                    + " and cannot be merged), operations by status, offered and achieved rate, harness lag and"
                    + " hiccups, the interval's diagnosis; PUT /rate on the same port changes a run's --target"
                    + " from the next interval. A bare PORT binds " + DEFAULT_HOST + "; 0.0.0.0:PORT"
                    + " exposes it (a container); port 0 takes a free one. See docs/metrics.md.")
    InetSocketAddress metrics;

    @Option(names = "--metrics-linger", paramLabel = "TIME", converter = DurationConverter.class, order = 171,
            defaultValue = "0s",
            description = "After the run, keep --metrics serving its last interval this long (e.g. 2x the scrape"
                    + " interval), so Prometheus scrapes the final counts; default ${DEFAULT-VALUE}.")
    Duration linger;

    /** What a command runs while its endpoint serves: given the run's live metrics and the endpoint, or nulls. */
    @FunctionalInterface
    interface Serving {
        int run(io.loadgen.core.run.LiveMetrics live, MetricsEndpoint endpoint) throws Exception;
    }

    /**
     * Runs {@code body} with the endpoint serving when {@code --metrics} was given (announced on stderr unless
     * {@code quiet}), then keeps it serving for {@code --metrics-linger} and closes it; without {@code --metrics},
     * just {@code body} with nulls. A port in use is bad input (exit 2) before anything runs. Main thread.
     */
    int serve(Streams io, boolean quiet, Serving body) throws Exception {
        if (metrics == null) {
            return body.run(null, null);
        }
        io.loadgen.core.run.LiveMetrics live = new io.loadgen.core.run.LiveMetrics();
        MetricsEndpoint endpoint = MetricsEndpoint.start(metrics, live);
        try {
            if (!quiet) {
                io.err().println("loadgen: metrics at " + endpoint.url());
            }
            int code = body.run(live, endpoint);
            endpoint.closeAfter(linger, quiet ? null : io.err());
            return code;
        } finally {
            endpoint.close();
        }
    }

    /** Reads {@code PORT}, {@code HOST:PORT} or {@code [IPv6]:PORT}, the host not yet resolved. */
    static final class AddressConverter implements ITypeConverter<InetSocketAddress> {
        @Override
        public InetSocketAddress convert(String value) {
            String v = value.trim();
            int colon = v.lastIndexOf(':');
            String host = colon < 0 ? DEFAULT_HOST : v.substring(0, colon);
            String port = v.substring(colon + 1);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host.isEmpty() || host.contains(":") && !v.startsWith("[")) {
                throw bad(value);
            }
            int p;
            try {
                p = Integer.parseInt(port);
            } catch (NumberFormatException e) {
                throw bad(value);
            }
            if (p < 0 || p > 65535) {
                throw new TypeConversionException("'" + Limits.quote(value) + "': port " + p + " is not 0-65535;"
                        + " give HOST:PORT, e.g. 127.0.0.1:9400 (0 takes a free port)");
            }
            return InetSocketAddress.createUnresolved(host, p);
        }

        private static TypeConversionException bad(String value) {
            return new TypeConversionException("'" + Limits.quote(value) + "' is not HOST:PORT; give e.g. 9400,"
                    + " 127.0.0.1:9400, [::1]:9400 or, in a container, 0.0.0.0:9400");
        }
    }
}
