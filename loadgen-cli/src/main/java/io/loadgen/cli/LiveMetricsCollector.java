package io.loadgen.cli;

import io.loadgen.core.diagnosis.CauseCode;
import io.loadgen.core.driver.Status;
import io.loadgen.core.run.LiveMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code --metrics} endpoint's metrics, read from the run's latest {@link LiveMetrics.Reading} when scraped:
 * nothing is kept between scrapes, and the reading is immutable, so a scrape never waits for the run nor the run
 * for a scrape. Values are converted from ns to seconds here, at output. Every series carries the run's
 * {@code driver}, {@code shard} and {@code run_id}. Called on the endpoint's thread.
 *
 * <p>Why gauges per interval and not a Prometheus summary: a summary's quantiles are computed over a sliding window
 * of its own, which neither matches the interval log's intervals nor can be merged across shards or re-aggregated
 * over time; these gauges are exactly the interval log's numbers for the last closed interval (so a dashboard and the
 * log agree), and the log keeps the full histograms for any exact merge.
 */
final class LiveMetricsCollector implements MultiCollector {
    /** The {@code quantile} label of each of {@link LiveMetrics#PERCENTILES}; the max is quantile 1. */
    static final List<String> QUANTILES = List.of("0.5", "0.9", "0.99", "0.999", "1");
    static final String LATENCY = "loadgen_latency_seconds";
    /** Exposed as {@code loadgen_operations_total}. */
    static final String OPERATIONS = "loadgen_operations";

    private static final String SAME_AS_LOG = " Of the last closed interval, computed from that interval's"
            + " HdrHistogram exactly as the interval log's interval (getValueAtPercentile; quantile 1 is the max), so"
            + " the same numbers. Gauges per interval, not a Prometheus summary: a summary's quantiles cover a sliding"
            + " window of its own, which matches no logged interval and cannot be merged across shards or over time;"
            + " the interval log keeps the full histograms for that.";

    private final LiveMetrics live;

    LiveMetricsCollector(LiveMetrics live) {
        this.live = live;
    }

    @Override
    public MetricSnapshots collect() {
        LiveMetrics.Reading r = live.latest();
        if (r == null) {
            return new MetricSnapshots();
        }
        String[] run = {"driver", r.run().driver(), "shard", Integer.toString(r.run().shard()),
                "run_id", r.run().runId()};
        List<MetricSnapshot> out = new ArrayList<>();
        out.add(latency(r, run));
        out.add(operations(r, run));
        if (!Double.isNaN(r.offeredOpsPerSec())) {
            out.add(gauge("loadgen_offered_operations_per_second", "The target rate of this process (a shard's"
                    + " part of the total), or its phase's.", run, r.offeredOpsPerSec()));
        }
        out.add(gauge("loadgen_achieved_operations_per_second", "Operations completed per second in the last"
                + " full interval, whatever their status.", run, r.achievedOpsPerSec()));
        out.add(harness("loadgen_harness_lag_seconds", "The scheduler's own delay (harness.lag: actual start -"
                + " max(intended start, worker free)) of the last interval's operations; quantile 0.99 and 1 (max)."
                + " Throttled runs only.", run, r.lagP99Ns(), r.lagMaxNs()));
        out.add(harness("loadgen_harness_hiccup_seconds", "The longest stall of a thread sleeping 1 ms at a time"
                + " (harness.hiccup, as jHiccup measures) in the last interval; quantile 1 (max).", run, -1,
                r.hiccupMaxNs()));
        out.add(gauge("loadgen_behind_schedule_seconds", "How long the most overdue operation had been due when"
                + " the last interval ended (0: on time).", run, r.behindNs() / 1e9));
        out.add(gauge("loadgen_harness_share_ratio", "The harness's own share of the workers' time in the last"
                + " interval, 0..1 (near 1 while behind: it cannot issue faster).", run, r.harnessShare()));
        out.add(causes(r, run));
        out.add(gauge("loadgen_interval_end_timestamp_seconds", "When the last closed interval ended (epoch"
                + " seconds); every gauge here is of that interval.", run, r.endEpochMs() / 1e3));
        out.add(gauge("loadgen_interval_measured", "1 when the last interval counts in the summary, 0 during the"
                + " warm-up.", run, r.measured() ? 1 : 0));
        return new MetricSnapshots(out);
    }

    private static MetricSnapshot latency(LiveMetrics.Reading r, String[] run) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(LATENCY).help("Latency of the operations that"
                + " succeeded, per op and view: intended (from the intended start: what users see) or service (from"
                + " the actual start)." + SAME_AS_LOG);
        for (LiveMetrics.OpReading op : r.ops()) {
            quantiles(b, op.name(), "intended", op.intendedNs(), run);
            quantiles(b, op.name(), "service", op.serviceNs(), run);
        }
        return b.build();
    }

    private static void quantiles(GaugeSnapshot.Builder b, String op, String view, long[] ns, String[] run) {
        if (ns == null) {
            return; // nothing succeeded in the interval: no value, rather than a made-up one
        }
        for (int i = 0; i < ns.length; i++) {
            b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(ns[i] / 1e9)
                    .labels(labels(run, "op", op, "view", view, "quantile", QUANTILES.get(i))).build());
        }
    }

    private static MetricSnapshot operations(LiveMetrics.Reading r, String[] run) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(OPERATIONS).help("Operations completed since the"
                + " run (or the sweep's or findmax's step) began, per op and status (OK, ERROR, TIMEOUT, ...),"
                + " warm-up included; the JSON summary's counts leave out the warm-up.");
        for (LiveMetrics.OpReading op : r.ops()) {
            for (int k = 0; k < Status.count(); k++) {
                Status s = Status.byOrdinal(k);
                long n = op.total(s);
                if (n > 0 || s.isOk()) {
                    b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().value(n)
                            .labels(labels(run, "op", op.name(), "status", s.name())).build());
                }
            }
        }
        return b.build();
    }

    private static MetricSnapshot harness(String name, String help, String[] run, long p99Ns, long maxNs) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
        if (p99Ns >= 0) {
            b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(p99Ns / 1e9)
                    .labels(labels(run, "quantile", "0.99")).build());
        }
        if (maxNs >= 0) {
            b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(maxNs / 1e9)
                    .labels(labels(run, "quantile", "1")).build());
        }
        return b.build();
    }

    private static MetricSnapshot causes(LiveMetrics.Reading r, String[] run) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name("loadgen_diagnosis_cause").help("1 for each cause"
                + " the diagnosis names for the last interval alone (ok, target_slow, target_stalled, ...), 0 for"
                + " the others; the run's own diagnosis, over all of it, is in its summary.");
        for (CauseCode c : CauseCode.values()) {
            b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(r.causes().contains(c) ? 1 : 0)
                    .labels(labels(run, "cause", c.key())).build());
        }
        return b.build();
    }

    private static MetricSnapshot gauge(String name, String help, String[] run, double value) {
        return GaugeSnapshot.builder().name(name).help(help)
                .dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).labels(labels(run)).build())
                .build();
    }

    private static Labels labels(String[] run, String... more) {
        String[] all = java.util.Arrays.copyOf(run, run.length + more.length);
        System.arraycopy(more, 0, all, run.length, more.length);
        return Labels.of(all);
    }
}
