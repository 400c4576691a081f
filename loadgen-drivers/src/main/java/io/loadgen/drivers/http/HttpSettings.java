package io.loadgen.drivers.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.PropertySpec;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code http} properties, declared, defaulted, parsed and checked in one place; and the requests they
 * describe: one from {@code http.url} (with {@code http.method}, {@code http.headers}, {@code http.body}), or
 * several named ones from {@code http.requests}, a YAML or JSON file. Immutable; built on the main thread.
 *
 * @param origin      where every request goes
 * @param requests    the requests, each its own operation type
 * @param connections connections to open, or 0 for one per issuer thread
 * @param pipelining  requests in flight per connection (1: none, HTTP/1.1 keep-alive only)
 * @param timeoutNs   how long a request may go unanswered before it completes with TIMEOUT
 * @param success     which status codes count as success, indexed by code (0..599)
 * @param insecure    true to accept any TLS certificate (self-signed test servers)
 */
record HttpSettings(HttpOrigin origin, List<HttpRequestSpec> requests, int connections, int pipelining,
                    long timeoutNs, boolean[] success, boolean insecure) {
    static final String URL = "http.url";
    static final String METHOD = "http.method";
    static final String HEADERS = "http.headers";
    static final String BODY = "http.body";
    static final String REQUESTS = "http.requests";
    static final String CONNECTIONS = "http.connections";
    static final String PIPELINING = "http.pipelining";
    static final String TIMEOUT = "http.timeout";
    static final String SUCCESS = "http.success";
    static final String INSECURE = "http.insecure";

    /** More connections than this per run is surely a typo (each is a socket and buffers). */
    static final int MAX_CONNECTIONS = 65_536;
    static final int MAX_PIPELINING = 1024;
    /** A request name becomes a tag prefix: no dots (they separate tag parts), no spaces. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Pattern METHOD_NAME = Pattern.compile("[A-Z]{1,20}");
    private static final Set<String> ENTRY_KEYS = Set.of("name", "url", "method", "headers", "body", "weight");

    static final List<PropertySpec> SPECS = List.of(
            new PropertySpec(URL, "http://127.0.0.1:8080/", "the URL to request (http or https); with "
                    + REQUESTS + ", the default origin"),
            new PropertySpec(METHOD, "GET", "the method; it also names the operation type (GET.intended, ...)"),
            new PropertySpec(HEADERS, "", "headers, 'Name: value' separated by |, e.g. 'Accept: text/plain|X-Id: 7'"),
            new PropertySpec(BODY, "", "the body, inline or @FILE"),
            new PropertySpec(REQUESTS, "", "a YAML or JSON file of named requests (name, url, method, headers, body,"
                    + " weight): each its own operation type and series, mixed by weight"),
            new PropertySpec(CONNECTIONS, "0", "connections (wrk's -c), spread evenly over the threads; 0 = one per"
                    + " thread. Also the concurrency: each thread keeps its connections busy"),
            new PropertySpec(PIPELINING, "1", "requests in flight per connection; 1 = no pipelining (keep-alive)"),
            new PropertySpec(TIMEOUT, "2s", "a request unanswered this long completes with TIMEOUT and its"
                    + " connection is reopened (wrk's --timeout)"),
            new PropertySpec(SUCCESS, "2xx", "status codes that count as OK: classes and codes, e.g. 2xx,3xx,404;"
                    + " others fail, by class (4xx, 5xx) in the summary"),
            new PropertySpec(INSECURE, "false", "https: accept any certificate (a self-signed test server)"));

    /**
     * Reads and checks the properties (and the requests file, when one is named).
     *
     * @throws BadInputException naming the property or file entry and the fix
     */
    static HttpSettings from(DriverProperties p) {
        URI url = HttpOrigin.parse(p.getString(URL), "property " + URL);
        List<HttpRequestSpec> requests;
        HttpOrigin origin;
        String file = p.getString(REQUESTS).trim();
        if (file.isEmpty()) {
            origin = HttpOrigin.of(url);
            String method = method(p.getString(METHOD), "property " + METHOD);
            requests = List.of(new HttpRequestSpec(method, method, url, headers(p.getString(HEADERS)),
                    body(p.getString(BODY), "property " + BODY, null), 1.0));
        } else {
            for (String single : List.of(METHOD, HEADERS, BODY)) {
                if (p.isSet(single)) {
                    throw new BadInputException("property " + single + " and " + REQUESTS + " both describe the"
                            + " requests; give each request's " + single.substring(5) + " in " + file);
                }
            }
            Path path = Path.of(file);
            requests = readRequests(path, p.isSet(URL) ? url : null);
            origin = originOf(requests, path, p.isSet(URL) ? url : null);
        }
        Duration timeout = p.getDuration(TIMEOUT);
        if (timeout.isZero()) {
            throw new BadInputException("property " + TIMEOUT + " must be positive, e.g. 2s");
        }
        long connections = p.getLong(CONNECTIONS);
        if (connections < 0 || connections > MAX_CONNECTIONS) {
            throw new BadInputException("property " + CONNECTIONS + " must be between 0 (one per thread) and "
                    + MAX_CONNECTIONS + " (got " + connections + ")");
        }
        long pipelining = p.getLong(PIPELINING);
        if (pipelining < 1 || pipelining > MAX_PIPELINING) {
            throw new BadInputException("property " + PIPELINING + " must be between 1 (no pipelining) and "
                    + MAX_PIPELINING + " (got " + pipelining + ")");
        }
        return new HttpSettings(origin, requests, (int) connections, (int) pipelining, timeout.toNanos(),
                success(p.getString(SUCCESS)), p.getBoolean(INSECURE));
    }

    /** The operation types: the requests' names, in order. */
    List<String> operations() {
        List<String> names = new ArrayList<>();
        for (HttpRequestSpec r : requests) {
            names.add(r.name());
        }
        return names;
    }

    /** Each request's weight, in order. */
    double[] weights() {
        double[] w = new double[requests.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = requests.get(i).weight();
        }
        return w;
    }

    private static String method(String given, String what) {
        String m = given.trim().toUpperCase(Locale.ROOT);
        if (!METHOD_NAME.matcher(m).matches()) {
            throw new BadInputException(what + ": '" + Limits.quote(given) + "' is not an HTTP method; give GET,"
                    + " POST, PUT, DELETE, HEAD, ...");
        }
        return m;
    }

    /** {@code Name: value|Name: value}, in order. */
    static Map<String, String> headers(String text) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String part : text.split("\\|")) {
            if (part.isBlank()) {
                continue;
            }
            int colon = part.indexOf(':');
            if (colon <= 0) {
                throw new BadInputException("property " + HEADERS + ": '" + Limits.quote(part.trim()) + "' is not"
                        + " 'Name: value'; separate headers with |, e.g. 'Accept: text/plain|X-Id: 7'");
            }
            headers.put(header(part.substring(0, colon).trim(), "property " + HEADERS),
                    part.substring(colon + 1).trim());
        }
        return java.util.Collections.unmodifiableMap(headers);
    }

    private static String header(String name, String what) {
        if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            throw new BadInputException(what + ": '" + Limits.quote(name) + "' is not a header name (letters,"
                    + " digits and - only)");
        }
        return name;
    }

    /** The body: {@code @FILE} (relative to {@code base}'s folder when given) or the text itself, UTF-8. */
    private static byte[] body(String value, String what, Path base) {
        if (!value.startsWith("@")) {
            return value.getBytes(StandardCharsets.UTF_8);
        }
        Path file = Path.of(value.substring(1));
        if (base != null && !file.isAbsolute() && base.getParent() != null) {
            file = base.getParent().resolve(file);
        }
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new BadInputException(what + ": body file " + file + " does not exist; give an existing file"
                    + " after @, or the body itself without @");
        } catch (IOException e) {
            throw new BadInputException(what + ": cannot read body file " + file + " (" + e.getMessage() + ")", e);
        }
    }

    /** Status classes ({@code 2xx}) and codes ({@code 404}), comma separated, as a table by code. */
    static boolean[] success(String text) {
        boolean[] ok = new boolean[600];
        for (String part : text.split(",")) {
            String s = part.trim().toLowerCase(Locale.ROOT);
            if (s.matches("[1-5]xx")) {
                int base = (s.charAt(0) - '0') * 100;
                java.util.Arrays.fill(ok, base, base + 100, true);
            } else if (s.matches("[1-5][0-9][0-9]")) {
                ok[Integer.parseInt(s)] = true;
            } else {
                throw new BadInputException("property " + SUCCESS + ": '" + Limits.quote(part.trim()) + "' is not a"
                        + " status class or code; give e.g. 2xx,3xx or 200,204");
            }
        }
        return ok;
    }

    /**
     * The requests file: a list of requests, or a map with a {@code requests} list. Each names itself and
     * gives a URL (or takes {@code defaultUrl}, {@code http.url} when set), and may give method (GET),
     * headers (a map), body (inline or {@code @FILE} relative to the file) and weight (1).
     */
    private static List<HttpRequestSpec> readRequests(Path file, URI defaultUrl) {
        JsonNode root = io.loadgen.drivers.support.RequestFiles.read(file, REQUESTS, "a YAML or JSON requests file",
                "a YAML or JSON list of requests");
        JsonNode list = root != null && root.isObject() ? root.get("requests") : root;
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw new BadInputException(file + ": expected a list of requests (or 'requests:' with one), each with"
                    + " a name and a url");
        }
        List<HttpRequestSpec> requests = new ArrayList<>();
        Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            HttpRequestSpec r = request(list.get(i), file + ": request " + (i + 1), file, defaultUrl);
            if (!names.add(r.name().toLowerCase(Locale.ROOT))) {
                throw new BadInputException(file + ": two requests are named '" + r.name() + "'; give each its own"
                        + " name (it names its series)");
            }
            requests.add(r);
        }
        return List.copyOf(requests);
    }

    private static HttpRequestSpec request(JsonNode e, String what, Path file, URI defaultUrl) {
        if (!e.isObject()) {
            throw new BadInputException(what + ": expected a map with name and url");
        }
        for (Iterator<String> keys = e.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!ENTRY_KEYS.contains(key)) {
                throw new BadInputException(what + ": unknown key '" + Limits.quote(key) + "'; a request has "
                        + String.join(", ", new java.util.TreeSet<>(ENTRY_KEYS)));
            }
        }
        String name = e.path("name").asText("");
        if (!NAME.matcher(name).matches()) {
            throw new BadInputException(what + ": name '" + Limits.quote(name) + "' must be 1-64 letters, digits,"
                    + " _ or - (it names the series, e.g. home.intended)");
        }
        what = what + " (" + name + ")";
        URI url = e.has("url") ? HttpOrigin.parse(e.get("url").asText(), what) : defaultUrl;
        if (url == null) {
            throw new BadInputException(what + ": no url; give url: http://HOST:PORT/path (or set " + URL + ")");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode h = e.path("headers");
        if (!h.isMissingNode() && !h.isObject()) {
            throw new BadInputException(what + ": headers must be a map of name: value");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = h.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            headers.put(header(f.getKey(), what), f.getValue().asText());
        }
        double weight = e.path("weight").asDouble(1.0);
        if (!(weight >= 0) || Double.isInfinite(weight) || e.has("weight") && !e.get("weight").isNumber()) {
            throw new BadInputException(what + ": weight must be a number, 0 or more");
        }
        return new HttpRequestSpec(name, method(e.path("method").asText("GET"), what), url,
                java.util.Collections.unmodifiableMap(headers), body(e.path("body").asText(""), what, file), weight);
    }

    /** The one origin all requests share, or bad input naming the two that differ. */
    private static HttpOrigin originOf(List<HttpRequestSpec> requests, Path file, URI defaultUrl) {
        HttpOrigin origin = null;
        for (HttpRequestSpec r : requests) {
            HttpOrigin o = HttpOrigin.of(r.url());
            if (origin != null && !origin.equals(o)) {
                throw new BadInputException(file + ": requests go to " + origin + " and " + o + "; one run talks to"
                        + " one origin (as wrk does): run one loadgen per origin");
            }
            origin = o;
        }
        if (requests.stream().allMatch(r -> r.weight() == 0)) {
            throw new BadInputException(file + ": every request has weight 0; give at least one a positive weight");
        }
        return origin;
    }
}
