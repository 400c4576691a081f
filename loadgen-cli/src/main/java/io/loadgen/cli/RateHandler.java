package io.loadgen.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.loadgen.core.BadInputException;
import io.loadgen.core.schedule.RateControl;
import io.loadgen.core.schedule.Rates;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code /rate} on the {@code --metrics} endpoint: {@code GET} answers the run's target rate (ops/s, this run's
 * or shard's share), {@code PUT} changes it from the next interval, as {@code --rate-file} does. The new rate is
 * the body, or the last path segment as rpc-perf's {@code PUT /ratelimit/RATE} takes it, written as
 * {@code --target} takes it ({@code 5000}, {@code 5k}, {@code 1.5M/s}):
 * <pre>
 * curl -X PUT --data 5k http://127.0.0.1:9400/rate
 * curl -X PUT http://127.0.0.1:9400/rate/5k
 * </pre>
 * Answers 200 with one line on success; 400 with {@code --target}'s own message for a rate that is not one or is
 * out of its bounds; 409 when the run cannot change its rate (unthrottled, phased, a findmax or sweep step, not
 * started yet or ended); 405 for other methods. Runs on the endpoint's thread, one request at a time; the change
 * itself is {@link RateControl}'s, which workers read without waiting.
 */
final class RateHandler implements HttpHandler {
    /** The path served, next to {@code /metrics}. */
    static final String PATH = "/rate";
    /** The log's event line names HTTP requests with this source. */
    static final String SOURCE = "http";
    /** A rate is at most 64 characters ({@link Rates#parse}); a body longer than this is refused unread. */
    private static final int MAX_BODY_BYTES = 256;

    private final RateControl control;
    private final java.io.PrintStream status;

    /** @param status where a change taken is said, as {@code --rate-file}'s are (the run's stderr), or null */
    RateHandler(RateControl control, java.io.PrintStream status) {
        this.control = control;
        this.status = status;
    }

    /**
     * Serves {@code /rate} on {@code endpoint} for {@code control}, saying each change taken on {@code status}
     * (or not, when null); nothing without an endpoint (no --metrics).
     */
    static void serveOn(MetricsEndpoint endpoint, RateControl control, java.io.PrintStream status) {
        if (endpoint != null) {
            endpoint.addHandler(PATH, new RateHandler(control, status));
        }
    }

    /** {@link #serveOn} for a command that sets each step's rate itself (findmax, sweep): every request gets 409. */
    static void refuseOn(MetricsEndpoint endpoint, String command) {
        serveOn(endpoint, RateControl.refusing(command + " sets the rate of each of its steps itself; PUT /rate"
                + " changes the rate of a 'loadgen run --target OPS'"), null);
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            if (!control.changeable() && (method.equals("GET") || method.equals("PUT") || method.equals("POST"))) {
                answer(exchange, 409, control.refusal());
            } else if (method.equals("GET")) {
                answer(exchange, 200, Rates.format(control.targetOpsPerSec()));
            } else if (method.equals("PUT") || method.equals("POST")) {
                put(exchange);
            } else {
                exchange.getResponseHeaders().set("Allow", "GET, PUT");
                answer(exchange, 405, "use GET to read the rate, PUT to change it");
            }
        }
    }

    private void put(HttpExchange exchange) throws IOException {
        String text = rateIn(exchange);
        if (text == null) {
            answer(exchange, 400, "the rate is too long; send it as the body, e.g. curl -X PUT --data 5k URL");
            return;
        }
        if (text.isEmpty()) {
            answer(exchange, 400, "no rate given; send it as the body (curl -X PUT --data 5k URL) or as /rate/5k");
            return;
        }
        double opsPerSec;
        try {
            opsPerSec = Rates.parse(text, "rate");
            Rates.checkTarget(opsPerSec, "rate", null);
        } catch (BadInputException e) {
            answer(exchange, 400, e.getMessage());
            return;
        }
        try {
            control.request(opsPerSec, SOURCE);
        } catch (BadInputException e) {
            answer(exchange, 409, e.getMessage());
            return;
        }
        answer(exchange, 200, "rate " + Rates.format(opsPerSec) + " ops/s from the next interval");
        if (status != null) {
            status.println("loadgen: PUT /rate from " + exchange.getRemoteAddress().getAddress().getHostAddress()
                    + ": target " + io.loadgen.core.diagnosis.Figures.rate(opsPerSec) + " ops/s from the next interval");
        }
    }

    /** The rate asked for: the path's segment after /rate/, else the body; null when the body is too long. */
    private static String rateIn(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        if (path.length() > PATH.length() + 1 && path.startsWith(PATH + "/")) {
            return path.substring(PATH.length() + 1).trim();
        }
        try (InputStream in = exchange.getRequestBody()) {
            byte[] body = in.readNBytes(MAX_BODY_BYTES + 1);
            if (body.length > MAX_BODY_BYTES) {
                return null;
            }
            return new String(body, StandardCharsets.UTF_8).trim();
        }
    }

    private static void answer(HttpExchange exchange, int status, String line) throws IOException {
        byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }
}
