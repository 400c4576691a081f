package io.loadgen.cli;

import io.loadgen.drivers.ping.PingProtocol;
import io.loadgen.drivers.ping.PingServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code loadgen ping-server}: the echo server the {@code ping} driver talks to, run until Ctrl-C or
 * SIGTERM. Main thread; a shutdown hook closes the server (the JVM then exits with 130 or 143).
 */
@Command(name = "ping-server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Echo every ping back, optionally after a fixed delay, until Ctrl-C: the server for "
                + "'loadgen run --driver ping'. With --delay, every reply is held that long, so a run has a known answer.",
                "Listens on 127.0.0.1:7777 over tcp by default (the ping driver's defaults); logs its address on stderr."})
final class PingServerCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    QuietMixin quiet;

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + PingServer.DEFAULT_PORT,
            description = "Port to listen on; 0 picks a free one (logged). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on. Default: ${DEFAULT-VALUE} (this machine only).")
    String bind;

    @Option(names = "--protocol", paramLabel = "tcp|udp", defaultValue = "tcp",
            description = "tcp or udp. Default: ${DEFAULT-VALUE}.")
    String protocol;

    @Option(names = "--delay", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "0ms",
            description = "Hold every reply this long, e.g. 5ms. Default: ${DEFAULT-VALUE}.")
    Duration delay;

    PingServerCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws InterruptedException {
        PingProtocol proto = PingProtocol.parse(protocol, "--protocol");
        try (QuietLogging q = QuietLogging.during(quiet.quiet)) {
            PingServer server = PingServer.start(proto, ForegroundServer.address(bind, port, "ping server"), delay);
            return ForegroundServer.runUntilStopped(server, io, quiet.status(io), "ping server");
        }
    }
}
