package io.loadgen.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs the command line in this JVM with captured streams, for tests. */
final class Cli {
    final int exitCode;
    final String out;
    final String err;

    private Cli(int exitCode, String out, String err) {
        this.exitCode = exitCode;
        this.out = out;
        this.err = err;
    }

    /** {@code command} with {@code args} parsed as the launcher parses them, not run: for its options' values. */
    static <T> T parse(T command, String... args) {
        new picocli.CommandLine(command).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        return command;
    }

    static Cli run(String... args) {
        return run(System.getenv(), args);
    }

    /** The command line run with {@code env} as its environment (e.g. a Kubernetes pod's JOB_COMPLETION_INDEX). */
    static Cli run(java.util.Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.execute(args, new Streams(o, e, env));
        }
        return new Cli(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
