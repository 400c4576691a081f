package io.loadgen.cli;

import io.loadgen.core.summary.RunInfo;
import picocli.CommandLine.IVersionProvider;

/** Prints the version from the jar's manifest (or "dev" when run from classes), the one JSON summaries state. */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[]{"loadgen " + RunInfo.loadgenVersion() + " (Java " + Runtime.version() + ")"};
    }
}
