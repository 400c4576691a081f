package io.loadgen.drivers.ping;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.PropertySpec;

import java.util.List;

/**
 * The {@code ping} properties, declared, defaulted, parsed and checked in one place. Immutable; built on
 * the main thread when the driver opens.
 *
 * @param host        where the ping server is
 * @param port        its port
 * @param protocol    TCP or UDP
 * @param sizeBytes   bytes per request and per reply, the first 8 of them the sequence number
 * @param connections TCP connections (or UDP sockets) to spread requests over
 * @param pipelining  when false a connection has one request in flight at a time
 * @param timeoutNs   how long a request may wait for its reply before it counts as an error
 */
record PingSettings(String host, int port, PingProtocol protocol, int sizeBytes, int connections,
                    boolean pipelining, long timeoutNs) {
    static final String HOST = "ping.host";
    static final String PORT = "ping.port";
    static final String PROTOCOL = "ping.protocol";
    static final String SIZE = "ping.size";
    static final String CONNECTIONS = "ping.connections";
    static final String PIPELINING = "ping.pipelining";
    static final String TIMEOUT = "ping.timeout";

    static final int MIN_SIZE = 8;
    static final int MAX_CONNECTIONS = 1024;
    /** With pipelining, the most requests one connection may have in flight (a power of two). */
    static final int PIPELINE_DEPTH = 16_384;

    static final List<PropertySpec> SPECS = List.of(
            new PropertySpec(HOST, "127.0.0.1", "host of the ping server ('loadgen ping-server')"),
            new PropertySpec(PORT, Integer.toString(PingServer.DEFAULT_PORT), "its port"),
            new PropertySpec(PROTOCOL, "tcp", "tcp or udp"),
            new PropertySpec(SIZE, "64", "bytes per request and reply, " + MIN_SIZE + " to "
                    + PingServer.MAX_DATAGRAM_BYTES + " (the first 8 carry a sequence number)"),
            new PropertySpec(CONNECTIONS, "1", "connections (udp: sockets) to spread requests over, round-robin"),
            new PropertySpec(PIPELINING, "false", "when false, one request in flight per connection (the run waits"
                    + " for a free one, and that wait counts in intended); when true, up to " + PIPELINE_DEPTH),
            new PropertySpec(TIMEOUT, "1s", "a request unanswered this long completes as TIMEOUT (udp: a loss)"));

    /**
     * Reads and checks the properties.
     *
     * @throws BadInputException naming the property and the fix
     */
    static PingSettings from(DriverProperties properties) {
        String host = properties.getString(HOST).trim();
        if (host.isEmpty()) {
            throw new BadInputException("property " + HOST + " is empty; give the ping server's host, e.g. 127.0.0.1");
        }
        long timeoutNs = properties.getDuration(TIMEOUT).toNanos();
        if (timeoutNs <= 0) {
            throw new BadInputException("property " + TIMEOUT + " must be positive, e.g. 1s");
        }
        return new PingSettings(host,
                (int) inRange(properties, PORT, 1, 65_535),
                PingProtocol.parse(properties.getString(PROTOCOL), "property " + PROTOCOL),
                (int) inRange(properties, SIZE, MIN_SIZE, PingServer.MAX_DATAGRAM_BYTES),
                (int) inRange(properties, CONNECTIONS, 1, MAX_CONNECTIONS),
                properties.getBoolean(PIPELINING),
                timeoutNs);
    }

    private static long inRange(DriverProperties properties, String key, long min, long max) {
        long v = properties.getLong(key);
        if (v < min || v > max) {
            throw new BadInputException("property " + key + " must be between " + min + " and " + max + " (got " + v + ")");
        }
        return v;
    }

    /** The most requests one connection may have in flight. */
    int depthPerConnection() {
        return pipelining ? PIPELINE_DEPTH : 1;
    }

    /**
     * Slots in a connection's {@link PendingPings} ring. TCP answers in order, so the window from the oldest
     * pending request to the newest is never wider than the depth. UDP can lose or reorder: a lost request
     * holds the window open until it times out, so with pipelining UDP gets 4 x the depth of slack
     * (a request that finds the window full fails at once and counts as {@code rejected}).
     */
    int ringCapacity() {
        return protocol == PingProtocol.UDP && pipelining ? 4 * PIPELINE_DEPTH : depthPerConnection();
    }

    /** {@code tcp 127.0.0.1:7777}. */
    String target() {
        return protocol.label() + " " + host + ":" + port;
    }
}
