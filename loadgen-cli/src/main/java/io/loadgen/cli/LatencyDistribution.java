package io.loadgen.cli;

import io.loadgen.core.record.View;
import io.loadgen.core.summary.OpResult;
import io.loadgen.core.summary.RunResult;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code run --latency}: each operation type's intended latency (from its intended start, which is what wrk2
 * records) in wrk2's {@code --latency} layout: eight percentiles, then HdrHistogram's own percentile distribution
 * ({@link Histogram#outputPercentileDistribution}, 5 ticks per half distance, values in ms, as wrk2 prints it
 * with {@code hdr_percentiles_print(h, stdout, 5, 1000.0, CLASSIC)} of its µs). Main thread.
 */
final class LatencyDistribution {
    /** wrk2's percentiles, in its order. */
    private static final double[] PERCENTILES = {50, 75, 90, 99, 99.9, 99.99, 99.999, 100};
    /** The histograms hold ns; the spectrum is in ms, as wrk2's. */
    private static final double NS_PER_MS = 1e6;

    private LatencyDistribution() {
    }

    static void write(RunResult result, PrintStream out) {
        boolean several = result.operations().size() > 1;
        for (OpResult op : result.operations()) {
            Histogram h = op.views().get(View.INTENDED);
            String of = several ? " of " + op.name() : "";
            out.println();
            if (h == null || h.getTotalCount() == 0) {
                out.println("  Latency Distribution" + of + ": no operation completed");
                continue;
            }
            out.println("  Latency Distribution" + of + " (HdrHistogram - Recorded Latency)");
            for (double p : PERCENTILES) {
                out.println(String.format(Locale.ROOT, "%7.3f%%%10s", p, time(h.getValueAtPercentile(p))));
            }
            out.println();
            out.println("  Detailed Percentile spectrum:");
            h.outputPercentileDistribution(out, 5, NS_PER_MS);
        }
        out.flush();
    }

    /** wrk's format_time_us: two decimals in the largest unit of us, ms, s that the value reaches. */
    static String time(long ns) {
        double us = ns / 1e3;
        if (us < 1e3) {
            return String.format(Locale.ROOT, "%.2fus", us);
        }
        if (us < 1e6) {
            return String.format(Locale.ROOT, "%.2fms", us / 1e3);
        }
        return String.format(Locale.ROOT, "%.2fs ", us / 1e6);
    }
}
