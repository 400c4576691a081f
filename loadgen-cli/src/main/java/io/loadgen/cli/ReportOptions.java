package io.loadgen.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** The report options every running command shares: JSON and .hgrm files, seed, quiet status. */
final class ReportOptions {
    @Option(names = "--json", paramLabel = "FILE", order = 130, description = "Write the summary as JSON (the schema gates read).")
    Path json;

    @Option(names = "--hgrm", paramLabel = "DIR", order = 140,
            description = "Write one percentile distribution (.hgrm, values in us) per operation type and view into DIR.")
    Path hgrm;

    @Option(names = "--seed", paramLabel = "N", order = 150, description = "Seed for start offsets, Poisson gaps and drivers' randomness.")
    Long seed;

    @Option(names = {"--quiet", "-q"}, order = 160, description = "No status line every interval, and no INFO log lines (warnings and errors still show).")
    boolean quiet;

    /** The given seed, or a fresh one. */
    long seedOrRandom() {
        return seed != null ? seed : System.nanoTime();
    }
}
