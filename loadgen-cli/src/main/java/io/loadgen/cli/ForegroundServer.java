package io.loadgen.cli;

import io.loadgen.core.BadInputException;
import org.apache.logging.log4j.LogManager;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CountDownLatch;

/**
 * What {@code ping-server} and {@code http-server} share: the address they listen on, checked, and running
 * until Ctrl-C or SIGTERM (a shutdown hook closes the server; the JVM then exits with 130 or 143). Main thread.
 */
final class ForegroundServer {
    private ForegroundServer() {
    }

    /**
     * {@code --bind} and {@code --port} as an address; warns when it is not a loopback address.
     *
     * @throws BadInputException for a port out of range or an unknown host
     */
    static InetSocketAddress address(String bind, int port, String server) {
        if (port < 0 || port > 65_535) {
            throw new BadInputException("--port must be between 0 and 65535 (got " + port + "); 0 picks a free port");
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new BadInputException("--bind " + bind + ": unknown host; give an address of this machine, e.g. 127.0.0.1", e);
        }
        if (!address.isLoopbackAddress()) {
            LogManager.getLogger(ForegroundServer.class).warn("--bind {} is not a loopback address: other machines"
                    + " can reach this {}", bind, server);
        }
        return new InetSocketAddress(address, port);
    }

    /** Blocks until the JVM is told to stop, then closes {@code server}; says so on {@code status} (nowhere with -q). */
    static int runUntilStopped(AutoCloseable server, Streams io, java.io.PrintStream status, String name) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            status.println("loadgen: interrupted; stopping the " + name);
            try {
                server.close();
            } catch (Exception e) {
                io.err().println("loadgen: closing the " + name + " failed: " + e.getMessage());
            }
            stopped.countDown();
        }, "loadgen-server-shutdown"));
        stopped.await();
        return 0;
    }
}
