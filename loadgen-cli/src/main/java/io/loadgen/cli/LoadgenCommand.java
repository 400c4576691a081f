package io.loadgen.cli;

import picocli.CommandLine.Command;

/**
 * The top-level {@code loadgen} command; it only groups the subcommands. Without one it prints the usage to stderr
 * and exits 2, as a command line missing what is required does ({@code loadgen -h} prints it to stdout, exit 0).
 */
@Command(name = "loadgen", mixinStandardHelpOptions = true, versionProvider = Version.class,
        description = {"A latency load generator that does not lie: every operation is measured from when it "
                + "should have started, so a stalled system cannot hide its stall (coordinated omission)."},
        footer = {"", Main.EXIT_CODES}, subcommandsRepeatable = false)
final class LoadgenCommand implements java.util.concurrent.Callable<Integer> {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().getErr().println("loadgen: no command given; name one of those below");
        spec.commandLine().usage(spec.commandLine().getErr());
        return Main.EXIT_BAD_INPUT;
    }
}
