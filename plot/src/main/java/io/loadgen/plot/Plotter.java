package io.loadgen.plot;

import io.loadgen.core.BadInputException;
import io.loadgen.core.DamagedInputException;
import io.loadgen.core.log.LogSet;
import io.loadgen.core.summary.HgrmFile;
import io.loadgen.core.summary.JsonSummaryFile;
import io.loadgen.core.sweep.SweepPoint;
import io.loadgen.core.sweep.SweepResults;
import io.loadgen.plot.html.ExplorerOptions;
import io.loadgen.plot.html.HtmlExplorer;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Turns inputs into chart files: the percentile distribution of every latency input (interval logs,
 * {@code .hgrm} files, JSON summaries: one curve per log tag, file or summary view), the latency over
 * time of each interval log (a sharded run's logs merged into one, see {@link LogSeries#runs}), and the
 * latency-versus-throughput curve of each sweep. Files are named
 * after their input: {@code run.hlog} gives {@code run.percentiles.png} and {@code run.over-time.png};
 * {@code sweep.csv} gives {@code sweep.latency-vs-throughput.png}. Inputs are told apart by content
 * and read only through core's readers. Main thread.
 */
public final class Plotter {
    static final String PERCENTILES = ".percentiles";
    static final String OVER_TIME = ".over-time";
    static final String LATENCY_VS_THROUGHPUT = ".latency-vs-throughput";

    private final PlotOptions options;
    private final Consumer<String> warnings;

    /** @param warnings where damage that leaves a log readable is reported, one line each */
    public Plotter(PlotOptions options, Consumer<String> warnings) {
        this.options = options;
        this.warnings = warnings;
    }

    /**
     * Writes the HTML latency explorer of the interval logs among {@code inputs} to {@code out}, with a JSON
     * summary among them, if any, for its run figures; the tags, time range and title are these options'.
     *
     * @return {@code out}
     * @throws BadInputException for no interval log, a second summary, or an input the page cannot show
     */
    public List<Path> explore(List<Path> inputs, Path out) throws IOException {
        List<Path> logs = new ArrayList<>();
        Path summary = null;
        for (Path input : inputs) {
            Kind kind = kindOf(input);
            if (kind == Kind.LOG) {
                logs.add(input);
            } else if (kind == Kind.SUMMARY && summary == null) {
                summary = input;
            } else {
                throw new BadInputException("--html shows interval logs (and one JSON summary's run figures); "
                        + input + " is " + (kind == Kind.SUMMARY ? "a second JSON summary" : kind == Kind.HGRM
                        ? "a .hgrm file" : "a sweep's results") + ": leave it out, or plot it without --html");
            }
        }
        if (logs.isEmpty()) {
            throw new BadInputException("--html needs an interval log (run --hlog FILE) among the inputs");
        }
        ExplorerOptions.Builder page = ExplorerOptions.builder().tags(options.tags())
                .start(options.startSec()).end(options.endSec()).warnings(warnings)
                .reading(options.allowMixed(), options.includeWarmup());
        if (options.style().title() != null) {
            page.title(options.style().title());
        }
        if (summary != null) {
            page.summary(JsonSummaryFile.tree(summary));
        }
        HtmlExplorer.write(logs, page.build(), out);
        return List.of(out);
    }

    /** The explorer of one run's log, {@code DIR/NAME.html} next to its charts (run --plot, demo). */
    public Path exploreLog(Path log) throws IOException {
        Path out = baseFor(log, ".html");
        explore(List.of(log), out);
        return out;
    }

    /** What an input file is. */
    enum Kind { LOG, HGRM, SUMMARY, SWEEP }

    /**
     * Draws every chart {@code inputs} allow and returns the files written, in order.
     *
     * @throws BadInputException for a missing or unreadable input, a tag or time range with nothing in it,
     *                           or a time range without any interval log
     */
    public List<Path> plot(List<Path> inputs) throws IOException {
        if (inputs.isEmpty()) {
            throw new BadInputException("nothing to plot; give interval logs (run --hlog), .hgrm files (run --hgrm),"
                    + " JSON summaries (run --json) or sweep results (sweep --csv or --json)");
        }
        List<Path> logs = new ArrayList<>();
        List<PercentileCurve> curves = new ArrayList<>();
        List<Path> written = new ArrayList<>();
        List<LogSeries> read = new ArrayList<>();
        for (Path input : inputs) {
            switch (kindOf(input)) {
                case LOG -> logs.add(input);
                case HGRM -> {
                    HgrmFile file = HgrmFile.read(input);
                    double nsPerValue = options.hgrmNsPerUnit() > 0 ? options.hgrmNsPerUnit()
                            : file.nsPerValue(HgrmFile.DEFAULT_NS_PER_UNIT);
                    curves.add(PercentileCurve.of(file, nsPerValue));
                }
                case SUMMARY -> curves.addAll(summaryCurves(input, inputs.size() > 1));
                case SWEEP -> written.addAll(sweep(SweepResults.read(input), baseFor(input)));
            }
        }
        String repeated = LogSet.repeatedAmong(logs);
        if (!repeated.isEmpty()) {
            throw new DamagedInputException("not plotted: " + repeated); // its curves would be drawn twice
        }
        List<Path> named = new ArrayList<>();
        for (List<Path> run : LogSeries.runs(logs)) {
            named.add(run.get(0));
            read.add(LogSeries.read(run, selection(), warnings));
        }
        if (logs.isEmpty() && !options.wholeLog()) {
            throw new BadInputException("--start/--end select intervals of an interval log, and none was given");
        }
        List<PercentileCurve> all = new ArrayList<>();
        for (int i = 0; i < read.size(); i++) {
            all.addAll(logCurves(read.get(i), read.size() > 1 ? name(named.get(i)) + ": " : ""));
        }
        all.addAll(curves);
        if (!all.isEmpty()) {
            Path first = inputs.stream().filter(p -> kindOf(p) != Kind.SWEEP).findFirst().orElseThrow();
            written.addAll(ChartFiles.write(PercentileChart.build(all, options.slas(), options.style()),
                    baseFor(first, PERCENTILES), options.format()));
        }
        for (int i = 0; i < read.size(); i++) {
            written.addAll(overTime(read.get(i), baseFor(named.get(i), OVER_TIME)));
        }
        return written;
    }

    /** The percentile and over-time charts of one run's log, named after it; for {@code run --plot} and {@code demo}. */
    public List<Path> plotLog(Path log) throws IOException {
        LogSeries series = LogSeries.read(List.of(log), selection(), warnings);
        List<Path> written = new ArrayList<>(ChartFiles.write(
                PercentileChart.build(logCurves(series, ""), options.slas(), options.style()),
                baseFor(log, PERCENTILES), options.format()));
        written.addAll(overTime(series, baseFor(log, OVER_TIME)));
        return written;
    }

    /** The latency-versus-throughput chart of a sweep, written to {@code base}.latency-vs-throughput.*; for {@code sweep --plot}. */
    public List<Path> sweep(List<SweepPoint> points, Path base) throws IOException {
        SlaLine objective = options.slas().isEmpty() ? null : options.slas().get(0);
        return ChartFiles.write(SweepChart.build(points, objective, options.style()),
                base.resolveSibling(base.getFileName() + LATENCY_VS_THROUGHPUT), options.format());
    }

    /**
     * Writes a findmax search's chart to {@code base.latency-vs-throughput.png}: its steps as a sweep, its latency
     * objectives' limits, the answer and its band ({@link FindMaxChart}).
     */
    public List<Path> findMax(List<SweepPoint> points, List<FindMaxChart.LimitLine> limits, double answer,
                              double bandLow, double bandHigh, Path base) throws IOException {
        return ChartFiles.write(FindMaxChart.build(points, limits, answer, bandLow, bandHigh, options.style()),
                base.resolveSibling(base.getFileName() + LATENCY_VS_THROUGHPUT), options.format());
    }

    private LogSeries.Selection selection() {
        return new LogSeries.Selection(options.tags(), options.startSec(), options.endSec(), options.allowMixed(),
                options.includeWarmup());
    }

    private List<Path> overTime(LogSeries log, Path base) throws IOException {
        return ChartFiles.write(OverTimeChart.build(log, tags(log), options.style()), base, options.format());
    }

    private List<String> tags(LogSeries log) {
        return options.tags().isEmpty() ? OverTimeChart.defaultTags(log) : options.tags();
    }

    private List<PercentileCurve> logCurves(LogSeries log, String prefix) {
        List<PercentileCurve> curves = new ArrayList<>();
        for (String tag : tags(log)) {
            curves.add(PercentileCurve.of(prefix + tag, log.series(tag).total()));
        }
        return curves;
    }

    private List<PercentileCurve> summaryCurves(Path input, boolean prefix) {
        List<JsonSummaryFile.Series> series = JsonSummaryFile.read(input);
        List<PercentileCurve> curves = new ArrayList<>();
        for (JsonSummaryFile.Series s : series) {
            boolean wanted = options.tags().isEmpty()
                    ? (s.tag().endsWith(".intended") || s.tag().endsWith(".service")) && !s.tag().contains(".failed.")
                    : options.tags().contains(s.tag());
            if (wanted) {
                curves.add(PercentileCurve.of((prefix ? name(input) + ": " : "") + s.tag(), s));
            }
        }
        if (curves.isEmpty()) {
            throw new BadInputException("no " + (options.tags().isEmpty() ? "intended or service view" : "view "
                    + String.join(", ", options.tags())) + " in " + input + "; views present: "
                    + String.join(", ", series.stream().map(JsonSummaryFile.Series::tag).toList()));
        }
        return curves;
    }

    /** Told by content: a sweep's CSV or a JSON list; a JSON object (a summary); a .hgrm table; else a log. */
    static Kind kindOf(Path input) {
        if (SweepResults.looksLikeSweep(input)) {
            return Kind.SWEEP;
        }
        String head = head(input);
        if (head.startsWith("{")) {
            return Kind.SUMMARY;
        }
        if (HgrmFile.startsLikeOne(head)) {
            return Kind.HGRM;
        }
        return Kind.LOG;
    }

    private static String head(Path input) {
        try (InputStream in = Files.newInputStream(input)) {
            return new String(in.readNBytes(1024), StandardCharsets.UTF_8).strip();
        } catch (NoSuchFileException e) {
            throw new BadInputException(input + " does not exist; give interval logs, .hgrm files, JSON summaries or"
                    + " sweep results");
        } catch (IOException e) {
            throw new BadInputException("cannot read " + input + " (" + e.getMessage() + ")");
        }
    }

    private Path baseFor(Path input) {
        return baseFor(input, "");
    }

    /** {@code DIR/NAME+suffix}, where DIR is the output directory (or the input's) and NAME the input's name without its extension. */
    private Path baseFor(Path input, String suffix) {
        Path dir = options.outputDir() != null ? created(options.outputDir()) : input.toAbsolutePath().getParent();
        return dir.resolve(name(input) + suffix);
    }

    /** The output directory, made when the first chart is about to be written (so bad input leaves none behind). */
    private static Path created(Path dir) {
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new BadInputException("--output " + dir + ": cannot create the directory (" + e.getMessage()
                    + "); choose a writable path", e);
        }
    }

    private static String name(Path input) {
        String n = input.getFileName().toString();
        for (String ext : new String[]{".gz", ".hlog", ".log", ".hgrm", ".json", ".csv"}) {
            if (n.endsWith(ext) && n.length() > ext.length()) {
                n = n.substring(0, n.length() - ext.length());
            }
        }
        return n;
    }
}
