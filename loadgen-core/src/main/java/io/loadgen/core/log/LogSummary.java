package io.loadgen.core.log;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.Status;
import io.loadgen.core.log.LogReport.TagTotal;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.IntervalLog;
import io.loadgen.core.record.StatusTags;
import io.loadgen.core.record.View;
import io.loadgen.core.summary.CorrectedBasis;
import io.loadgen.core.summary.HarnessReport;
import io.loadgen.core.summary.JsonSummary;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunInfo;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns what {@link LogReport} summed from interval logs back into the JSON summary that {@code run
 * --json} writes, so gates and scripts read one schema whether they start from a run or from its logs.
 * Tags {@code OP.intended} / {@code OP.service} become {@code operations.OP}, {@code OP.failed.intended}
 * / {@code OP.failed.service} become {@code operations.OP.failed} (null for a log without them, from a
 * loadgen that mixed failures into the success views), {@code harness.lag} becomes {@code harness.lag}; the run's driver, target and threads come from the log's
 * {@code #[run: ...]} header line (summed over merged logs). What a log cannot know is null, never
 * invented: {@code errors} and {@code returns} come from the {@code OP.status} lines (null for a log
 * without them), and
 * {@code corrected} unless every log states the same steady rate per thread and the same operations in flight
 * per thread ({@code in_flight_per_thread=M}, written by loadgen since the corrected view counts it; 1 when
 * absent): then it is computed as {@code run} computes it, with the interval threads x M / target
 * ({@link CorrectedBasis}), and is null, with {@code corrected_note} saying why, when that interval is not
 * shorter than the logs' span.
 * Stateless.
 */
public final class LogSummary {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    /** The hiccup meter's tag: a log's hiccups go to the JSON's {@code harness.hiccup}, as a run's do. */
    private static final String HICCUP_TAG = "harness.hiccup";

    private LogSummary() {
    }

    /** The run schema, grouped back into operation types and views. */
    public static ObjectNode byOperation(List<TagTotal> totals, List<String> comments, List<String> sources) {
        return byOperation(totals, comments, sources, false);
    }

    /**
     * {@link #byOperation(List, List, List)}; {@code rateChanged} when the logs hold a {@code rate-change} event
     * ({@link LogEvent#isRateChange()}): then, as for a phased run, no one target or expected interval fits them, and
     * the summary names neither (target 0, no corrected view) rather than the starting rate's.
     */
    public static ObjectNode byOperation(List<TagTotal> totals, List<String> comments, List<String> sources,
                                         boolean rateChanged) {
        Header header = Header.parse(comments);
        if (rateChanged) {
            header = header.withoutSteadyRate();
        }
        Map<String, Map<View, Histogram>> ops = new LinkedHashMap<>();
        Map<String, Map<View, Histogram>> failed = new LinkedHashMap<>();
        Map<String, long[]> statuses = new LinkedHashMap<>();
        Histogram lag = null;
        Histogram hiccups = null;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        List<String> other = new ArrayList<>();
        for (TagTotal t : totals) {
            Histogram h = integer(t);
            if ("harness.lag".equals(t.tag())) {
                lag = h;
                continue;
            }
            if (HICCUP_TAG.equals(t.tag())) {
                hiccups = h;
                continue;
            }
            if (StatusTags.isStatusTag(t.tag())) {
                statuses.put(StatusTags.operationOf(t.tag()), StatusTags.counts(h));
                continue;
            }
            View failedView = failedViewOf(t.tag());
            if (failedView != null) {
                String op = t.tag().substring(0, t.tag().length() - failedView.failedKey().length() - 1);
                failed.computeIfAbsent(op, k -> new EnumMap<>(View.class)).put(failedView, h);
                continue;
            }
            View view = viewOf(t.tag());
            if (view == null || view == View.CORRECTED) {
                other.add(t.tag() == null ? "(untagged)" : t.tag());
                continue;
            }
            String op = t.tag().substring(0, t.tag().length() - view.key().length() - 1);
            ops.computeIfAbsent(op, k -> new EnumMap<>(View.class)).put(view, h);
            first = Math.min(first, t.firstStartMs());
            last = Math.max(last, t.lastEndMs());
        }
        if (ops.isEmpty()) {
            throw new BadInputException("no OP.intended or OP.service tags in " + String.join(", ", sources)
                    + " to group into operations; use --json-by tag");
        }
        long runTimeNs = (last - first) * 1_000_000L;
        CorrectedBasis corrected = rateChanged ? CorrectedBasis.notApplicable(CorrectedBasis.RATE_CHANGED)
                : header.corrected(runTimeNs);
        List<OpResult> results = new ArrayList<>();
        for (Map.Entry<String, Map<View, Histogram>> e : ops.entrySet()) {
            Map<View, Histogram> views = new EnumMap<>(e.getValue());
            Histogram service = views.get(View.SERVICE);
            if (service != null) {
                views.put(View.CORRECTED, corrected.correct(service));
            }
            for (View v : View.values()) {
                views.putIfAbsent(v, Histograms.newHistogram());
            }
            if (service == null) {
                views.put(View.SERVICE, views.get(View.INTENDED)); // count() reads the service view
            }
            results.add(new OpResult(e.getKey(), views, failedOf(failed.get(e.getKey())),
                    statuses.getOrDefault(e.getKey(), new long[Status.count()])));
        }
        RunResult result = new RunResult(header.driver, header.targetOpsPerSec, header.threads, runTimeNs, results,
                lag == null ? Histograms.newHistogram() : lag, header.expectedIntervalNs(), 0, Map.of(), Map.of(), "log",
                corrected, hiccups == null ? HarnessReport.NONE : HarnessReport.NONE.withHiccups(hiccups), header.info());
        ObjectNode json = JsonSummary.toJson(result);
        ObjectNode operations = (ObjectNode) json.get("operations");
        for (Map.Entry<String, Map<View, Histogram>> e : ops.entrySet()) {
            ObjectNode op = (ObjectNode) operations.get(e.getKey());
            if (!statuses.containsKey(e.getKey())) {
                op.putNull("errors"); // a log without OP.status lines does not know them
                op.putNull("returns");
            }
            for (View v : View.values()) {
                boolean known = v == View.CORRECTED ? e.getValue().containsKey(View.SERVICE) && corrected.applicable()
                        : e.getValue().containsKey(v);
                if (!known) {
                    op.putNull(v.key());
                }
            }
        }
        if (lag == null) {
            ((ObjectNode) json.get("harness")).putNull("lag");
        }
        json.putNull("unissued_operations");
        json.set("sources", NODES.arrayNode().addAll(sources.stream().map(NODES::textNode).toList()));
        if (!other.isEmpty()) {
            json.set("other_tags", NODES.arrayNode().addAll(other.stream().map(NODES::textNode).toList()));
        }
        return json;
    }

    /** One entry per latency tag, each the run schema's view object (microseconds); OP.status tags are left out. */
    public static ObjectNode byTag(List<TagTotal> totals, List<String> sources) {
        ObjectNode root = NODES.objectNode();
        root.set("sources", NODES.arrayNode().addAll(sources.stream().map(NODES::textNode).toList()));
        ObjectNode tags = root.putObject("tags");
        for (TagTotal t : totals) {
            if (StatusTags.isStatusTag(t.tag())) {
                continue; // status counts, not latencies: they are the run schema's errors and returns
            }
            ObjectNode view = JsonSummary.viewStats(integer(t));
            view.put("start_ms", t.firstStartMs());
            view.put("end_ms", t.lastEndMs());
            view.put("intervals", t.intervals());
            tags.set(t.tag() == null ? "" : t.tag(), view);
        }
        return root;
    }

    private static Histogram integer(TagTotal t) {
        if (t.histogram() == null) {
            throw new BadInputException("tag " + t.tag() + " holds DoubleHistograms; --json needs integer "
                    + "histograms in nanoseconds, as loadgen writes");
        }
        return t.histogram();
    }

    /** Both failed views when the log has either (a missing one empty), or none when it has neither. */
    private static Map<View, Histogram> failedOf(Map<View, Histogram> logged) {
        if (logged == null) {
            return Map.of();
        }
        Map<View, Histogram> both = new EnumMap<>(logged);
        both.putIfAbsent(View.INTENDED, Histograms.newHistogram());
        both.putIfAbsent(View.SERVICE, Histograms.newHistogram());
        return both;
    }

    /** The view of an {@code OP.failed.VIEW} tag, or null for any other tag. */
    private static View failedViewOf(String tag) {
        if (tag == null) {
            return null;
        }
        for (View v : new View[]{View.INTENDED, View.SERVICE}) {
            String suffix = "." + v.failedKey();
            if (tag.endsWith(suffix) && tag.length() > suffix.length()) {
                return v;
            }
        }
        return null;
    }

    private static View viewOf(String tag) {
        if (tag == null) {
            return null;
        }
        for (View v : View.values()) {
            if (tag.endsWith("." + v.key()) && tag.length() > v.key().length() + 1) {
                return v;
            }
        }
        return null;
    }

    /**
     * The {@code #[run: driver=... target=...ops/s threads=N ... in_flight_per_thread=M seed=S]} lines of the logs,
     * combined; {@code intervalNs} is each thread's gap (threads / target) and {@code inFlight} is M, each 0
     * when the logs disagree or have no steady rate. {@code info} holds the earliest {@code StartTime} (the run's
     * first intended start, as the run's summary gives it), and the seed and the run id when every log names the
     * same one.
     */
    private record Header(String driver, double targetOpsPerSec, int threads, double intervalNs, int inFlight,
                          RunInfo info) {
        static Header parse(List<String> comments) {
            String driver = null;
            double target = 0;
            int threads = 0;
            double interval = -1;
            int inFlight = -1;
            int runs = 0;
            long startMs = Long.MAX_VALUE;
            Set<String> seeds = new HashSet<>();
            Set<String> runIds = new HashSet<>();
            for (LogHeader.Entry e : LogHeader.of("", comments).entries()) {
                if (e.name().equals(IntervalLog.RUN_ID)) {
                    runIds.add(e.text());
                }
                if (e.name().equals("StartTime")) {
                    double sec = parseDouble(e.text().split(" ", 2)[0]);
                    startMs = sec > 0 ? Math.min(startMs, Math.round(sec * 1000)) : startMs;
                }
                if (!e.name().equals("run")) {
                    continue;
                }
                runs++;
                Map<String, String> kv = LogHeader.keyValues(e.text());
                String d = kv.getOrDefault("driver", "unknown");
                driver = driver == null || driver.equals(d) ? d : "mixed";
                int t = parseInt(kv.get("threads"));
                double rate = parseRate(kv.get("target"));
                threads += t;
                target += rate;
                double i = rate > 0 && t > 0 ? t * 1e9 / rate : 0;
                interval = interval < 0 || interval == i ? i : 0;
                int m = kv.containsKey("in_flight_per_thread") ? parseInt(kv.get("in_flight_per_thread")) : 1;
                inFlight = inFlight < 0 || inFlight == m ? m : 0;
                seeds.add(kv.getOrDefault("seed", ""));
            }
            RunInfo info = new RunInfo(startMs == Long.MAX_VALUE ? 0 : startMs, seed(seeds), null, null, null,
                    runIds.size() == 1 ? runIds.iterator().next() : null); // the run's id; none for several runs
            return runs == 0 ? new Header("unknown", 0, 0, 0, 0, info)
                    : new Header(driver, target, threads, Math.max(interval, 0), Math.max(inFlight, 0), info);
        }

        /** The same header for logs whose rate changed while they ran: no one target, no one interval. */
        Header withoutSteadyRate() {
            return new Header(driver, 0, threads, 0, inFlight, info);
        }

        /** The one seed every run line named, or null (none, several, or one without a seed). */
        private static Long seed(Set<String> seeds) {
            if (seeds.size() != 1) {
                return null;
            }
            try {
                return Long.parseLong(seeds.iterator().next());
            } catch (NumberFormatException e) {
                return null;
            }
        }

        private static double parseDouble(String s) {
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                return 0;
            }
        }

        long expectedIntervalNs() {
            return (long) intervalNs;
        }

        /** As the run computed it: threads x M / target, when every log agrees on both. */
        CorrectedBasis corrected(long runTimeNs) {
            if (intervalNs <= 0) {
                return CorrectedBasis.notApplicable(targetOpsPerSec > 0
                        ? "the logs' runs differ in, or have no, steady rate per thread, so no one expected interval"
                        + " fits them" : CorrectedBasis.NO_SCHEDULE);
            }
            if (inFlight < 1) {
                return CorrectedBasis.notApplicable("the logs' runs differ in operations in flight per thread, so no"
                        + " one expected interval fits them");
            }
            return CorrectedBasis.of(targetOpsPerSec, threads, inFlight, runTimeNs);
        }

        private static int parseInt(String s) {
            try {
                return s == null ? 0 : Integer.parseInt(s);
            } catch (NumberFormatException e) {
                return 0;
            }
        }

        private static double parseRate(String s) {
            if (s == null || !s.endsWith("ops/s") || s.startsWith("phases")) {
                return 0; // unthrottled, or phased: no single interval to correct with
            }
            try {
                return Double.parseDouble(s.substring(0, s.length() - "ops/s".length()));
            } catch (NumberFormatException e) {
                return 0;
            }
        }
    }
}
