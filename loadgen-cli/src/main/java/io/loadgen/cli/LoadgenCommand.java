package io.loadgen.cli;

import picocli.CommandLine.Command;

/** The top-level {@code loadgen} command; it only groups the subcommands. */
@Command(name = "loadgen", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"A latency load generator that does not lie: every operation is measured from when it "
                + "should have started, so a stalled system cannot hide its stall (coordinated omission)."},
        footer = {"", Main.EXIT_CODES}, subcommandsRepeatable = false)
final class LoadgenCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
