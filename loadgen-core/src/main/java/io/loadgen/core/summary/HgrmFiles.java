package io.loadgen.core.summary;

import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.record.View;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one HdrHistogram percentile-distribution file ({@code .hgrm}, values in milliseconds, as {@code loadgen
 * report} and HistogramLogProcessor write them by default) per operation type and view, for HdrHistogram's plotter
 * and for people. Stateless; called on the
 * main thread after a run.
 *
 * <p>Files are named by the interval-log tag: {@code READ.intended.hgrm}, {@code READ.service.hgrm},
 * {@code READ.corrected.hgrm}, {@code READ.failed.intended.hgrm}, {@code READ.failed.service.hgrm} (the
 * operations that did not return OK; written, empty, when none failed, as the log holds their tags
 * every interval), and {@code harness.lag.hgrm}. A run whose corrected view is not applicable
 * ({@link CorrectedBasis}) has no corrected files, and an unthrottled run no lag file. Each file holds its unit line
 * ({@link HgrmFile#unitLine}), then exactly what {@code histogram.outputPercentileDistribution(out, 5, 1000000.0)}
 * prints: HistogramLogProcessor's {@code .hgrm} of the run's log, for the same tag, after its own two header lines.
 * Existing files are replaced, each whole or not at all ({@link AtomicFile}), and files of this naming
 * ({@link #isHgrmFileName}) that this run did not write are removed, so a directory written twice holds only the
 * second run's files ({@code UPDATE.intended.hgrm} of a run with updates does not outlive it).
 */
public final class HgrmFiles {
    /** Percentile ticks per half distance, as HdrHistogram's own examples use. */
    static final int TICKS_PER_HALF_DISTANCE = 5;
    /** Histograms hold nanoseconds; files show milliseconds, as {@code report}'s and HistogramLogProcessor's do. */
    static final double OUTPUT_SCALE = HgrmFile.DEFAULT_NS_PER_UNIT;
    /** The unit line every file starts with. */
    static final String UNIT_LINE = HgrmFile.unitLine("ms", OUTPUT_SCALE);

    private static final View[] ORDER = {View.INTENDED, View.SERVICE, View.CORRECTED};

    private HgrmFiles() {
    }

    /**
     * Writes the files into {@code dir}, creating it if needed.
     *
     * @return the files written, in order: per operation its views, then the harness lag
     */
    public static List<Path> write(RunResult result, Path dir) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (OpResult op : result.operations()) {
            for (View view : ReportedViews.of(result, ORDER)) {
                written.add(writeOne(dir, view.tag(op.name()), op.histogram(view)));
            }
            if (op.failedKnown()) {
                written.add(writeOne(dir, View.INTENDED.failedTag(op.name()), op.failedHistogram(View.INTENDED)));
                written.add(writeOne(dir, View.SERVICE.failedTag(op.name()), op.failedHistogram(View.SERVICE)));
            }
        }
        if (result.throttled() && result.lag() != null) {
            written.add(writeOne(dir, "harness.lag", result.lag()));
        }
        removeStale(dir, written);
        return written;
    }

    /**
     * True for a name these files have: {@code OP.intended.hgrm}, {@code OP.failed.service.hgrm},
     * {@code harness.lag.hgrm}.
     */
    public static boolean isHgrmFileName(String name) {
        return name.equals("harness.lag.hgrm") || name.matches(".+\\.(intended|service|corrected)\\.hgrm");
    }

    /** Deletes the files of this naming in {@code dir} that are not {@code written}: an earlier run's. */
    private static void removeStale(Path dir, List<Path> written) throws IOException {
        java.util.Set<Path> keep = new java.util.HashSet<>();
        written.forEach(p -> keep.add(p.getFileName()));
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (isHgrmFileName(f.getFileName().toString()) && !keep.contains(f.getFileName())
                        && Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.delete(f);
                }
            }
        }
    }

    private static Path writeOne(Path dir, String tag, Histogram histogram) throws IOException {
        if (tag.indexOf('/') >= 0 || tag.indexOf('\\') >= 0) {
            throw new IllegalArgumentException("operation name would leave the output directory: " + tag);
        }
        Path file = dir.resolve(tag + ".hgrm");
        AtomicFile.write(file, os -> {
            PrintStream out = new PrintStream(os, false, StandardCharsets.UTF_8);
            out.print(UNIT_LINE + "\n");
            histogram.outputPercentileDistribution(out, TICKS_PER_HALF_DISTANCE, OUTPUT_SCALE);
            out.flush(); // a failed write is the AtomicFile's to report, with its cause, on commit
        });
        return file;
    }
}
