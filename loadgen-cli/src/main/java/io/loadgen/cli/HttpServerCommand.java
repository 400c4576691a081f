package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.drivers.http.HttpTargetServer;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code loadgen http-server}: a small HTTP/1.1 server with a known answer (200 and a fixed body after a
 * fixed delay; {@code /status/NNN} answers NNN), the local target of {@code --driver http}, run until Ctrl-C or
 * SIGTERM. Main thread.
 */
@Command(name = "http-server", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Answer every HTTP request with 200 and a fixed body, optionally after a fixed delay, until "
                + "Ctrl-C: a local target for 'loadgen run --driver http' (and for wrk). GET /status/NNN answers "
                + "status NNN (200-599). With --delay, every response is held that long, so a run has a known answer. "
                + "A connection's reads pause while 1,024 responses wait for it; bad requests get 400, 431, 501 or 505.",
                "Listens on 127.0.0.1:8080 by default (the http driver's default URL); logs its address on stderr."})
final class HttpServerCommand implements Callable<Integer> {
    private final Streams io;

    @Mixin
    VerbosityMixin verbosity;

    @Mixin
    QuietMixin quiet;

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + HttpTargetServer.DEFAULT_PORT,
            description = "Port to listen on; 0 picks a free one (logged). Default: ${DEFAULT-VALUE}.")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Address to listen on. Default: ${DEFAULT-VALUE} (this machine only).")
    String bind;

    @Option(names = "--delay", paramLabel = "TIME", converter = DurationConverter.class, defaultValue = "0ms",
            description = "Hold every response this long, e.g. 10ms. Default: ${DEFAULT-VALUE}.")
    Duration delay;

    @Option(names = "--body-size", paramLabel = "BYTES", defaultValue = "13",
            description = "Length of the 200 response's body. Default: ${DEFAULT-VALUE}.")
    int bodyBytes;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Event-loop threads. Default: ${DEFAULT-VALUE}.")
    int threads;

    @Option(names = "--cert", paramLabel = "PEM",
            description = "Serve https with this certificate chain (PEM); needs --key.")
    Path cert;

    @Option(names = "--key", paramLabel = "PEM", description = "The certificate's private key (PKCS#8 PEM).")
    Path key;

    HttpServerCommand(Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (bodyBytes < 0 || bodyBytes > 64 << 20) {
            throw new BadInputException("--body-size must be between 0 and 67108864 bytes (got " + bodyBytes + ")");
        }
        if (threads < 1 || threads > 1024) {
            throw new BadInputException("--threads must be between 1 and 1024 (got " + threads + ")");
        }
        if (delay.isNegative()) {
            throw new BadInputException("--delay must not be negative");
        }
        HttpTargetServer.Options options = HttpTargetServer.Options.DEFAULT.withDelay(delay).withBodyBytes(bodyBytes)
                .withThreads(threads).withTls(tls());
        try (QuietLogging q = QuietLogging.during(quiet.quiet)) {
            HttpTargetServer server = HttpTargetServer.start(ForegroundServer.address(bind, port, "http server"), options);
            return ForegroundServer.runUntilStopped(server, io, quiet.status(io), "http server");
        }
    }

    private SslContext tls() {
        if (cert == null && key == null) {
            return null;
        }
        if (cert == null || key == null) {
            throw new BadInputException("https needs both --cert and --key (PEM files)");
        }
        for (Path p : new Path[]{cert, key}) {
            if (!Files.isReadable(p)) {
                throw new BadInputException(p + ": cannot read it; give a readable PEM file");
            }
        }
        try {
            return SslContextBuilder.forServer(cert.toFile(), key.toFile()).build();
        } catch (Exception e) {
            throw new BadInputException("--cert " + cert + " / --key " + key + ": not a PEM certificate chain and"
                    + " PKCS#8 key (" + e.getMessage() + ")", e);
        }
    }
}
