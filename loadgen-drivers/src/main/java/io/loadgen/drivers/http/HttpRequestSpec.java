package io.loadgen.drivers.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * One request the {@code http} driver sends, under its own operation type: built once from the
 * properties or the requests file, and encoded once ({@link #encoded()}), so sending it copies no bytes and
 * builds no headers. Immutable.
 *
 * @param name    the operation type, and so the series' tag prefix ({@code name.intended}, ...)
 * @param method  the HTTP method, upper case
 * @param url     the URL; its path and query are the request line's target
 * @param headers the user's headers, in order (Host, Content-Length and User-Agent are added unless given)
 * @param body    the body; empty for none
 * @param weight  how often a mixed run sends it, relative to the other requests
 */
record HttpRequestSpec(String name, String method, URI url, Map<String, String> headers, byte[] body,
                       double weight) {

    /** True for a request whose response has no body whatever its headers say (RFC 9110: HEAD). */
    boolean isHead() {
        return method.equals("HEAD");
    }

    /** True for a method that changes nothing on the server (RFC 9110 "safe"), which the warm-up may send. */
    boolean isSafe() {
        return method.equals("GET") || method.equals("HEAD") || method.equals("OPTIONS");
    }

    /**
     * The whole request as HTTP/1.1 bytes for {@code origin}: request line, Host, the user's headers, a
     * User-Agent and a Content-Length unless the user gave them, then the body. Read-only and unreleasable:
     * each send writes a duplicate of it.
     */
    ByteBuf encode(HttpOrigin origin) {
        StringBuilder head = new StringBuilder(128);
        head.append(method).append(' ').append(target()).append(" HTTP/1.1\r\n");
        if (!has("host")) {
            head.append("Host: ").append(origin.hostHeader()).append("\r\n");
        }
        for (Map.Entry<String, String> h : headers.entrySet()) {
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        if (!has("user-agent")) {
            head.append("User-Agent: loadgen\r\n");
        }
        if (body.length > 0 && !has("content-length")) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(head.length() + body.length);
        bytes.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        bytes.writeBytes(body);
        return Unpooled.unreleasableBuffer(Unpooled.directBuffer(bytes.size()).writeBytes(bytes.toByteArray()))
                .asReadOnly();
    }

    private boolean has(String header) {
        for (String h : headers.keySet()) {
            if (h.toLowerCase(Locale.ROOT).equals(header)) {
                return true;
            }
        }
        return false;
    }

    /** The request-target: the URL's raw path (or "/") and query, as the request line carries it. */
    String target() {
        String path = url.getRawPath() == null || url.getRawPath().isEmpty() ? "/" : url.getRawPath();
        return url.getRawQuery() == null ? path : path + "?" + url.getRawQuery();
    }
}
