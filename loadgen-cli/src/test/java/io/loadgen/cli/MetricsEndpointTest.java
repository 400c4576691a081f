package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.run.LiveMetrics;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code --metrics} endpoint: what a scrape reads, another path on the same port, and refusals of bad addresses. */
class MetricsEndpointTest {
    @Test
    void aRunsScrapeHasEveryFamilyWithTheRunsLabels() throws Exception {
        MetricsScrape scrape = MetricsScrape.ofRun();
        assertEquals(0, scrape.run.exitCode, scrape.run.err);
        for (String name : new String[]{"loadgen_latency_seconds", "loadgen_operations_total",
                "loadgen_offered_operations_per_second", "loadgen_achieved_operations_per_second",
                "loadgen_harness_lag_seconds", "loadgen_harness_hiccup_seconds", "loadgen_diagnosis_cause",
                "loadgen_behind_schedule_seconds"}) {
            assertTrue(scrape.names().contains(name), name + " missing from:\n" + scrape.text);
        }
        // Every view's five quantiles, max as quantile 1, with the run's identity
        for (String q : LiveMetricsCollector.QUANTILES) {
            assertTrue(scrape.text.matches("(?s).*loadgen_latency_seconds\\{driver=\"mockdb\",op=\"READ\",quantile=\""
                    + java.util.regex.Pattern.quote(q) + "\",run_id=\"[0-9a-f-]{36}\",shard=\"0\",view=\"intended\"} .*"),
                    "quantile " + q + " in:\n" + scrape.text);
        }
        assertTrue(scrape.text.contains("loadgen_offered_operations_per_second{driver=\"mockdb\""));
    }

    @Test
    void anAddedHandlerServesItsPathOnTheSamePort() throws Exception {
        try (MetricsEndpoint endpoint = MetricsEndpoint.start(
                InetSocketAddress.createUnresolved("127.0.0.1", 0), new LiveMetrics())) {
            endpoint.addHandler("/rate", exchange -> {
                byte[] body = ("you asked " + exchange.getRequestMethod()).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            assertEquals("you asked GET", MetricsScrape.get(endpoint.port(), "/rate"));
            // Before the first interval the endpoint answers, with nothing to say yet
            assertEquals("", MetricsScrape.get(endpoint.port(), "/metrics").strip());
        }
    }

    @Test
    void aPortInUseIsNamedWithTheFix() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            BadInputException e = assertThrows(BadInputException.class, () -> MetricsEndpoint.start(
                    InetSocketAddress.createUnresolved("127.0.0.1", taken.getLocalPort()), new LiveMetrics()));
            assertEquals("--metrics 127.0.0.1:" + taken.getLocalPort() + ": the port is in use; choose another port"
                    + " (0 takes a free one)", e.getMessage());
        }
    }

    @Test
    void readsPortsAndHostPorts() {
        MetricsOptions.AddressConverter c = new MetricsOptions.AddressConverter();
        assertEquals("127.0.0.1:9400", show(c.convert("9400")));
        assertEquals("0.0.0.0:9400", show(c.convert("0.0.0.0:9400")));
        assertEquals("::1:9400", show(c.convert("[::1]:9400")));
        for (String bad : new String[]{"host:", ":9400", "x:y", "1:2:3", "127.0.0.1:65536", "127.0.0.1:-1"}) {
            assertThrows(picocli.CommandLine.TypeConversionException.class, () -> c.convert(bad), bad);
        }
    }

    private static String show(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }
}
