package io.loadgen.plot;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;

import io.loadgen.core.output.AtomicFile;
import io.loadgen.core.output.OutputWriteException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Writes a chart as PNG, SVG or both, through XChart's encoders. Stateless; any one thread per chart. */
public final class ChartFiles {
    /** The file formats a chart can be written in. */
    public enum Format {
        PNG, SVG, BOTH;

        boolean png() {
            return this != SVG;
        }

        boolean svg() {
            return this != PNG;
        }
    }

    static {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true"); // charts are files; never open a window
        }
        // Encode in memory (ImageIO's disk cache off): its default cache registers a JVM shutdown hook on first use,
        // which throws once the JVM is shutting down (an interrupted run, whose report is written from within
        // shutdown, then drew no chart); and its cache file, left open when a write fails, is closed again at exit
        // by ImageIO's StreamCloser, which throws too. A chart is a few hundred KB.
        javax.imageio.ImageIO.setUseCache(false);
    }

    private ChartFiles() {
    }

    /**
     * Writes {@code chart} to {@code base}.png and/or {@code base}.svg, replacing them.
     *
     * @return the files written
     */
    public static List<Path> write(XYChart chart, Path base, Format format) throws IOException {
        List<Path> written = new ArrayList<>();
        if (format.png()) {
            Path png = sibling(base, ".png");
            write(png, out -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG));
            written.add(png);
        }
        if (format.svg()) {
            Path svg = sibling(base, ".svg");
            write(svg, out -> VectorGraphicsEncoder.saveVectorGraphic(chart, out,
                    VectorGraphicsEncoder.VectorGraphicsFormat.SVG));
            written.add(svg);
        }
        return written;
    }

    /**
     * One chart file, whole or not at all.
     *
     * @throws OutputWriteException naming the file and the cause, not the encoder's wrapper around it
     */
    private static void write(Path file, AtomicFile.Content content) throws OutputWriteException {
        try {
            AtomicFile.write(file, content);
        } catch (IOException e) {
            throw new OutputWriteException(file, e);
        }
    }

    private static Path sibling(Path base, String extension) {
        return base.resolveSibling(base.getFileName() + extension);
    }
}
