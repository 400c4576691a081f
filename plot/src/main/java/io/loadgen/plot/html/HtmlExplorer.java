package io.loadgen.plot.html;

import io.loadgen.core.BadInputException;
import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.output.OutputWriteException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the HTML latency explorer: one self-contained page (uPlot and the data inlined, no network)
 * that charts interval logs and lets a reader choose a time window. Called on the main thread, e.g. by
 * {@code loadgen plot --html FILE}, {@code run --plot} and {@code demo}.
 *
 * <pre><code>
 * HtmlExplorer.write(List.of(Path.of("run.hlog")), ExplorerOptions.defaults(), Path.of("run.html"));
 * </code></pre>
 *
 * <p>The page shows, for the chosen tags:
 * <ul>
 * <li>latency over time: each interval's p50, p99 and max per tag (the harness's own tags unticked), the
 * log's pauses ({@code #[event: ...]}) as bands, and each operation type's throughput per interval; colours
 * from {@link io.loadgen.plot.Palette}, as the PNG charts';</li>
 * <li>the percentile distribution, x on the {@code 1/(1-p)} scale (0%, 90%, 99%, ... 99.999%);</li>
 * <li>a summary table: count, min, mean, p50, p90, p99, p99.9, max per tag, as a person reads them
 * ({@link io.loadgen.plot.LatencyUnit#human}: {@code 4.91 ms});</li>
 * <li>run parameters (the logs' {@code #[run: ...]}, {@code #[properties: ...]} headers, and the JSON
 * summary when given) and harness health ({@code harness.lag}, failed operations, status counts).</li>
 * </ul>
 * Dragging across the over-time chart chooses a window, and the distribution, the table and the health
 * panel are recomputed for that window alone, in the browser, from the intervals' own histograms:
 * each interval's recorded buckets and counts are embedded ({@link PageData}), merged as
 * {@code Histogram.add} merges them, and read as {@code getValueAtPercentile} reads them. A window
 * [S, E] selects intervals by {@code report --start S --end E}'s rule, so the page's p99 is the p99 that
 * {@code loadgen report --start S --end E --json} gives, to the nanosecond. The window is also in the
 * page's address ({@code page.html#start=5&end=10}, optionally {@code &tags=READ.intended,READ.service}),
 * so a window can be linked to.
 *
 * <p>Size: uPlot and the page's own code take about 80 kB; the data about two bytes per recorded
 * bucket per interval and tag, gzipped (to about 0.4 of that, in base64), plus each tag's bucket dictionary
 * and each interval's figures. A 30 s log like {@code loadgen demo}'s (10,000 ops/s, 1 s intervals) makes a
 * page of about 0.65 MB; a 1-hour log of 4,500 ops/s one of 28 MB, drawn in under a second
 * ({@code bench/explorer-open.sh}): the page draws from the figures and inflates the intervals after.
 */
public final class HtmlExplorer {
    private HtmlExplorer() {
    }

    /**
     * Reads {@code logs} (merged on absolute time when several, as {@code report} merges them) and writes
     * the page to {@code out}, replacing it.
     *
     * @throws BadInputException when a log is missing or not a log, nothing falls in the range, a wanted
     *                           tag is absent, or {@code out} cannot be written; the message names the fix
     */
    public static void write(List<Path> logs, ExplorerOptions options, Path out) throws IOException {
        writePage(render(logs, options), out);
    }

    /** Writes a page of this package to {@code out}, replacing it whole or not at all. */
    static void writePage(String page, Path out) throws IOException {
        try {
            AtomicFile.write(out, o -> o.write(page.getBytes(StandardCharsets.UTF_8)));
        } catch (FileSystemException e) {
            throw new BadInputException("cannot write the HTML page " + out + " (" + e.getMessage()
                    + "); choose a writable path for --html", e);
        } catch (IOException e) {
            throw new OutputWriteException(out, e);
        }
    }

    /** The page as text. */
    static String render(List<Path> logs, ExplorerOptions options) throws IOException {
        ExplorerData data = ExplorerData.read(logs, options);
        String title = options.title() != null ? options.title()
                : "loadgen latency explorer: " + String.join(", ", fileNames(data.sources()));
        return PageTemplate.render(title, PageData.json(data, options, title));
    }

    private static List<String> fileNames(List<String> sources) {
        return sources.stream().map(s -> {
            Path name = Path.of(s).getFileName();
            return name == null ? s : name.toString();
        }).toList();
    }
}
