package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.core.summary.HgrmFile;
import io.loadgen.plot.ChartFiles;
import io.loadgen.plot.ChartStyle;
import io.loadgen.core.output.OutputPaths;
import io.loadgen.plot.PlotOptions;
import io.loadgen.plot.Plotter;
import io.loadgen.plot.SlaLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code loadgen plot}: charts as PNG and SVG from what runs wrote (interval logs, {@code .hgrm} files, JSON
 * summaries, sweep results), through {@link Plotter}. Prints the paths it wrote on stdout. Main thread.
 */
@Command(name = "plot", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Draw charts from what runs wrote: the percentile distribution (interval logs, .hgrm files, "
                + "JSON summaries), latency over time with pauses marked (interval logs), and latency vs "
                + "throughput with the knee marked (sweep --csv or --json).",
                "Each chart is named after its input and written next to it (or into --output DIR); the paths "
                        + "written go to stdout."},
        footer = {"", "Examples:",
                "  loadgen plot loadgen-demo.hlog           (its .percentiles.png and .over-time.png)",
                "  loadgen plot run.hlog --tag READ.intended --sla 'p99 < 50ms' --format both",
                "  loadgen plot hgrm/READ.intended.hgrm hgrm/READ.service.hgrm -o charts",
                "  loadgen plot sweep.csv --sla 'p99 < 50ms'  (sweep.latency-vs-throughput.png)"})
final class PlotCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    QuietMixin quiet;

    @Parameters(paramLabel = "INPUT", arity = "1..*",
            description = "Interval logs (run --hlog, plain or gzip), .hgrm files (run --hgrm), JSON summaries "
                    + "(run --json) or sweep results (sweep --csv, --json); told apart by content. A quoted glob such"
                    + " as 'logs/*.hlog' is expanded by loadgen; a sharded run's logs are merged into one.")
    List<Path> inputs = new ArrayList<>();

    @Option(names = "--tag", order = 20, paramLabel = "TAG",
            description = "A tag to draw, e.g. READ.intended (repeatable; default: each operation type's intended "
                    + "and service views).")
    List<String> tags = new ArrayList<>();

    @Option(names = "--start", order = 30, paramLabel = "SEC", converter = SecondsConverter.class,
            description = "Only intervals starting at or after SEC seconds (or a duration, e.g. 2m) after the log's "
                    + "StartTime, as in 'loadgen report' (default 0).")
    double start = 0.0;

    @Option(names = "--end", order = 40, paramLabel = "SEC", converter = SecondsConverter.class,
            description = "Only intervals starting at or before SEC seconds after the log's StartTime (default: the end).")
    double end = Double.MAX_VALUE;

    @Option(names = "--sla", order = 50, paramLabel = "RULE",
            description = "An objective to draw, in the gate's rule syntax: 'p99 < 5ms', 'max < 1s' or "
                    + "'READ.intended.p99.9 < 20ms' (repeatable: a staircase on the percentile chart). On a sweep "
                    + "the first also decides the knee: the highest rate that kept up and met it.")
    List<String> slas = new ArrayList<>();

    @Option(names = "--title", order = 60, paramLabel = "TEXT", description = "The charts' title (default: each chart's own).")
    String title;

    @Option(names = "--width", order = 70, paramLabel = "PX", description = "Width in pixels. Default: ${DEFAULT-VALUE}.",
            defaultValue = "" + ChartStyle.DEFAULT_WIDTH)
    int width;

    @Option(names = "--height", order = 80, paramLabel = "PX", description = "Height in pixels. Default: ${DEFAULT-VALUE}.",
            defaultValue = "" + ChartStyle.DEFAULT_HEIGHT)
    int height;

    @Option(names = "--y-scale", order = 90, paramLabel = "log|linear", defaultValue = "linear",
            description = "The latency axis: linear or log. Default: ${DEFAULT-VALUE}.")
    String yScale;

    @Option(names = "--format", order = 100, paramLabel = "png|svg|both", defaultValue = "png",
            description = "File format. Default: ${DEFAULT-VALUE}.")
    ChartFiles.Format format;

    @Option(names = {"-o", "--output"}, order = 110, paramLabel = "DIR",
            description = "Write the charts into DIR (created if needed; default: next to each input).")
    Path output;

    @Option(names = "--html", order = 115, paramLabel = "FILE",
            description = "Write the HTML latency explorer of the interval logs instead of the charts: one"
                    + " self-contained page (no network) whose time window can be brushed, recomputing the"
                    + " percentiles in the page exactly as 'loadgen report --start --end' does. A JSON summary among"
                    + " the inputs adds its run figures.")
    Path html;

    @Option(names = "--hgrm-unit", order = 120, paramLabel = "ns|us|ms|s",
            description = "The unit of .hgrm values. Default: the file's own unit line ('run --hgrm' writes one),"
                    + " else ms, as 'report -o' and HistogramLogProcessor write them by default.")
    String hgrmUnit;

    @Option(names = "--allow-mixed", order = 125,
            description = "Merge the logs of different runs (their #[run_id] lines differ) where they would merge"
                    + " (a sharded run's); default: refuse, exit code 3.")
    boolean allowMixed;

    @Option(names = "--include-warmup", order = 126,
            description = "Draw the run's warm-up (--warmup), which its JSON leaves out (default: leave it out too).")
    boolean includeWarmup;

    PlotCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws Exception {
        PlotOptions options = options();
        Plotter plotter = new Plotter(options, w -> io.err().println("warning: " + w));
        List<Path> files = InputGlobs.expand(inputs);
        if (html != null) {
            new OutputPaths().inputs("INPUT", files).output("--html", html).check();
            RunReporter.checkWritableFile(html, "--html");
        }
        for (Path written : html != null ? plotter.explore(files, html) : plotter.plot(files)) {
            io.out().println(written);
        }
        io.out().flush();
        return 0;
    }

    private PlotOptions options() {
        if (end < start) {
            throw new BadInputException("--end " + end + " is before --start " + start + "; give an end after the start");
        }
        if (width < 200 || height < 150 || width > 10_000 || height > 10_000) {
            throw new BadInputException("--width " + width + " --height " + height + " is not a chart size; give 200 to"
                    + " 10000 pixels wide and 150 to 10000 high");
        }
        boolean logY = switch (yScale.toLowerCase(java.util.Locale.ROOT)) {
            case "log" -> true;
            case "linear" -> false;
            default -> throw new BadInputException("--y-scale must be log or linear, got '" + yScale + "'");
        };
        List<SlaLine> lines = new ArrayList<>();
        slas.forEach(s -> lines.add(SlaLine.parse(s)));
        if (output != null && Files.exists(output) && !Files.isDirectory(output)) { // made when the first chart is written
            throw new BadInputException("--output " + output + " is a file, not a directory; give a directory (one that"
                    + " does not exist is created)");
        }
        return new PlotOptions(tags, start, end, lines, new ChartStyle(title, width, height, logY), format,
                hgrmUnit == null ? 0.0 : nsPerUnit(hgrmUnit), output, allowMixed, includeWarmup);
    }

    static double nsPerUnit(String unit) {
        double ns = HgrmFile.nsPerUnit(unit);
        if (Double.isNaN(ns)) {
            throw new BadInputException("--hgrm-unit must be ns, us, ms or s, got '" + unit + "'");
        }
        return ns;
    }
}
