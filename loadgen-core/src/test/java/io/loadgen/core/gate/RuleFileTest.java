package io.loadgen.core.gate;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RuleFileTest {
    @TempDir
    Path dir;

    private Path file(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    private static List<String> texts(List<Rule> rules) {
        return rules.stream().map(Rule::text).toList();
    }

    @Test
    void k6ThresholdsAsAK6ScriptsOptionsHoldThem() throws IOException {
        Path f = file("k6.yaml", """
                thresholds:
                  http_req_duration: ['p(99)<200', {threshold: 'avg<100'}]
                  http_req_duration{name:READ}: ['p(95)<=300']
                  http_req_failed: ['rate<0.01']
                  http_req_failed{name:READ}: 'rate<0.05'
                  http_reqs: ['rate>9500']
                """);
        assertEquals(List.of("*.intended.p99 < 200ms", "*.intended.mean < 100ms", "READ.intended.p95 <= 300ms",
                "error_rate < 0.01", "READ.error_rate < 0.05", "throughput > 9500/s"),
                texts(RuleFile.read(f, "--rule-file")));
    }

    @Test
    void k6ThresholdsWithoutACounterpartAreRefusedWithLoadgensForm() throws IOException {
        Path tagged = file("tagged.json", "{\"http_req_duration{status:200}\": [\"p(99)<200\"]}");
        BadInputException e = assertThrows(BadInputException.class, () -> RuleFile.read(tagged, "--rule-file"));
        assertEquals(tagged + ": k6 threshold http_req_duration{status:200} 'p(99)<200': k6's tags other than"
                + " {name:OP} have no counterpart here; loadgen reads http_req_duration (p(99), avg, med, min, max),"
                + " http_req_failed (rate) and http_reqs (rate), optionally tagged {name:OP}", e.getMessage());
        Path abort = file("abort.json", "{\"http_req_duration\": [{\"threshold\": \"p(99)<200\", \"abortOnFail\": true}]}");
        e = assertThrows(BadInputException.class, () -> RuleFile.read(abort, "--rule-file"));
        assertEquals(abort + ": k6 threshold http_req_duration: give expressions as strings, e.g. [\"p(99)<200\"];"
                + " abortOnFail is loadgen's 'run --gate \"*.intended.p99 < 200ms over 10s windows abort-on-fail\"'",
                e.getMessage());
        Path wrongStat = file("stat.json", "{\"http_req_failed\": [\"p(99)<200\"]}");
        e = assertThrows(BadInputException.class, () -> RuleFile.read(wrongStat, "--rule-file"));
        assertEquals(wrongStat + ": k6 threshold http_req_failed 'p(99)<200': k6's http_req_failed takes no 'p(99)'"
                + " here; loadgen reads http_req_duration (p(99), avg, med, min, max), http_req_failed (rate) and"
                + " http_reqs (rate), optionally tagged {name:OP}, or write loadgen's rule, e.g. 'throughput > 100/s'"
                + " or '*.intended.count > 1000'", e.getMessage());
    }

    @Test
    void oneRulePerLineWithCommentsAndBlankLines() throws IOException {
        Path f = file("gates.txt", """
                # nightly gates

                READ.intended.p99 < 5ms
                READ.intended.p99 < 20ms over 10s windows   # no bad 10 s
                  throughput > 9500/s
                """);
        assertEquals(List.of("READ.intended.p99 < 5ms", "READ.intended.p99 < 20ms over 10s windows",
                "throughput > 9500/s"), texts(RuleFile.read(f, "--rule-file")));
    }

    @Test
    void aYamlOrJsonListOfRules() throws IOException {
        Path yaml = file("gates.yaml", """
                # nightly gates
                rules:
                  - 'READ.intended.p99 < 5ms'
                  - "READ.errors < 0.1%"
                """);
        assertEquals(List.of("READ.intended.p99 < 5ms", "READ.errors < 0.1%"), texts(RuleFile.read(yaml, "--rule-file")));
        Path json = file("gates.json", "[\"READ.intended.p99 < 5ms\", \"throughput > 100/s\"]");
        assertEquals(List.of("READ.intended.p99 < 5ms", "throughput > 100/s"), texts(RuleFile.read(json, "--rule-file")));
    }

    @Test
    void aBadRuleNamesTheFileAndLine() throws IOException {
        Path f = file("gates.txt", "# gates\nREAD.intended.p99 < 5ms\nREAD.intended.p99 < 5\n");
        BadInputException e = assertThrows(BadInputException.class, () -> RuleFile.read(f, "--rule-file"));
        assertEquals(f + ":3: rule 'READ.intended.p99 < 5': the limit '5' needs a unit; latency limits take ns, us,"
                + " ms, s or m (e.g. 5ms)", e.getMessage());
        Path yaml = file("gates.yaml", "- 'READ.intended.p99 < 5ms'\n- 42\n");
        assertEquals(yaml + ": rule 2 is not a string; quote it, e.g. - 'READ.intended.p99 < 5ms'",
                assertThrows(BadInputException.class, () -> RuleFile.read(yaml, "--gate-file")).getMessage());
        Path missing = dir.resolve("none.txt");
        assertEquals("--gate-file " + missing + ": no such file; give a file with one rule per line",
                assertThrows(BadInputException.class, () -> RuleFile.read(missing, "--gate-file")).getMessage());
    }
}
