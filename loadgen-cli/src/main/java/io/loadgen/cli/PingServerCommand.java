package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import io.loadgen.drivers.ping.PingProtocol;
import io.loadgen.drivers.ping.PingServer;
import org.apache.logging.log4j.LogManager;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

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
        if (port < 0 || port > 65_535) {
            throw new BadInputException("--port must be between 0 and 65535 (got " + port + "); 0 picks a free port");
        }
        InetAddress address = resolve(bind);
        if (!address.isLoopbackAddress()) {
            LogManager.getLogger(PingServerCommand.class).warn("--bind {} is not a loopback address: other machines can reach this ping server", bind);
        }
        PingServer server = PingServer.start(proto, new InetSocketAddress(address, port), delay);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            io.err().println("loadgen: interrupted; stopping the ping server");
            server.close();
            stopped.countDown();
        }, "loadgen-ping-server-shutdown"));
        stopped.await();
        return 0;
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new BadInputException("--bind " + host + ": unknown host; give an address of this machine, e.g. 127.0.0.1", e);
        }
    }
}
