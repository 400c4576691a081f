package io.loadgen.cli;

import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;

/** The report options every running command shares: JSON and .hgrm files, seed, quiet status. */
final class ReportOptions {
    @Option(names = "--json", paramLabel = "FILE", order = 130,
            description = "Write the summary as JSON (the schema gates read); '-' writes it to stdout and the summary"
                    + " for people to stderr.")
    Path json;

    @Option(names = "--hgrm", paramLabel = "DIR", order = 140,
            description = "Write one percentile distribution (.hgrm, values in ms, as report writes them) per operation"
                    + " type and view into DIR.")
    Path hgrm;

    @Option(names = "--seed", paramLabel = "N", order = 150, description = "Seed for start offsets, Poisson gaps and drivers' randomness.")
    Long seed;

    @Option(names = {"--quiet", "-q"}, order = 160, description = "No status line every interval (warnings and errors still show).")
    boolean quiet;

    /** True for {@code --json -}: the JSON owns stdout, so what people read goes to stderr. */
    boolean jsonToStdout() {
        return isStdout(json);
    }

    /** True for the path {@code -}, which an output option reads as standard output. */
    static boolean isStdout(Path file) {
        return file != null && file.toString().equals("-");
    }

    /** Where the summary, table and notes for people go: stdout, or stderr when the JSON is on stdout. */
    PrintStream humanOut(Streams io) {
        return jsonToStdout() ? io.err() : io.out();
    }

    /** The given seed, or a fresh one. */
    long seedOrRandom() {
        return seed != null ? seed : System.nanoTime();
    }
}
