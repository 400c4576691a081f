package io.loadgen.cli;

import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.DriverRegistry;
import io.loadgen.core.driver.PropertySpec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/** {@code loadgen drivers}: every driver on the class path, its operations and its properties with defaults. */
@Command(name = "drivers", mixinStandardHelpOptions = true,
        description = "List the drivers, their operation types and their properties (with defaults).")
final class DriversCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    QuietMixin quiet;

    DriversCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        PrintStream out = io.out();
        for (DriverProvider p : DriverRegistry.all()) {
            out.println(p.name() + " - " + p.description());
            out.println("  operations: " + String.join(", ", p.operations()));
            for (PropertySpec s : p.properties()) {
                out.printf("  -p %s=%s%n      %s%n", s.name(), s.defaultValue(), s.description());
            }
            if (p.passesPropertiesThrough()) {
                out.printf("  -p KEY=VALUE%n      any other key is passed on to what it runs, with every workload"
                        + " property%n");
            }
            out.println();
        }
        return 0;
    }
}
