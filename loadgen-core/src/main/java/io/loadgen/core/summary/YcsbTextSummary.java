package io.loadgen.core.summary;

import io.loadgen.core.driver.Status;
import io.loadgen.core.record.Histograms;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Map;

/**
 * Prints a {@link RunResult} in YCSB's text summary format ({@code TextMeasurementsExporter}):
 * one {@code [METRIC], name, value} line per measurement. Stateless; called on the main thread
 * after a run.
 *
 * <pre>
 * [OVERALL], RunTime(ms), 10012
 * [OVERALL], Throughput(ops/sec), 9987.3
 * [TOTAL_GCS_G1 Young Generation], Count, 3
 * [TOTAL_GC_TIME_G1 Young Generation], Time(ms), 12
 * [TOTAL_GC_TIME_%_G1 Young Generation], Time(%), 0.11985617259288853
 * ...
 * [TOTAL_GCs], Count, 3
 * [TOTAL_GC_TIME], Time(ms), 12
 * [TOTAL_GC_TIME_%], Time(%), 0.11985617259288853
 * [READ], Operations, 99873
 * [READ], AverageLatency(us), 1234.5678
 * [READ], MinLatency(us), 201
 * [READ], MaxLatency(us), 187903
 * [READ], 50thPercentileLatency(us), 612
 * ...
 * [READ], 99.99PercentileLatency(us), 160767
 * [READ], Return=OK, 99873
 * [Intended-READ], Operations, 99873
 * ...
 * [READ-FAILED], Operations, 20
 * ...
 * [Intended-READ-FAILED], Operations, 20
 * ...
 * [CLEANUP], Operations, 1
 * [CLEANUP], AverageLatency(us), 1520.3
 * ...
 * [DRIVER], someCounter, 12
 * [HARNESS], gcCount, 3
 * [HARNESS], Lag99thPercentileLatency(us), 12
 * [HARNESS], HiccupMaxLatency(us), 310
 * [HARNESS], GcPauses, 0
 * ...
 * [HARNESS], Verdict, healthy
 * </pre>
 *
 * <p>As in YCSB: latencies are whole microseconds (nanoseconds divided by 1000, truncated) except
 * the average, which is a double; integer percentiles get an ordinal suffix ({@code 50th}), others
 * print as they are ({@code 99.9}); an empty histogram prints zeros; and {@code Return=} lines
 * (non-zero statuses, in {@link Status} order) appear only under the plain, service-time label,
 * never under {@code Intended-}. Per operation type, in the result's order, the blocks are
 * {@code [OP]}, {@code [Intended-OP]}, then {@code [Corrected-OP]}. These blocks hold the operations
 * that returned OK, while the {@code Return=} lines count every status. When some did not,
 * {@code [OP-FAILED]} and {@code [Intended-OP-FAILED]} follow (YCSB's names), with the same lines.
 * {@code [CORRECTED]} then says
 * whether the corrected view is {@code Applicable} and, when the run has one rate, the
 * {@code ExpectedInterval(us)} it is computed with and the {@code InFlightPerThread} that came from
 * ({@link CorrectedBasis}). When it is not applicable (no {@code --target}, phases, or an interval as
 * long as the run) the {@code [Corrected-OP]} blocks are left out; the reason, free text, is not a YCSB
 * value and goes under the comparison table. {@code [CORRECTED]}, {@code [DRIVER]} and {@code [HARNESS]}
 * lines are loadgen's additions. A run's summary also has YCSB's client lines ({@link YcsbClientStats}): the
 * GC lines after {@code [OVERALL]} and {@code [CLEANUP]}, the driver's close, after the operations.
 */
public final class YcsbTextSummary {
    /** The percentiles printed for every view, as YCSB names them. */
    static final double[] PERCENTILES = {50, 90, 95, 99, 99.9, 99.99};

    private static final View[] ORDER = {View.SERVICE, View.INTENDED, View.CORRECTED};

    private YcsbTextSummary() {
    }

    /** The summary of a run without YCSB's client lines ({@link YcsbClientStats#NONE}). */
    public static void write(RunResult result, PrintStream out) {
        write(result, YcsbClientStats.NONE, out);
    }

    /** The summary, with YCSB's GC lines after {@code [OVERALL]} and {@code [CLEANUP]} after the operations. */
    public static void write(RunResult result, YcsbClientStats client, PrintStream out) {
        line(out, "OVERALL", "RunTime(ms)", String.valueOf(result.runTimeNs() / 1_000_000L));
        line(out, "OVERALL", "Throughput(ops/sec)", Double.toString(result.throughputOpsPerSec()));
        writeGc(out, client, result.runTimeNs());
        for (OpResult op : result.operations()) {
            for (View view : ReportedViews.of(result, ORDER)) {
                writeView(out, view.ycsbLabel(op.name()), op.histogram(view));
                if (view == View.SERVICE) {
                    writeReturns(out, op);
                }
            }
            if (op.failures() > 0) {
                writeView(out, View.SERVICE.failedYcsbLabel(op.name()), op.failedHistogram(View.SERVICE));
                writeView(out, View.INTENDED.failedYcsbLabel(op.name()), op.failedHistogram(View.INTENDED));
            }
        }
        if (client.cleanupNs() >= 0) {
            Histogram cleanup = Histograms.newHistogram();
            cleanup.recordValue(Histograms.clamp(client.cleanupNs()));
            writeView(out, "CLEANUP", cleanup);
        }
        writeCorrectedBasis(out, result.corrected());
        writeStats(out, "DRIVER", result.driverStats());
        writeStats(out, "HARNESS", result.harness());
        writeHealth(out, result);
        out.flush();
    }

    private static void writeView(PrintStream out, String label, Histogram h) {
        line(out, label, "Operations", String.valueOf(h.getTotalCount()));
        line(out, label, "AverageLatency(us)", Double.toString(h.getMean() / ReportedViews.NS_PER_US));
        line(out, label, "MinLatency(us)", String.valueOf(wholeMicros(h.getMinValue())));
        line(out, label, "MaxLatency(us)", String.valueOf(wholeMicros(h.getMaxValue())));
        for (double p : PERCENTILES) {
            line(out, label, percentileName(p), String.valueOf(wholeMicros(h.getValueAtPercentile(p))));
        }
    }

    /**
     * YCSB's GC lines, as its client names them: per collector {@code [TOTAL_GCS_<name>], Count},
     * {@code [TOTAL_GC_TIME_<name>], Time(ms)} and {@code [TOTAL_GC_TIME_%_<name>], Time(%)}, then the totals
     * {@code [TOTAL_GCs], Count}, {@code [TOTAL_GC_TIME], Time(ms)} and {@code [TOTAL_GC_TIME_%], Time(%)}, the
     * share being of the run time.
     */
    private static void writeGc(PrintStream out, YcsbClientStats client, long runTimeNs) {
        if (client.collectors().isEmpty()) {
            return;
        }
        double runTimeMs = runTimeNs / 1e6;
        long count = 0;
        long timeMs = 0;
        for (YcsbClientStats.Collector c : client.collectors()) {
            line(out, "TOTAL_GCS_" + c.name(), "Count", String.valueOf(c.count()));
            line(out, "TOTAL_GC_TIME_" + c.name(), "Time(ms)", String.valueOf(c.timeMs()));
            line(out, "TOTAL_GC_TIME_%_" + c.name(), "Time(%)", Double.toString(percentOf(c.timeMs(), runTimeMs)));
            count += c.count();
            timeMs += c.timeMs();
        }
        line(out, "TOTAL_GCs", "Count", String.valueOf(count));
        line(out, "TOTAL_GC_TIME", "Time(ms)", String.valueOf(timeMs));
        line(out, "TOTAL_GC_TIME_%", "Time(%)", Double.toString(percentOf(timeMs, runTimeMs)));
    }

    private static double percentOf(long ms, double runTimeMs) {
        return runTimeMs <= 0 ? 0.0 : ms / runTimeMs * 100;
    }

    private static void writeCorrectedBasis(PrintStream out, CorrectedBasis basis) {
        line(out, "CORRECTED", "Applicable", String.valueOf(basis.applicable()));
        if (basis.expectedIntervalNs() > 0) {
            line(out, "CORRECTED", "ExpectedInterval(us)",
                    Double.toString(ReportedViews.micros(basis.expectedIntervalNs())));
            line(out, "CORRECTED", "InFlightPerThread", String.valueOf(basis.inFlightPerThread()));
        }
    }

    private static void writeReturns(PrintStream out, OpResult op) {
        for (int i = 0; i < Status.count(); i++) {
            Status status = Status.byOrdinal(i);
            long n = op.statusCount(status);
            if (n > 0) {
                line(out, op.name(), "Return=" + status.name(), String.valueOf(n));
            }
        }
    }

    private static void writeStats(PrintStream out, String metric, Map<String, Number> stats) {
        for (Map.Entry<String, Number> e : stats.entrySet()) {
            line(out, metric, e.getKey(), String.valueOf(e.getValue()));
        }
    }

    /**
     * The harness's watch on itself, when it watched: lag and hiccup percentiles, its GC pauses, its share of
     * the workers' time and the verdict, e.g. {@code [HARNESS], Lag99thPercentileLatency(us), 12},
     * {@code [HARNESS], Verdict, healthy}.
     */
    private static void writeHealth(PrintStream out, RunResult result) {
        HarnessReport health = result.health();
        if (!health.measured()) {
            return;
        }
        if (result.throttled() && result.lag() != null) {
            writeHarnessPercentiles(out, "Lag", result.lag());
        }
        if (health.hiccups() != null) {
            writeHarnessPercentiles(out, "Hiccup", health.hiccups());
        }
        line(out, "HARNESS", "GcPauses", String.valueOf(health.gcPauses()));
        line(out, "HARNESS", "GcPauseTotal(ms)", Double.toString(health.gcPauseTotalNs() / 1e6));
        line(out, "HARNESS", "GcPauseMax(ms)", Double.toString(health.gcPauseMaxNs() / 1e6));
        line(out, "HARNESS", "BehindShare", Double.toString(health.behindShare()));
        line(out, "HARNESS", "HarnessShare", Double.toString(health.harnessShare()));
        line(out, "HARNESS", "Verdict", health.verdict().status());
    }

    private static void writeHarnessPercentiles(PrintStream out, String series, Histogram h) {
        for (double p : new double[] {50, 99, 99.9}) {
            line(out, "HARNESS", series + percentileName(p), String.valueOf(wholeMicros(h.getValueAtPercentile(p))));
        }
        line(out, "HARNESS", series + "MaxLatency(us)", String.valueOf(wholeMicros(h.getMaxValue())));
    }

    private static void line(PrintStream out, String metric, String name, String value) {
        out.println("[" + metric + "], " + name + ", " + value);
    }

    private static long wholeMicros(long ns) {
        return ns / 1_000L;
    }

    /** YCSB's name for a percentile line: {@code 50thPercentileLatency(us)}, {@code 99.9PercentileLatency(us)}. */
    static String percentileName(double percentile) {
        return ordinal(percentile) + "PercentileLatency(us)";
    }

    /** YCSB's ordinal: integers get a suffix ({@code 1st, 2nd, 3rd, 11th, 50th}), others print as a double. */
    static String ordinal(double percentile) {
        if (percentile % 1 != 0) {
            return Double.toString(percentile);
        }
        long n = (long) percentile;
        long lastTwo = n % 100;
        if (lastTwo >= 11 && lastTwo <= 13) {
            return n + "th";
        }
        return switch ((int) (n % 10)) {
            case 1 -> n + "st";
            case 2 -> n + "nd";
            case 3 -> n + "rd";
            default -> n + "th";
        };
    }
}
