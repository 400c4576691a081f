package io.loadgen.drivers.memcached;

import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.PropertySpec;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The {@code memcached} properties, declared, defaulted, parsed and checked in one place. Immutable; built on
 * the main thread when the driver opens.
 *
 * @param host             the server's host (an IPv6 address without its brackets)
 * @param port             its port
 * @param uriText          the URI as the user gave it, for messages
 * @param protocol         the text protocol ({@code get}/{@code set}/{@code delete}) or the meta one
 * @param timeoutNs        how long an operation may take before it completes with {@code TIMEOUT}
 * @param connectTimeoutNs how long opening one connection (TCP connect and the {@code version} check) may take
 * @param ttlSeconds       the items' expiration time, in seconds (0: never expire)
 * @param valueSize        bytes per item value, or 0 for the record's fields back to back
 * @param connections      connections to open, or 0 for one per issuer thread
 * @param ioThreads        event loops (I/O threads) the connections share, or 0 for the default
 */
record MemcachedSettings(String host, int port, String uriText, Protocol protocol, long timeoutNs,
                         long connectTimeoutNs, int ttlSeconds, int valueSize, int connections, int ioThreads) {
    static final String URI_KEY = "memcached.uri";
    static final String PROTOCOL = "memcached.protocol";
    static final String TIMEOUT = "memcached.timeout";
    static final String CONNECT_TIMEOUT = "memcached.connect.timeout";
    static final String TTL = "memcached.ttl";
    static final String VALUE_SIZE = "memcached.valuesize";
    static final String CONNECTIONS = "memcached.connections";
    static final String IO_THREADS = "memcached.iothreads";

    static final int DEFAULT_PORT = 11211;
    /**
     * Above 30 days memcached reads an expiration time as an absolute Unix time, not seconds from now: a TTL of
     * 31 days would be a date in 1970, and every item would expire at once.
     */
    static final long MAX_TTL_SECONDS = 30L * 24 * 3600;
    /** The largest value memcached can be configured for ({@code -I 1024m}); its default item limit is 1 MB. */
    static final long MAX_VALUE_BYTES = 1L << 30;

    /** How the driver talks to the server. */
    enum Protocol {
        /** {@code get}, {@code set}, {@code delete}: the classic text protocol, as YCSB's binding and memtier speak. */
        TEXT,
        /** {@code mg}, {@code ms}, {@code md}: memcached 1.6's meta commands. */
        META
    }

    static final List<PropertySpec> SPECS = List.of(
            new PropertySpec(URI_KEY, "memcached://127.0.0.1:" + DEFAULT_PORT, "the server, memcached://HOST:PORT"),
            new PropertySpec(PROTOCOL, "text", "text (get, set, delete) or meta (mg, ms, md; memcached 1.6 and later)"),
            new PropertySpec(TIMEOUT, "1s", "operation timeout; an operation still unanswered after it completes with"
                    + " TIMEOUT"),
            new PropertySpec(CONNECT_TIMEOUT, "5s", "how long opening each connection (TCP connect and a version"
                    + " check) may take before the run is refused"),
            new PropertySpec(TTL, "0", "the items' expiration time, seconds or a duration (e.g. 10m); 0 = never"),
            new PropertySpec(VALUE_SIZE, "0", "bytes per item; 0 = the record's fields back to back (the workload's"
                    + " fieldcount x fieldlength, else 10 x 100)"),
            new PropertySpec(CONNECTIONS, "0", "connections; 0 = one per thread (issuer i uses connection i mod N)"),
            new PropertySpec(IO_THREADS, "0", "event loops the connections share; 0 = as many as connections, at most"
                    + " one per core. Each issuer runs on its connection's loop"));

    /**
     * Reads and checks the properties.
     *
     * @throws BadInputException naming the property and the fix
     */
    static MemcachedSettings from(DriverProperties properties) {
        String uriText = properties.getString(URI_KEY).trim();
        URI uri = parseUri(uriText);
        long timeoutNs = positiveNanos(properties, TIMEOUT, "1s");
        long connectTimeoutNs = positiveNanos(properties, CONNECT_TIMEOUT, "5s");
        long valueSize = wholeNumber(properties, VALUE_SIZE, MAX_VALUE_BYTES,
                "of bytes from 0 (the record's fields) to " + MAX_VALUE_BYTES + " (memcached's largest item, -I 1024m)");
        if (valueSize > 0) {
            Limits.checkRecordShape("fieldcount", 1, VALUE_SIZE, (int) valueSize);
        }
        return new MemcachedSettings(uri.getHost().replaceAll("^\\[|\\]$", ""),
                uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort(), uriText, protocol(properties),
                timeoutNs, connectTimeoutNs, ttlSeconds(properties), (int) valueSize,
                (int) wholeNumber(properties, CONNECTIONS, 4096, "from 0 (the default) to 4096"),
                (int) wholeNumber(properties, IO_THREADS, 4096, "from 0 (the default) to 4096"));
    }

    private static URI parseUri(String text) {
        String fix = "; give memcached://HOST:PORT, e.g. memcached://127.0.0.1:" + DEFAULT_PORT;
        if (!text.regionMatches(true, 0, "memcached://", 0, "memcached://".length())) {
            throw new BadInputException("property " + URI_KEY + ": '" + Limits.quote(text) + "' is not a memcached URI"
                    + " (it must start with memcached://)" + fix);
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new BadInputException("property " + URI_KEY + ": '" + Limits.quote(text) + "' is not a URI" + fix, e);
        }
        if (uri.getHost() == null || uri.getHost().isEmpty()) {
            throw new BadInputException("property " + URI_KEY + ": '" + Limits.quote(text) + "' names no host" + fix);
        }
        if (uri.getUserInfo() != null || (uri.getRawPath() != null && !uri.getRawPath().isEmpty()
                && !uri.getRawPath().equals("/")) || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new BadInputException("property " + URI_KEY + ": '" + Limits.quote(text) + "' has more than a host"
                    + " and a port (memcached has no databases, users or options in its address)" + fix);
        }
        return uri;
    }

    private static Protocol protocol(DriverProperties properties) {
        String given = properties.getString(PROTOCOL).trim().toLowerCase(Locale.ROOT);
        return switch (given) {
            case "text" -> Protocol.TEXT;
            case "meta" -> Protocol.META;
            case "binary" -> throw new BadInputException("property " + PROTOCOL + "=binary: memcached's binary"
                    + " protocol is deprecated and not spoken here; give text (the default) or meta");
            default -> throw new BadInputException("property " + PROTOCOL + ": '" + Limits.quote(given)
                    + "' is not a protocol; give text (get, set, delete) or meta (mg, ms, md)");
        };
    }

    /**
     * The TTL: a whole number of seconds (memcached's own unit) or a duration in whole seconds, at most 30 days.
     *
     * @throws BadInputException naming the property and the fix
     */
    private static int ttlSeconds(DriverProperties properties) {
        String given = properties.getString(TTL).trim();
        long seconds;
        if (given.matches("[0-9]{1,10}")) {
            seconds = Long.parseLong(given);
        } else {
            Duration d = properties.getDuration(TTL);
            if (d.getNano() != 0) {
                throw new BadInputException("property " + TTL + "=" + given + ": memcached expires items in whole"
                        + " seconds; give e.g. 1s or 10m");
            }
            seconds = d.getSeconds();
        }
        if (seconds > MAX_TTL_SECONDS) {
            throw new BadInputException("property " + TTL + "=" + given + " is above 30 days (2592000 s), which"
                    + " memcached would read as a Unix time in 1970, expiring every item at once; give at most 30d"
                    + " as 720h, or 0 for never");
        }
        return (int) seconds;
    }

    /** Connections for a run of {@code threads} issuers. */
    int connectionsFor(int threads) {
        return connections > 0 ? connections : threads;
    }

    /** Event loops for {@code connections} connections: never more than connections. */
    int ioThreadsFor(int connections) {
        int wanted = ioThreads > 0 ? ioThreads : Runtime.getRuntime().availableProcessors();
        return Math.max(1, Math.min(wanted, connections));
    }

    /** {@code 127.0.0.1:11211}, {@code [::1]:11211}: the address for messages. */
    String address() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** A duration above zero, in nanoseconds; else bad input naming {@code key} and an example. */
    private static long positiveNanos(DriverProperties properties, String key, String example) {
        long nanos = properties.getDuration(key).toNanos();
        if (nanos > 0) {
            return nanos;
        }
        throw new BadInputException("property " + key + " must be positive, e.g. " + example);
    }

    /** A whole number in [0, max]; else bad input saying {@code "must be a whole number " + range}. */
    private static long wholeNumber(DriverProperties properties, String key, long max, String range) {
        long given = properties.getLong(key);
        if (given >= 0 && given <= max) {
            return given;
        }
        throw new BadInputException("property " + key + " must be a whole number " + range + ": " + given);
    }
}
