package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Grafana dashboard in {@code deploy/grafana} asks only for metrics the {@code --metrics} endpoint exports: every
 * PromQL expression of its panels and variables, its metric names extracted, against the names of a real scrape.
 */
class GrafanaDashboardTest {
    private static final Path DASHBOARD = Path.of("../deploy/grafana/loadgen-dashboard.json");
    /** PromQL words that are not metric names: aggregation clauses, vector matching, set operators. */
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left",
            "group_right", "bool", "and", "or", "unless", "offset");
    private static final Pattern CLAUSE = Pattern.compile(
            "\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_:][A-Za-z0-9_:]*");

    /** The metric names of one PromQL expression (or a Grafana {@code label_values(METRIC..., label)} query). */
    static Set<String> metricNames(String expr) {
        String e = expr.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"") // string literals: label values, regexes
                .replaceAll("\\{[^}]*}", " ")                          // label matchers
                .replaceAll("\\[[^]]*]", " ");                         // ranges, $__rate_interval
        e = CLAUSE.matcher(e).replaceAll(" ");
        Matcher m = IDENTIFIER.matcher(e);
        Set<String> names = new TreeSet<>();
        while (m.find()) {
            String word = m.group();
            boolean call = e.substring(m.end()).stripLeading().startsWith("(");
            boolean variable = m.start() > 0 && e.charAt(m.start() - 1) == '$';
            if (!call && !variable && !KEYWORDS.contains(word)) {
                names.add(word);
            }
        }
        if (expr.contains("label_values(")) {
            names.remove(expr.replaceAll(".*label_values\\([^,]*,\\s*([A-Za-z_]+)\\s*\\).*", "$1")); // the label
        }
        return names;
    }

    @Test
    void extractsMetricNamesFromPromQl() {
        assertEquals(Set.of("loadgen_operations_total"), metricNames(
                "sum by (op, status) (rate(loadgen_operations_total{run_id=~\"$run\", status!=\"OK\"}[$__rate_interval]))"));
        assertEquals(Set.of("a_metric", "b_metric"), metricNames("a_metric / on(run_id) group_left b_metric > 0"));
        assertEquals(Set.of("loadgen_operations_total"),
                metricNames("label_values(loadgen_operations_total{run_id=~\"$run\"}, shard)"));
    }

    @Test
    void everyQueryOfTheDashboardNamesMetricsTheEndpointExports() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<String> queries = new ArrayList<>();
        collectQueries(dashboard.path("panels"), queries);
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if ("query".equals(variable.path("type").asText())) {
                queries.add(variable.path("query").path("query").asText());
            }
        }
        assertTrue(queries.size() >= 10, "queries found: " + queries);
        Set<String> exported = MetricsScrape.ofRun().names();
        assertTrue(exported.contains("loadgen_latency_seconds"), exported.toString());
        for (String query : queries) {
            Set<String> names = metricNames(query);
            assertFalse(names.isEmpty(), "no metric in " + query);
            for (String name : names) {
                assertTrue(exported.contains(name), name + " (in " + query + ") is not exported; the endpoint has "
                        + exported);
            }
        }
    }

    @Test
    void everyShardGetsItsOwnPanel() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(DASHBOARD.toFile());
        List<JsonNode> repeated = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if ("shard".equals(panel.path("repeat").asText())) {
                repeated.add(panel);
            }
        }
        assertEquals(1, repeated.size(), "one panel repeats on the shard label");
        assertTrue(repeated.get(0).path("targets").get(0).path("expr").asText().contains("shard=\"$shard\""));
    }

    private static void collectQueries(JsonNode panels, List<String> into) {
        for (JsonNode panel : panels) {
            for (JsonNode t : panel.path("targets")) {
                into.add(t.path("expr").asText());
            }
            collectQueries(panel.path("panels"), into);
        }
    }
}
