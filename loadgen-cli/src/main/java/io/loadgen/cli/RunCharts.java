package io.loadgen.cli;

import io.loadgen.core.findmax.FindMaxResult;
import io.loadgen.core.findmax.FindMaxStep;
import io.loadgen.core.gate.Limit;
import io.loadgen.core.gate.Rule;
import io.loadgen.core.record.View;
import io.loadgen.core.sweep.SweepPoint;
import io.loadgen.core.sweep.SweepStep;
import io.loadgen.plot.FindMaxChart;
import io.loadgen.plot.PlotOptions;
import io.loadgen.plot.Plotter;
import io.loadgen.plot.SlaLine;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The charts the running commands draw when asked ({@code run --plot DIR}, {@code sweep --plot DIR}) or always
 * ({@code demo}): {@link Plotter} with its defaults, each path written reported on stderr. Main thread, after the
 * run's report.
 */
final class RunCharts {
    private final Streams io;

    RunCharts(Streams io) {
        this.io = io;
    }

    /** The percentile and over-time charts of {@code hlog}, and its HTML explorer, into {@code dir}. */
    void ofLog(Path hlog, Path dir) throws IOException {
        Plotter plotter = new Plotter(PlotOptions.defaults().into(dir), w -> io.err().println("warning: " + w));
        List<Path> written = new ArrayList<>(plotter.plotLog(hlog));
        written.add(plotter.exploreLog(hlog));
        report(written);
    }

    /** The latency-vs-throughput chart of a sweep, {@code dir/sweep.latency-vs-throughput.png}. */
    void ofSweep(List<SweepStep> steps, SlaLine objective, Path dir) throws IOException {
        PlotOptions options = PlotOptions.defaults().into(dir).withSlas(objective == null ? List.of() : List.of(objective));
        report(new Plotter(options, w -> { }).sweep(steps.stream().map(SweepPoint::of).toList(), dir.resolve("sweep")));
    }

    /**
     * The latency-vs-throughput chart of a findmax search, {@code dir/findmax.latency-vs-throughput.png}: its steps,
     * each latency objective's limit, the answer and its band.
     */
    void ofFindMax(FindMaxResult result, Path dir) throws IOException {
        List<SweepPoint> points = new ArrayList<>();
        for (FindMaxStep s : result.steps()) {
            SweepStep step = new SweepStep(s.number(), s.offeredOpsPerSec(), s.result());
            Histogram intended = step.view(View.INTENDED);
            Histogram service = step.view(View.SERVICE);
            // x is the offered rate: the search's axis, where the answer and band are
            points.add(new SweepPoint(s.offeredOpsPerSec(), s.offeredOpsPerSec(), s.keptUp(),
                    intended.getValueAtPercentile(50), intended.getValueAtPercentile(99),
                    intended.getValueAtPercentile(99.9), intended.getMaxValue(), service.getValueAtPercentile(99),
                    step.errors(), step.unissued()));
        }
        List<FindMaxChart.LimitLine> limits = new ArrayList<>();
        for (Rule rule : result.rules()) {
            if (rule.limit().unit() == Limit.Unit.NANOS) {
                limits.add(new FindMaxChart.LimitLine(rule.text(), rule.limit().value()));
            }
        }
        report(new Plotter(PlotOptions.defaults().into(dir), w -> { }).findMax(points, limits, result.answer(),
                result.bandLow(), result.bandHigh(), dir.resolve("findmax")));
    }

    /** True for a name the charts and pages in a --plot directory have: {@code .png}, {@code .svg}, {@code .html}. */
    static boolean isChartName(String name) {
        return name.endsWith(".png") || name.endsWith(".svg") || name.endsWith(".html");
    }

    private void report(List<Path> written) {
        written.forEach(p -> io.err().println("loadgen: wrote " + p));
    }
}
