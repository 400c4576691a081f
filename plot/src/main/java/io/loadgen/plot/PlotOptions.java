package io.loadgen.plot;

import io.loadgen.core.summary.HgrmFile;

import java.nio.file.Path;
import java.util.List;

/**
 * What to draw and where, as {@code loadgen plot} takes it; validated by the command, then immutable.
 *
 * @param tags           the interval-log (or JSON summary) tags to draw; empty for each operation type's
 *                       intended and service views
 * @param startSec       intervals starting at or after this many seconds after the log's StartTime
 * @param endSec         ... and at or before this many ({@code Double.MAX_VALUE}: to the end)
 * @param slas           objectives to draw (the first also decides a sweep's knee)
 * @param style          title, size, latency axis
 * @param format         PNG, SVG or both
 * @param hgrmNsPerUnit  nanoseconds per value of a {@code .hgrm} file (1000: µs), or 0 for the file's own unit line,
 *                       else ms ({@link HgrmFile#DEFAULT_NS_PER_UNIT}, as {@code run --hgrm} and {@code report} write)
 * @param outputDir      where the charts go; null for next to the first input
 * @param allowMixed     merge the logs of different runs (default: refuse, exit code 3)
 * @param includeWarmup  draw the run's warm-up, which its JSON leaves out (default: leave it out too)
 */
public record PlotOptions(List<String> tags, double startSec, double endSec, List<SlaLine> slas, ChartStyle style,
                          ChartFiles.Format format, double hgrmNsPerUnit, Path outputDir, boolean allowMixed,
                          boolean includeWarmup) {
    public PlotOptions {
        tags = List.copyOf(tags);
        slas = List.copyOf(slas);
    }

    /** One run's logs, its warm-up left out. */
    public PlotOptions(List<String> tags, double startSec, double endSec, List<SlaLine> slas, ChartStyle style,
                       ChartFiles.Format format, double hgrmNsPerUnit, Path outputDir) {
        this(tags, startSec, endSec, slas, style, format, hgrmNsPerUnit, outputDir, false, false);
    }

    /** These options, reading logs of different runs ({@code allowMixed}) and the warm-up ({@code includeWarmup}). */
    public PlotOptions reading(boolean allowMixed, boolean includeWarmup) {
        return new PlotOptions(tags, startSec, endSec, slas, style, format, hgrmNsPerUnit, outputDir, allowMixed,
                includeWarmup);
    }

    /** Every default: all of the log, no objective, PNG, 1000 x 600, next to the input. */
    public static PlotOptions defaults() {
        return new PlotOptions(List.of(), 0.0, Double.MAX_VALUE, List.of(), ChartStyle.defaults(),
                ChartFiles.Format.PNG, 0.0, null);
    }

    /** These options writing into {@code dir}. */
    public PlotOptions into(Path dir) {
        return new PlotOptions(tags, startSec, endSec, slas, style, format, hgrmNsPerUnit, dir, allowMixed,
                includeWarmup);
    }

    /** These options with {@code slas} instead. */
    public PlotOptions withSlas(List<SlaLine> slas) {
        return new PlotOptions(tags, startSec, endSec, slas, style, format, hgrmNsPerUnit, outputDir, allowMixed,
                includeWarmup);
    }

    boolean wholeLog() {
        return startSec == 0.0 && endSec == Double.MAX_VALUE;
    }
}
