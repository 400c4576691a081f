package io.loadgen.drivers.http;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where every request of a run goes: scheme, host and port, parsed from a URL. A run talks to one origin, as
 * wrk does: its connections are opened once and every request type shares them. Immutable.
 *
 * @param tls  true for https
 * @param host the host as written in the URL (an IPv6 address without brackets)
 * @param port the port, or the scheme's default
 */
record HttpOrigin(boolean tls, String host, int port) {

    /**
     * The origin of {@code url} and the URL itself, checked.
     *
     * @param what names the property or file entry the URL came from, for messages
     * @throws BadInputException for a URL that is not absolute http(s) with a host
     */
    static URI parse(String url, String what) {
        URI u;
        try {
            u = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new BadInputException(what + ": '" + Limits.quote(url) + "' is not a URL (" + e.getReason()
                    + "); give one like http://127.0.0.1:8080/path");
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new BadInputException(what + ": '" + Limits.quote(url) + "' is not an http:// or https:// URL;"
                    + " give one like http://127.0.0.1:8080/path");
        }
        if (u.getHost() == null) {
            throw new BadInputException(what + ": '" + Limits.quote(url) + "' has no host; give one like"
                    + " http://127.0.0.1:8080/path");
        }
        if (u.getPort() > 65535) {
            throw new BadInputException(what + ": '" + Limits.quote(url) + "' has port " + u.getPort()
                    + ", above 65535; give one like http://127.0.0.1:8080/path");
        }
        return u;
    }

    static HttpOrigin of(URI url) {
        boolean tls = url.getScheme().equalsIgnoreCase("https");
        String host = url.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new HttpOrigin(tls, host, url.getPort() >= 0 ? url.getPort() : tls ? 443 : 80);
    }

    /** The Host header's value: host, and the port unless it is the scheme's default. */
    String hostHeader() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == (tls ? 443 : 80) ? h : h + ":" + port;
    }

    @Override
    public String toString() {
        return (tls ? "https://" : "http://") + hostHeader();
    }
}
