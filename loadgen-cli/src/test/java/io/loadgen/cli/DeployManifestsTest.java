package io.loadgen.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Kubernetes manifests under {@code deploy/kubernetes}, checked without a cluster: each document is YAML
 * with an apiVersion, kind and name; what one refers to (a claim, a ConfigMap key, a Service, a volume) is
 * defined among them; the shards' Job is Indexed with parallelism, completions and LOADGEN_SHARDS equal and
 * JOB_COMPLETION_INDEX from the pod's index; and every loadgen container's arguments, with Kubernetes'
 * {@code $(VAR)} references expanded as the kubelet expands them, parse as a loadgen command line.
 */
class DeployManifestsTest {
    private static final Path DIR = Path.of("../deploy/kubernetes");
    private static final Pattern REFERENCE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");
    private static final String INDEX_ANNOTATION = "metadata.annotations['batch.kubernetes.io/job-completion-index']";
    private static final List<JsonNode> DOCS = new ArrayList<>();

    @BeforeAll
    static void read() throws IOException {
        YAMLMapper yaml = new YAMLMapper();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                try (var docs = yaml.readerFor(JsonNode.class).<JsonNode>readValues(file.toFile())) {
                    while (docs.hasNext()) {
                        JsonNode doc = docs.next();
                        for (String field : List.of("apiVersion", "kind")) {
                            assertTrue(doc.path(field).isTextual(), file + ": a document without " + field);
                        }
                        assertFalse(doc.path("metadata").path("name").asText().isEmpty(), file + ": a " + doc.path("kind")
                                + " without metadata.name");
                        DOCS.add(doc);
                    }
                }
            }
        }
        assertTrue(DOCS.size() >= 6, "the manifests were found: " + DOCS.size());
    }

    private static List<JsonNode> ofKind(String kind) {
        return DOCS.stream().filter(d -> d.path("kind").asText().equals(kind)).toList();
    }

    private static JsonNode named(String kind, String name) {
        return ofKind(kind).stream().filter(d -> d.path("metadata").path("name").asText().equals(name)).findFirst()
                .orElse(null);
    }

    private static List<JsonNode> containers(JsonNode podSpec) {
        List<JsonNode> all = new ArrayList<>();
        podSpec.path("initContainers").forEach(all::add);
        podSpec.path("containers").forEach(all::add);
        return all;
    }

    private static List<JsonNode> jobs() {
        List<JsonNode> jobs = ofKind("Job");
        assertEquals(2, jobs.size(), "the shards' Job and the merge Job");
        return jobs;
    }

    @Test
    void theShardsJobIsIndexedWithOneShardCountThroughout() {
        JsonNode shards = named("Job", "loadgen-shards");
        assertNotNull(shards);
        JsonNode spec = shards.path("spec");
        assertEquals("Indexed", spec.path("completionMode").asText());
        int completions = spec.path("completions").asInt();
        assertTrue(completions > 1, "more than one shard");
        assertEquals(completions, spec.path("parallelism").asInt(), "every shard runs at once");
        for (JsonNode c : containers(spec.path("template").path("spec"))) {
            Map<String, JsonNode> env = env(c);
            assertEquals(String.valueOf(completions), env.get("LOADGEN_SHARDS").path("value").asText(),
                    c.path("name") + ": LOADGEN_SHARDS is the Job's completions");
            assertEquals(INDEX_ANNOTATION, env.get("JOB_COMPLETION_INDEX").path("valueFrom").path("fieldRef")
                    .path("fieldPath").asText(), c.path("name") + ": the shard index is the pod's completion index");
        }
    }

    @Test
    void everyLoadgenContainerParsesAsALoadgenCommandLine() {
        int parsed = 0;
        for (JsonNode job : jobs()) {
            for (JsonNode c : containers(job.path("spec").path("template").path("spec"))) {
                assertTrue(c.path("image").asText().startsWith("loadgen"), c.path("name") + ": the loadgen image");
                assertTrue(c.path("command").isMissingNode(), c.path("name") + ": the image's entrypoint runs loadgen");
                List<String> args = args(c);
                assertEquals(null, ReadmeExamplesTest.parse(args), c.path("name") + ": " + args);
                parsed++;
            }
        }
        assertEquals(4, parsed, "load, run, report and gate");
    }

    @Test
    void prometheusScrapesTheShardsWhereTheirRunServesMetrics() {
        JsonNode template = named("Job", "loadgen-shards").path("spec").path("template");
        JsonNode annotations = template.path("metadata").path("annotations");
        assertEquals("true", annotations.path("prometheus.io/scrape").asText());
        assertEquals(MetricsEndpoint.METRICS_PATH, annotations.path("prometheus.io/path").asText());
        JsonNode run = containers(template.path("spec")).stream()
                .filter(c -> c.path("name").asText().equals("run")).findFirst().orElseThrow();
        List<String> runArgs = args(run);
        String address = runArgs.get(runArgs.indexOf("--metrics") + 1);
        assertEquals("0.0.0.0:" + annotations.path("prometheus.io/port").asText(), address,
                "the run listens on every interface of the pod, at the annotated port");
        assertEquals(annotations.path("prometheus.io/port").asInt(), run.path("ports").get(0).path("containerPort")
                .asInt(), "the container declares the port");
    }

    @Test
    void theMergeReadsTheLogsTheShardsWrite() {
        JsonNode run = containers(named("Job", "loadgen-shards").path("spec").path("template").path("spec")).stream()
                .filter(c -> c.path("name").asText().equals("run")).findFirst().orElseThrow();
        List<String> runArgs = args(run);
        Path written = Path.of(runArgs.get(runArgs.indexOf("--hlog") + 1));
        for (JsonNode c : containers(named("Job", "loadgen-merge").path("spec").path("template").path("spec"))) {
            String glob = args(c).get(1);
            PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + glob);
            assertTrue(m.matches(written), c.path("name") + "'s " + glob + " matches the shard log " + written);
            assertEquals(mountOf(run, "logs"), mountOf(c, "logs"), "the same volume at the same place");
        }
    }

    @Test
    void whatTheManifestsReferToIsDefinedAmongThem() {
        for (JsonNode job : jobs()) {
            JsonNode pod = job.path("spec").path("template").path("spec");
            assertTrue(List.of("Never", "OnFailure").contains(pod.path("restartPolicy").asText()), "a Job's pods end");
            Map<String, JsonNode> volumes = new HashMap<>();
            pod.path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));
            for (JsonNode v : volumes.values()) {
                String claim = v.path("persistentVolumeClaim").path("claimName").asText();
                JsonNode pvc = named("PersistentVolumeClaim", claim);
                assertNotNull(pvc, "the claim " + claim);
                assertTrue(pvc.path("spec").path("accessModes").toString().contains("ReadWriteMany"),
                        "shards on several nodes write the claim at once");
            }
            for (JsonNode c : containers(pod)) {
                c.path("volumeMounts").forEach(m -> assertTrue(volumes.containsKey(m.path("name").asText()),
                        c.path("name") + " mounts " + m.path("name")));
                for (String arg : args(c)) {
                    if (arg.startsWith("redis.uri=")) {
                        URI uri = URI.create(arg.substring("redis.uri=".length()));
                        JsonNode service = named("Service", uri.getHost());
                        assertNotNull(service, "the Service " + uri.getHost());
                        assertEquals(uri.getPort(), service.path("spec").path("ports").get(0).path("port").asInt());
                        JsonNode selector = service.path("spec").path("selector");
                        assertTrue(ofKind("Deployment").stream().anyMatch(d -> d.path("spec").path("template")
                                .path("metadata").path("labels").equals(selector)), "a Deployment behind " + uri);
                    }
                }
            }
        }
    }

    private static Map<String, JsonNode> env(JsonNode container) {
        Map<String, JsonNode> env = new HashMap<>();
        container.path("env").forEach(e -> env.put(e.path("name").asText(), e));
        return env;
    }

    /**
     * The container's arguments as the kubelet passes them: {@code $(VAR)} replaced by the variable's value,
     * a ConfigMap key's as the manifest sets it, and the completion index as 0 (the first shard).
     */
    private static List<String> args(JsonNode container) {
        Map<String, String> values = new HashMap<>();
        env(container).forEach((name, e) -> {
            JsonNode from = e.path("valueFrom");
            if (e.has("value")) {
                values.put(name, e.path("value").asText());
            } else if (from.has("configMapKeyRef")) {
                JsonNode ref = from.path("configMapKeyRef");
                JsonNode map = named("ConfigMap", ref.path("name").asText());
                assertNotNull(map, "the ConfigMap " + ref.path("name"));
                assertTrue(map.path("data").has(ref.path("key").asText()), "the key " + ref.path("key"));
                values.put(name, map.path("data").path(ref.path("key").asText()).asText());
            } else if (from.path("fieldRef").path("fieldPath").asText().equals(INDEX_ANNOTATION)) {
                values.put(name, "0");
            }
        });
        List<String> args = new ArrayList<>();
        for (JsonNode a : container.path("args")) {
            Matcher m = REFERENCE.matcher(a.asText());
            StringBuilder expanded = new StringBuilder();
            while (m.find()) {
                assertTrue(values.containsKey(m.group(1)), container.path("name") + " refers to " + m.group());
                m.appendReplacement(expanded, Matcher.quoteReplacement(values.get(m.group(1))));
            }
            m.appendTail(expanded);
            args.add(expanded.toString());
        }
        return args;
    }

    private static String mountOf(JsonNode container, String volume) {
        for (JsonNode m : container.path("volumeMounts")) {
            if (m.path("name").asText().equals(volume)) {
                return m.path("mountPath").asText();
            }
        }
        return null;
    }
}
