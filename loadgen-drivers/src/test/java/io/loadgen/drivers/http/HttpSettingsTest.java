package io.loadgen.drivers.http;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code http} properties and requests file: what they mean, and one clear line for each mistake. */
class HttpSettingsTest {

    private static HttpSettings settings(Map<String, String> given) {
        return HttpSettings.from(DriverProperties.of("http", HttpSettings.SPECS, given));
    }

    private static String refused(Map<String, String> given) {
        return assertThrows(BadInputException.class, () -> settings(given)).getMessage();
    }

    @Test
    void oneUrlIsOneRequestNamedByItsMethodAndEncodedOnce() {
        HttpSettings s = settings(Map.of("http.url", "http://[::1]:9000/a/b?q=1%202", "http.method", "post",
                "http.headers", "Content-Type: text/plain; charset=utf-8|X-Id: 7", "http.body", "hello"));
        assertEquals(List.of("POST"), s.operations());
        assertEquals(new HttpOrigin(false, "::1", 9000), s.origin());
        HttpRequestSpec r = s.requests().get(0);
        assertEquals("POST /a/b?q=1%202 HTTP/1.1\r\nHost: [::1]:9000\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "X-Id: 7\r\nUser-Agent: loadgen\r\nContent-Length: 5\r\n\r\nhello",
                r.encode(s.origin()).toString(StandardCharsets.ISO_8859_1));
        assertEquals(0, s.connections(), "one per thread by default");
        assertEquals(2_000_000_000L, s.timeoutNs());
    }

    @Test
    void theDefaultPortIsLeftOutOfHost() {
        HttpSettings s = settings(Map.of("http.url", "https://example.test/"));
        assertEquals(443, s.origin().port());
        assertTrue(s.requests().get(0).encode(s.origin()).toString(StandardCharsets.ISO_8859_1)
                .startsWith("GET / HTTP/1.1\r\nHost: example.test\r\n"));
    }

    @Test
    void successIsClassesAndCodes() {
        boolean[] ok = HttpSettings.success("2xx, 404");
        assertTrue(ok[200] && ok[299] && ok[404]);
        assertFalse(ok[300] || ok[403] || ok[500]);
        assertEquals("property http.success: '2XY' is not a status class or code; give e.g. 2xx,3xx or 200,204",
                refused(Map.of("http.success", "2XY")));
    }

    @Test
    void badPropertiesAreOneLineEach() {
        assertEquals("property http.url: 'ftp://x/' is not an http:// or https:// URL; give one like"
                + " http://127.0.0.1:8080/path", refused(Map.of("http.url", "ftp://x/")));
        assertEquals("property http.headers: 'Accept' is not 'Name: value'; separate headers with |, e.g."
                + " 'Accept: text/plain|X-Id: 7'", refused(Map.of("http.headers", "Accept")));
        assertEquals("property http.connections must be between 0 (one per thread) and 65536 (got -1)",
                refused(Map.of("http.connections", "-1")));
        assertEquals("property http.pipelining must be between 1 (no pipelining) and 1024 (got 0)",
                refused(Map.of("http.pipelining", "0")));
        assertEquals("property http.timeout must be positive, e.g. 2s", refused(Map.of("http.timeout", "0s")));
        assertTrue(refused(Map.of("http.body", "@/no/such/file")).contains("body file /no/such/file does not exist"));
    }

    @Test
    void aRequestsFileNamesEachRequestAndWeighsIt(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("r.yaml");
        Files.writeString(f, "- {name: home, url: 'http://127.0.0.1:8080/', weight: 3}\n"
                + "- {name: search, method: POST, url: 'http://127.0.0.1:8080/s', body: 'q=1'}\n");
        HttpSettings s = settings(Map.of("http.requests", f.toString()));
        assertEquals(List.of("home", "search"), s.operations());
        assertArrayEquals(new double[]{3, 1}, s.weights());
        assertEquals("POST", s.requests().get(1).method());
    }

    @Test
    void aRequestsFileIsCheckedEntryByEntry(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("r.yaml");
        Files.writeString(f, "- {name: a, url: 'http://127.0.0.1:1/'}\n- {name: b, url: 'http://127.0.0.1:2/'}\n");
        assertEquals(f + ": requests go to http://127.0.0.1:1 and http://127.0.0.1:2; one run talks to one origin"
                + " (as wrk does): run one loadgen per origin", refused(Map.of("http.requests", f.toString())));
        Files.writeString(f, "- {name: a, url: 'http://127.0.0.1:1/'}\n- {name: A, url: 'http://127.0.0.1:1/x'}\n");
        assertEquals(f + ": two requests are named 'A'; give each its own name (it names its series)",
                refused(Map.of("http.requests", f.toString())));
        Files.writeString(f, "- {name: a, url: 'http://127.0.0.1:1/', verb: GET}\n");
        assertEquals(f + ": request 1: unknown key 'verb'; a request has body, headers, method, name, url, weight",
                refused(Map.of("http.requests", f.toString())));
        Files.writeString(f, "- {name: a.b, url: 'http://127.0.0.1:1/'}\n");
        assertEquals(f + ": request 1: name 'a.b' must be 1-64 letters, digits, _ or - (it names the series, e.g."
                + " home.intended)", refused(Map.of("http.requests", f.toString())));
        Files.writeString(f, "- {name: a, url: 'http://127.0.0.1:1/'}\n");
        assertEquals("property http.method and http.requests both describe the requests; give each request's method"
                + " in " + f, refused(Map.of("http.requests", f.toString(), "http.method", "POST")));
        Files.writeString(f, "requests: [\n");
        String broken = refused(Map.of("http.requests", f.toString()));
        assertTrue(broken.startsWith("http.requests " + f + ":2:1: "), broken);
        assertFalse(broken.contains("\n"), broken);
    }
}
