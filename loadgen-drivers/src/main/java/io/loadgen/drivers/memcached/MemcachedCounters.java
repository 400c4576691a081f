package io.loadgen.drivers.memcached;

import io.loadgen.drivers.support.Causes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the driver counts, by kind, for {@code [DRIVER]} and the status line: counted on the connections' event
 * loops, summed from any thread. A failed operation is counted once, by the failure that ended it. The first
 * failure's text is kept for the run's headline ({@link #firstFailure}); later ones cost only their count.
 */
final class MemcachedCounters {
    private final LongAdder misses = new LongAdder();
    private final LongAdder timeouts = new LongAdder();
    private final LongAdder serverErrors = new LongAdder();
    private final LongAdder clientErrors = new LongAdder();
    private final LongAdder connectionErrors = new LongAdder();
    private final LongAdder notImplemented = new LongAdder();
    private final LongAdder protocolErrors = new LongAdder();
    private final LongAdder disconnects = new LongAdder();
    private final LongAdder reconnects = new LongAdder();
    private final String address;
    private volatile String firstFailure;
    private volatile String reconnectFailure;
    private volatile String lostBecause;

    MemcachedCounters(String address) {
        this.address = address;
    }

    /** A get or delete that found no item (NOT_FOUND). */
    void miss() {
        misses.increment();
    }

    void timeout() {
        timeouts.increment();
        failure("no reply within memcached.timeout");
    }

    /** {@code SERVER_ERROR ...}: the server could not do it (out of memory, an item too large ...). */
    void serverError(String text) {
        serverErrors.increment();
        failure(text);
    }

    /** {@code CLIENT_ERROR ...} or {@code ERROR}: the server refused the request. */
    void clientError(String text) {
        clientErrors.increment();
        failure(text);
    }

    /** An operation lost with its connection, or refused at once while the connection is down. */
    void connectionError(String text) {
        connectionErrors.increment();
        if (firstFailure != null) {
            return; // the text is made once, not per operation while the server is away
        }
        String why = lostBecause;
        String reconnect = reconnectFailure;
        failure(text + " to memcached at " + address + (why != null ? " (" + why + ")" : "")
                + (reconnect != null ? "; reconnecting fails: " + reconnect : ""));
    }

    /** A SCAN: memcached has no range read. */
    void notImplemented() {
        notImplemented.increment();
    }

    /** Bytes that are no reply to what was asked: the connection is closed and made again. */
    void protocolError(Throwable e) {
        protocolErrors.increment();
        lostBecause = e.getMessage();
        failure("the server at " + address + " sent " + e.getMessage() + ": is it memcached?");
    }

    /** The reason Netty gave for a connection's failure (reset by peer ...). */
    void connectionCause(Throwable cause) {
        lostBecause = Causes.rootMessage(cause);
    }

    void disconnected() {
        disconnects.increment();
    }

    void reconnected() {
        reconnects.increment();
        reconnectFailure = null;
    }

    void reconnectFailed(Throwable cause) {
        reconnectFailure = Causes.rootMessage(cause).replaceFirst("^\\w+\\(\\.\\.\\) failed: ", "");
    }

    private void failure(String text) {
        if (firstFailure == null) {
            firstFailure = text; // one sample for the headline: racy by design, any loop may set it
        }
    }

    /** The first failure's text, or null when nothing failed. */
    String firstFailure() {
        return firstFailure;
    }

    /** Forgets the warm-up's outcomes: the run's counters count the run's operations. */
    void reset() {
        misses.reset();
        timeouts.reset();
        serverErrors.reset();
        clientErrors.reset();
        connectionErrors.reset();
        notImplemented.reset();
        protocolErrors.reset();
        firstFailure = null;
    }

    /**
     * {@code misses} (gets and deletes that found no item), {@code not_implemented} (SCANs), {@code timeouts},
     * {@code server_errors}, {@code client_errors}, {@code connection_errors}, {@code protocol_errors} (replies
     * that made no sense: the connection was made again) and {@code reconnects}.
     */
    Map<String, Number> counts() {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("misses", misses.sum());
        m.put("not_implemented", notImplemented.sum());
        m.putAll(failures());
        m.put("protocol_errors", protocolErrors.sum());
        m.put("reconnects", reconnects.sum());
        return m;
    }

    /** The failure counters, for the status line. */
    Map<String, Number> failures() {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("timeouts", timeouts.sum());
        m.put("server_errors", serverErrors.sum());
        m.put("client_errors", clientErrors.sum());
        m.put("connection_errors", connectionErrors.sum());
        return m;
    }
}
