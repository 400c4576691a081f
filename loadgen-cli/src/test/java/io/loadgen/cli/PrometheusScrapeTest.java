package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.loadgen.drivers.LoopbackServer;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Prometheus scrapes a run's {@code --metrics} endpoint, and PromQL over what it stored gives the run's own
 * numbers: the largest interval p99 of the interval log, and the JSON summary's counts.
 */
class PrometheusScrapeTest {
    /**
     * Float formatting only: the endpoint writes seconds with Java's shortest repr of the double ns / 1e9, Prometheus
     * parses it into the same float64 and its API prints Go's shortest repr of that; both round trips are exact, so
     * the values are equal, and a relative 1e-9 allows nothing a real difference (one HdrHistogram bucket, at least
     * a relative 1e-3 at 3 significant digits) could hide in.
     */
    private static final double FORMAT_TOLERANCE = 1e-9;

    @Test
    void prometheusStoresTheLogsIntervalPercentilesAndTheSummarysCounts(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(PrometheusProcess.BINARY),
                PrometheusProcess.BINARY + " not found: " + PrometheusProcess.INSTALL);
        int metricsPort = LoopbackServer.freePort();
        Path hlog = dir.resolve("run.hlog");
        Path json = dir.resolve("run.json");
        try (PrometheusProcess prometheus = PrometheusProcess.start(metricsPort)) {
            // A store that stops the world for 300 ms every 4 s (held from the driver's open): the intervals holding a
            // pause have an intended p99 of hundreds of ms, the others about the 1 ms delay, so the largest interval p99
            // is one interval's, and Prometheus must have scraped that very interval to report it.
            // --interval 2s against Prometheus's 1 s scrape: every interval's values stand for 2 s, so at least one
            // scrape reads each; --metrics-linger 3s keeps the last one up until scraped too.
            Cli cli = Cli.run("run", "--driver", "mockdb", "-p", "mockdb.delay=1ms", "-p", "mockdb.pause.every=4s",
                    "-p", "mockdb.pause.length=300ms", "--target", "200", "--threads", "2", "-d", "20s",
                    "--interval", "2s", "--hlog", hlog.toString(), "--json", json.toString(),
                    "--metrics", "127.0.0.1:" + metricsPort, "--metrics-linger", "3s", "-q");
            assertEquals(0, cli.exitCode, cli.err);

            double loggedP99s = largestIntervalP99Ns(hlog, "READ.intended") / 1e9;
            double scrapedP99s = prometheus.single("max_over_time(loadgen_latency_seconds{op=\"READ\","
                    + "view=\"intended\",quantile=\"0.99\"}[10m])");
            assertTrue(loggedP99s > 0.1, "a pause of 300 ms should lift some interval's p99 above 100 ms: " + loggedP99s);
            assertEquals(loggedP99s, scrapedP99s, loggedP99s * FORMAT_TOLERANCE,
                    "the p99 series' maximum is the log's largest interval p99");

            JsonNode returns = new ObjectMapper().readTree(json.toFile()).path("operations").path("READ").path("returns");
            assertTrue(returns.path("OK").asLong() > 3000, returns.toString()); // 200/s x 20 s = 4000, less the pauses' tail
            for (Iterator<Map.Entry<String, JsonNode>> it = returns.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> status = it.next();
                double counted = prometheus.single("max_over_time(loadgen_operations_total{op=\"READ\",status=\""
                        + status.getKey() + "\"}[10m])");
                assertEquals(status.getValue().asLong(), counted, 0.0, "operations with status " + status.getKey());
            }
        }
    }

    /** The largest p99 of any interval of {@code tag} in the log: the log's intervals, read back. */
    private static long largestIntervalP99Ns(Path hlog, String tag) throws Exception {
        HistogramLogReader reader = new HistogramLogReader(hlog.toFile());
        long max = 0;
        EncodableHistogram h;
        while ((h = reader.nextIntervalHistogram()) != null) {
            if (tag.equals(h.getTag()) && ((Histogram) h).getTotalCount() > 0) {
                max = Math.max(max, ((Histogram) h).getValueAtPercentile(99));
            }
        }
        return max;
    }
}
