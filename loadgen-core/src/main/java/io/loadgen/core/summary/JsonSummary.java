package io.loadgen.core.summary;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.Secrets;
import io.loadgen.core.diagnosis.Cause;
import io.loadgen.core.diagnosis.Diagnosis;
import io.loadgen.core.driver.Status;
import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.Map;

/**
 * Writes a {@link RunResult} as the JSON summary that tests and CI gates read; the keys below are
 * a stable interface. Stateless; called on the main thread after a run.
 *
 * <pre>
 * {
 *   "schema_version": 1, "version": "0.1.0", "start_time": "2026-11-25T16:27:21.123Z", "seed": 7,
 *   "properties": { "mockdb.delay": "4ms", "recordcount": "1000", "redis.uri": "redis://:***@db:6379" },
 *   "driver": "mockdb", "target_ops_per_sec": 10000.0, "throttled": true,
 *   "throughput_ops_per_sec": 9987.3, "threads": 8, "duration_s": 10.012,
 *   "stop_reason": "duration", "unissued_operations": 0, "expected_interval_us": 800.0,
 *   "corrected_expected_interval_us": 800.0, "corrected_in_flight_per_thread": 1, "corrected_note": null,
 *   "operations": {
 *     "READ": { "count": 99873, "errors": 20, "returns": { "OK": 99853, "ERROR": 20 },
 *               "intended": VIEW, "service": VIEW, "corrected": VIEW,
 *               "failed": { "count": 20, "intended": VIEW, "service": VIEW } }
 *   },
 *   "harness": { "lag": VIEW, "hiccup": VIEW, "gc_pause_count": 0, "gc_pause_total_ms": 0.0,
 *                "gc_pause_max_ms": 0.0, "behind_share": 0.004, "harness_share": 0.0001,
 *                "verdict": "healthy", "verdict_reasons": [], "verdict_text": "harness healthy: lag p99 12 us, ...",
 *                ...every entry of RunResult.harness() },
 *   "driver_stats": { ...every entry of RunResult.driverStats() },
 *   "diagnosis": { "headline": "mockdb kept up: 1,000 ops/s offered and 1,000 done, intended p99 4.31 ms (...).",
 *                  "causes": [ { "code": "ok", "text": "...", "figures": { "intended_p99_ms": 4.31, ... } } ] }
 * }
 * VIEW = { "min_us", "mean_us", "p50_us", "p90_us", "p95_us", "p99_us", "p99_9_us", "p99_99_us",
 *          "max_us" (doubles, microseconds), "count" (integer) }
 * </pre>
 *
 * <p>{@code schema_version} is {@link RunInfo#SCHEMA_VERSION} (a summary without it is older; readers take
 * both); {@code version} the loadgen that wrote it; {@code start_time} the wall clock at the run's first intended
 * start, ISO-8601 in UTC; {@code seed} the run's seed; {@code properties} the effective workload and driver
 * properties after -P and -p, sorted, secrets masked. A summary made from a log ({@code report --json}) takes
 * {@code start_time} from the log's StartTime (the earliest of several) and {@code seed} from its run header (null
 * when merged logs name different seeds), and has {@code properties} null: the log holds the driver's alone.
 * A shard of a sharded run ({@code --shard}) adds {@code "shard": {"index": 0, "count": 4, "start_at":
 * "2026-11-25T18:00:00Z"}} ({@code start_at} the {@code --start-at} instant, or null); a whole run has no
 * {@code shard} key.
 *
 * <p>{@code count} is every completed operation of the type, whatever its status, and {@code errors}
 * those that did not return OK. The views hold the operations that returned OK (their {@code count}
 * is the successes); {@code failed} holds the others' intended and service views (YCSB's
 * {@code READ-FAILED}; {@code failed.count} equals {@code errors}), always present, with zero
 * statistics when nothing failed; {@code null} only in a summary made from a log that did not record
 * failures apart. {@code returns} lists only statuses that occurred, in {@link Status} order. An unthrottled
 * run has no schedule: {@code target_ops_per_sec} and {@code expected_interval_us} are 0,
 * {@code throttled} is false, and {@code corrected} and {@code harness.lag} are {@code null}
 * (present, so the key set never changes). A harness entry named {@code lag} is ignored, since
 * that key holds the scheduler's lag.
 *
 * <p>The harness's watch on itself ({@link HarnessReport}): {@code hiccup} is the hiccup meter's
 * distribution; {@code gc_pause_*} the harness JVM's GC pauses from its GC notifications;
 * {@code behind_share} the share of the workers' time spent on operations issued behind schedule and
 * {@code harness_share} the part of it the harness itself took, between one such operation's
 * completion and the next one's start; {@code verdict} is {@code "healthy"} or {@code "behind"},
 * {@code verdict_reasons} the limits crossed ({@code capacity}, {@code lag}, {@code hiccup}, {@code gc}) and
 * {@code verdict_text} the line for a person ({@link HarnessVerdict}). A summary made from a log has
 * these keys set to {@code null}.
 *
 * <p>{@code expected_interval_us} is each thread's intended gap (threads / target);
 * {@code corrected_expected_interval_us} is the interval the corrected view was computed with,
 * threads x M / target, and {@code corrected_in_flight_per_thread} the M it came from (1 for a blocking
 * driver; both null without a single rate). When the corrected view is not applicable every
 * {@code corrected} is {@code null} and {@code corrected_note} says why in one line; otherwise the note
 * is {@code null}. See {@link CorrectedBasis}.
 *
 * <p>{@code diagnosis} says what the numbers mean ({@link io.loadgen.core.diagnosis.Diagnoser}): {@code causes},
 * most important first, each a stable {@code code} ({@code ok}, {@code target_slow}, {@code target_stalled},
 * {@code target_failing}, {@code concurrency_limited}, {@code harness_saturated}, {@code harness_stalled},
 * {@code machine_noise}), the sentence and its figures (keys carry their unit); {@code headline} the run's one
 * sentence. {@code harness.verdict} is derived from it: {@code behind} exactly when a cause blames the harness.
 * A summary made from a log has {@code diagnosis} null.
 */
public final class JsonSummary {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final View[] ORDER = {View.INTENDED, View.SERVICE, View.CORRECTED};

    private JsonSummary() {
    }

    public static ObjectNode toJson(RunResult result) {
        ObjectNode root = NODES.objectNode();
        info(root, result.info());
        root.put("driver", result.driver());
        root.put("target_ops_per_sec", result.throttled() ? result.targetOpsPerSec() : 0.0);
        root.put("throttled", result.throttled());
        root.put("throughput_ops_per_sec", result.throughputOpsPerSec());
        root.put("threads", result.threads());
        root.put("duration_s", result.runTimeNs() / 1e9);
        root.put("stop_reason", Secrets.redact(result.stopReason()));
        root.put("unissued_operations", result.unissuedOps());
        root.put("expected_interval_us", ReportedViews.micros(result.expectedIntervalNs()));
        correctedBasis(root, result.corrected());
        root.set("operations", operations(result));
        root.set("harness", harness(result));
        root.set("driver_stats", numbers(result.driverStats()));
        root.set("diagnosis", diagnosis(result.diagnosis()));
        return root;
    }

    private static com.fasterxml.jackson.databind.JsonNode diagnosis(Diagnosis d) {
        if (d == null) {
            return NODES.nullNode();
        }
        ObjectNode node = NODES.objectNode();
        node.put("headline", d.headline());
        com.fasterxml.jackson.databind.node.ArrayNode causes = node.putArray("causes");
        for (Cause c : d.causes()) {
            ObjectNode cause = causes.addObject();
            cause.put("code", c.code().key());
            cause.put("text", c.text());
            cause.set("figures", numbers(c.figures()));
        }
        return node;
    }

    public static void write(RunResult result, Path file) throws IOException {
        AtomicFile.write(file, out -> write(result, out));
    }

    /** Writes pretty-printed JSON to {@code out} and flushes it; does not close it. */
    public static void write(RunResult result, OutputStream out) throws IOException {
        MAPPER.writerWithDefaultPrettyPrinter()
                .without(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
                .writeValue(out, toJson(result));
        out.flush();
    }

    private static void info(ObjectNode root, RunInfo info) {
        root.put("schema_version", RunInfo.SCHEMA_VERSION);
        root.put("version", RunInfo.loadgenVersion());
        root.put("start_time", info.start() == null ? null : info.start().toString());
        putNumber(root, "seed", info.seed());
        root.put("run_id", info.runId()); // null when unknown: a log without one, or logs of several runs
        if (info.properties() == null) {
            root.putNull("properties");
        } else {
            ObjectNode props = root.putObject("properties");
            info.properties().forEach(props::put);
        }
        if (info.shard() != null) {
            ObjectNode shard = root.putObject("shard");
            shard.put("index", info.shard().index());
            shard.put("count", info.shard().count());
            shard.put("start_at", info.startAt() == null ? null : info.startAt().toString());
        }
    }

    private static void correctedBasis(ObjectNode root, CorrectedBasis basis) {
        boolean known = basis.expectedIntervalNs() > 0;
        if (known) {
            root.put("corrected_expected_interval_us", ReportedViews.micros(basis.expectedIntervalNs()));
            root.put("corrected_in_flight_per_thread", basis.inFlightPerThread());
        } else {
            root.putNull("corrected_expected_interval_us");
            root.putNull("corrected_in_flight_per_thread");
        }
        root.put("corrected_note", basis.notApplicable());
    }

    private static ObjectNode operations(RunResult result) {
        ObjectNode ops = NODES.objectNode();
        for (OpResult op : result.operations()) {
            ops.set(op.name(), operation(result, op));
        }
        return ops;
    }

    private static ObjectNode operation(RunResult result, OpResult op) {
        ObjectNode node = NODES.objectNode();
        node.put("count", op.count());
        node.put("errors", op.errors());
        node.set("returns", returns(op));
        for (View view : ORDER) {
            boolean reported = ReportedViews.of(result, view).contains(view);
            node.set(view.key(), reported ? viewStats(op.histogram(view)) : NODES.nullNode());
        }
        node.set(View.FAILED, failed(op));
        return node;
    }

    /** {@code {count, intended, service}} of the operations that did not return OK; null when not recorded. */
    private static JsonNode failed(OpResult op) {
        if (!op.failedKnown()) {
            return NODES.nullNode();
        }
        ObjectNode node = NODES.objectNode();
        node.put("count", op.failures());
        node.set(View.INTENDED.key(), viewStats(op.failedHistogram(View.INTENDED)));
        node.set(View.SERVICE.key(), viewStats(op.failedHistogram(View.SERVICE)));
        return node;
    }

    private static ObjectNode returns(OpResult op) {
        ObjectNode node = NODES.objectNode();
        for (int i = 0; i < Status.count(); i++) {
            Status status = Status.byOrdinal(i);
            if (op.statusCount(status) > 0) {
                node.put(status.name(), op.statusCount(status));
            }
        }
        return node;
    }

    private static ObjectNode harness(RunResult result) {
        ObjectNode node = NODES.objectNode();
        node.set("lag", result.throttled() && result.lag() != null ? viewStats(result.lag()) : NODES.nullNode());
        health(node, result.health());
        for (Map.Entry<String, Number> e : result.harness().entrySet()) {
            if (!node.has(e.getKey())) {
                putNumber(node, e.getKey(), e.getValue());
            }
        }
        return node;
    }

    private static void health(ObjectNode node, HarnessReport health) {
        boolean measured = health.measured();
        node.set("hiccup", health.hiccups() != null ? viewStats(health.hiccups()) : NODES.nullNode());
        putNumber(node, "gc_pause_count", measured ? health.gcPauses() : null);
        putNumber(node, "gc_pause_total_ms", measured ? health.gcPauseTotalNs() / 1e6 : null);
        putNumber(node, "gc_pause_max_ms", measured ? health.gcPauseMaxNs() / 1e6 : null);
        putNumber(node, "behind_share", measured ? health.behindShare() : null);
        putNumber(node, "harness_share", measured ? health.harnessShare() : null);
        HarnessVerdict verdict = health.verdict();
        node.put("verdict", verdict == null ? null : verdict.status());
        if (verdict == null) {
            node.putNull("verdict_reasons");
        } else {
            com.fasterxml.jackson.databind.node.ArrayNode reasons = node.putArray("verdict_reasons");
            verdict.reasons().forEach(r -> reasons.add(r.key()));
        }
        node.put("verdict_text", verdict == null ? null : verdict.text());
    }

    /** One view's distribution in microseconds, from a histogram in nanoseconds. */
    public static ObjectNode viewStats(Histogram h) {
        ObjectNode node = NODES.objectNode();
        node.put("min_us", ReportedViews.micros(h.getMinValue()));
        node.put("mean_us", h.getMean() / ReportedViews.NS_PER_US);
        node.put("p50_us", ReportedViews.micros(h.getValueAtPercentile(50)));
        node.put("p90_us", ReportedViews.micros(h.getValueAtPercentile(90)));
        node.put("p95_us", ReportedViews.micros(h.getValueAtPercentile(95)));
        node.put("p99_us", ReportedViews.micros(h.getValueAtPercentile(99)));
        node.put("p99_9_us", ReportedViews.micros(h.getValueAtPercentile(99.9)));
        node.put("p99_99_us", ReportedViews.micros(h.getValueAtPercentile(99.99)));
        node.put("max_us", ReportedViews.micros(h.getMaxValue()));
        node.put("count", h.getTotalCount());
        return node;
    }

    private static ObjectNode numbers(Map<String, Number> stats) {
        ObjectNode node = NODES.objectNode();
        stats.forEach((key, value) -> putNumber(node, key, value));
        return node;
    }

    /** Keeps integers integral and exact decimals exact; any other Number is written as a double. */
    private static void putNumber(ObjectNode node, String key, Number value) {
        if (value == null) {
            node.putNull(key);
        } else if (value instanceof Long || value instanceof Integer
                || value instanceof Short || value instanceof Byte) {
            node.put(key, value.longValue());
        } else if (value instanceof BigInteger big) {
            node.put(key, big);
        } else if (value instanceof BigDecimal decimal) {
            node.put(key, decimal);
        } else {
            node.put(key, value.doubleValue());
        }
    }
}
