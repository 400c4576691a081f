package io.loadgen.cli;

import picocli.CommandLine.IVersionProvider;

/** Prints the version from the jar's manifest (or "dev" when run from classes). */
final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = Version.class.getPackage().getImplementationVersion();
        return new String[]{"loadgen " + (v != null ? v : "dev") + " (Java " + Runtime.version() + ")"};
    }
}
