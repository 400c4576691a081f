package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.run.LiveMetrics;
import io.loadgen.drivers.LoopbackServer;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
                    + Pattern.quote(q) + "\",run_id=\"[0-9a-f-]{36}\",shard=\"0\",view=\"intended\"} .*"),
                    "quantile " + q + " in:\n" + scrape.text);
        }
        assertTrue(scrape.text.contains("loadgen_offered_operations_per_second{driver=\"mockdb\""));
    }

    @Test
    void eachStepOfASweepIsARunOfItsOwn() throws Exception {
        int port = LoopbackServer.freePort();
        List<MetricsScrape> scrapes = MetricsScrape.during(port, "sweep", "--driver", "mockdb", "-p",
                "mockdb.delay=1ms", "--rates", "200,400", "-d", "2s", "--interval", "1s",
                "--metrics", "127.0.0.1:" + port, "--metrics-linger", "2s", "-q");
        assertEquals(0, scrapes.get(scrapes.size() - 1).run.exitCode, scrapes.get(scrapes.size() - 1).run.err);
        Set<String> runIds = new TreeSet<>();
        Set<String> offered = new TreeSet<>();
        Pattern runId = Pattern.compile("run_id=\"([0-9a-f-]{36})\"");
        Pattern rate = Pattern.compile(
                "(?m)^loadgen_offered_operations_per_second\\{[^}]*} (\\S+)$");
        for (MetricsScrape s : scrapes) {
            Matcher m = runId.matcher(s.text);
            while (m.find()) {
                runIds.add(m.group(1));
            }
            Matcher r = rate.matcher(s.text);
            while (r.find()) {
                offered.add(r.group(1));
            }
        }
        assertEquals(2, runIds.size(), "two steps, two run ids: " + runIds);
        assertEquals(Set.of("200.0", "400.0"), offered, "each step's offered rate");
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
