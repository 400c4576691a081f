package io.loadgen.drivers.http;

import io.loadgen.core.driver.Status;
import io.loadgen.drivers.support.Causes;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the {@code http} driver counts, shared by every connection's event loop (so {@code LongAdder}s, safe to
 * sum from the status line's thread while requests complete), and the status each response code maps to.
 */
final class HttpCounters {
    final LongAdder requests = new LongAdder();
    /** Responses by class: index 1 = 1xx ... 5 = 5xx; 0 = a code outside 100-599. */
    private final LongAdder[] byClass = new LongAdder[6];
    final LongAdder timeouts = new LongAdder();
    final LongAdder connectionErrors = new LongAdder();
    final LongAdder connectFailures = new LongAdder();
    final LongAdder reconnects = new LongAdder();
    final LongAdder badResponses = new LongAdder();
    /** Submits with no connection free: more in flight than the driver's maxInFlight (a caller's bug). */
    final LongAdder rejected = new LongAdder();
    /** The last error a connection saw, for the log; racy by design (any loop may set it). */
    volatile Throwable lastError;
    /** Why the first response that was not HTTP failed to decode, or null; set once, so a flood allocates nothing. */
    volatile Throwable firstBadResponse;
    /** The first failed status code a response carried, or 0; a plain int, so counting it allocates nothing. */
    volatile int firstFailedCode;
    private final Status[] statusByCode = new Status[600];

    /** @param success which codes count as OK (indexed by code) */
    HttpCounters(boolean[] success) {
        for (int i = 0; i < byClass.length; i++) {
            byClass[i] = new LongAdder();
        }
        for (int code = 0; code < statusByCode.length; code++) {
            statusByCode[code] = success[code] ? Status.OK : failure(code);
        }
    }

    /**
     * A failed response's status, by YCSB's names where one fits (so the summary's {@code Return=} lines say
     * what happened): 404 and 410 NOT_FOUND, 400 BAD_REQUEST, 401 and 403 FORBIDDEN, 501 NOT_IMPLEMENTED, 503
     * SERVICE_UNAVAILABLE, 409 and 412 UNEXPECTED_STATE, any other ERROR.
     */
    static Status failure(int code) {
        switch (code) {
            case 404: case 410: return Status.NOT_FOUND;
            case 400: return Status.BAD_REQUEST;
            case 401: case 403: return Status.FORBIDDEN;
            case 501: return Status.NOT_IMPLEMENTED;
            case 503: return Status.SERVICE_UNAVAILABLE;
            case 409: case 412: return Status.UNEXPECTED_STATE;
            default: return Status.ERROR;
        }
    }

    /** Counts a response by its class and returns its status. Any loop thread. */
    Status status(int code) {
        boolean known = code >= 100 && code < 600;
        byClass[known ? code / 100 : 0].increment();
        Status s = known ? statusByCode[code] : Status.ERROR;
        if (s != Status.OK && firstFailedCode == 0) {
            firstFailedCode = code;
        }
        return s;
    }

    /**
     * What the failures said, for a person: a response that was not HTTP, a connection's error, or a failed status
     * code; null when nothing failed. After the run.
     */
    String lastFailure() {
        if (firstBadResponse != null) {
            return "the server's response was not HTTP (" + Causes.rootMessage(firstBadResponse) + ")";
        }
        if (lastError != null) {
            return Causes.rootMessage(lastError);
        }
        return firstFailedCode == 0 ? null : "HTTP " + firstFailedCode;
    }

    /** Clears every count (after the warm-up, so the run's counts are the run's). */
    void reset() {
        requests.reset();
        for (LongAdder a : byClass) {
            a.reset();
        }
        timeouts.reset();
        connectionErrors.reset();
        connectFailures.reset();
        reconnects.reset();
        badResponses.reset();
    }

    /** Everything, for the summary. */
    Map<String, Number> all() {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("requests", requests.sum());
        for (int c = 1; c <= 5; c++) {
            m.put("status_" + c + "xx", byClass[c].sum());
        }
        m.put("status_other", byClass[0].sum());
        m.putAll(failures());
        m.put("reconnects", reconnects.sum());
        return m;
    }

    /**
     * The failures the status line shows as they rise: non-2xx responses by class, timeouts, requests lost
     * with their connection, failed connects and unreadable responses.
     */
    Map<String, Number> failures() {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put("status_4xx", byClass[4].sum());
        m.put("status_5xx", byClass[5].sum());
        m.put("timeouts", timeouts.sum());
        m.put("connection_errors", connectionErrors.sum());
        m.put("connect_failures", connectFailures.sum());
        m.put("bad_responses", badResponses.sum());
        return m;
    }
}
