package io.loadgen.drivers.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.loadgen.drivers.support.Causes;

import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.LongAdder;

/**
 * The failures that ended a redis driver's operations, counted by kind, and the first of them for the run's
 * headline: one per driver, the YCSB-model driver's and the data-type driver's alike. Any thread; a failure costs
 * an increment (the first one is kept racily: one sample, later failures keep it).
 */
final class RedisFailures {
    /** Operations unanswered {@code redis.timeout} after they started; {@link InFlight} counts them itself. */
    final LongAdder timeouts = new LongAdder();
    private final LongAdder serverErrors = new LongAdder();
    private final LongAdder wrongTypeErrors = new LongAdder();
    private final LongAdder connectionErrors = new LongAdder();
    private final boolean wrongTypeApart;
    private volatile Throwable first;

    /** @param wrongTypeApart count WRONGTYPE replies as {@code wrongtype_errors}, not {@code server_errors} */
    RedisFailures(boolean wrongTypeApart) {
        this.wrongTypeApart = wrongTypeApart;
    }

    /** Counts the failure that ended an operation, by kind. */
    void count(Throwable error) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
        if (first == null) {
            first = cause;
        }
        if (cause instanceof RedisCommandTimeoutException) {
            timeouts.increment();
        } else if (cause instanceof RedisCommandExecutionException) {
            String message = cause.getMessage();
            boolean wrongType = wrongTypeApart && message != null && message.startsWith("WRONGTYPE");
            (wrongType ? wrongTypeErrors : serverErrors).increment();
        } else {
            connectionErrors.increment();
        }
    }

    /** Forgets the warm-up's failures: the run's counters count the run's operations. */
    void reset() {
        timeouts.reset();
        serverErrors.reset();
        wrongTypeErrors.reset();
        connectionErrors.reset();
        first = null;
    }

    /**
     * The first failure's message (an error reply's text, a connection's error), or null when none failed; for a
     * lost connection, why reconnecting fails too, and a hint when that is the server's password.
     */
    String first(RedisConnector.Opened opened) {
        Throwable failure = first;
        if (failure == null) {
            return null;
        }
        String message = Causes.rootMessage(failure);
        String reconnect = opened.reconnectFailure();
        boolean lostConnection = !(failure instanceof RedisCommandTimeoutException
                || failure instanceof RedisCommandExecutionException);
        if (reconnect != null && lostConnection) {
            // "Currently not connected" says what the operation met, not why: the reconnect's own failure does
            return message + " (reconnecting fails: " + reconnect + (RedisConnector.isAuthError(reconnect)
                    ? "; did the server's password change? give it in " + RedisSettings.URI + ")" : ")");
        }
        return message;
    }

    /**
     * Adds {@code timeouts}, {@code server_errors}, {@code wrongtype_errors} (when counted apart) and
     * {@code connection_errors}: commands lost with the connection or rejected while it was down.
     */
    void addTo(Map<String, Number> stats) {
        stats.put("timeouts", timeouts.sum());
        stats.put("server_errors", serverErrors.sum());
        if (wrongTypeApart) {
            stats.put("wrongtype_errors", wrongTypeErrors.sum());
        }
        stats.put("connection_errors", connectionErrors.sum());
    }
}
