package io.loadgen.drivers.ping;

import io.loadgen.core.BadInputException;
import io.loadgen.core.time.Durations;
import io.loadgen.drivers.support.ReadBackpressure;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.LongAdder;

/**
 * An echo server for the {@code ping} driver, over TCP or UDP, that can hold every reply for a fixed
 * delay: the ground truth a ping run is checked against. Started and closed by any thread (a test, or
 * {@code loadgen ping-server}); its one event-loop thread does all the echoing.
 *
 * <pre><code>
 * try (PingServer server = PingServer.start(PingProtocol.TCP, new InetSocketAddress("127.0.0.1", 0),
 *         Duration.ofMillis(5))) {
 *     int port = server.port();   // the ephemeral port it bound
 *     ...                         // every reply arrives 5 ms (and a timer tick) after its request
 * }
 * </code></pre>
 *
 * <p>TCP echoes the byte stream as it reads it (no framing: a client's frames come back whole and in
 * order). UDP sends each datagram back to its sender. With a delay, each read is echoed by a task
 * scheduled {@code delay} later on the channel's event loop. On Linux the loop is Netty's native epoll,
 * whose timer fires within tens of microseconds of the due time; elsewhere it is NIO, which wakes on
 * whole milliseconds, so a reply may leave up to about 1 ms late.
 *
 * <p>A TCP connection whose client does not read its replies is paused, not buffered without bound
 * ({@link ReadBackpressure}), so it neither grows the server's memory nor delays other clients.
 */
public final class PingServer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(PingServer.class);
    /** The port {@code loadgen ping-server} listens on and the {@code ping} driver calls unless told otherwise. */
    public static final int DEFAULT_PORT = 7777;
    /** Largest UDP payload over IPv4; a datagram is read whole into a buffer this size. */
    static final int MAX_DATAGRAM_BYTES = 65_507;
    private static final long CLOSE_TIMEOUT_MS = 3_000;
    /** Native epoll (microsecond timers) when this platform has it, else NIO (millisecond timers). */
    private static final boolean EPOLL = Epoll.isAvailable();

    private final PingProtocol protocol;
    private final EventLoopGroup group;
    private final Channel channel;
    private final long delayNs;
    private final LongAdder receivedBytes;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ReadBackpressure limits;
    private final LongAdder heldReads;

    private PingServer(PingProtocol protocol, EventLoopGroup group, Channel channel, long delayNs,
                       LongAdder receivedBytes, ReadBackpressure limits, LongAdder heldReads) {
        this.limits = limits;
        this.heldReads = heldReads;
        this.protocol = protocol;
        this.group = group;
        this.channel = channel;
        this.delayNs = delayNs;
        this.receivedBytes = receivedBytes;
    }

    /**
     * Binds and starts echoing, then logs the bound address.
     *
     * @param bind  where to listen; port 0 picks a free port ({@link #port()} tells which)
     * @param delay how long to hold every reply; zero echoes at once
     * @throws BadInputException when the address cannot be bound (in use, or not this machine's)
     */
    public static PingServer start(PingProtocol protocol, InetSocketAddress bind, Duration delay) {
        return start(protocol, bind, delay, backpressure());
    }

    /**
     * A TCP connection's backpressure marks, in bytes read but not yet taken by the socket (see
     * {@link TcpEchoHandler}): reading pauses above 256 KiB and resumes at 64 KiB (also Netty's write-buffer
     * water marks); above 4 MiB the connection is closed. A pipelined ping client at 100,000 ops/s of 64 bytes
     * with a 5 ms delay holds 32 KiB, and a paused connection passes 256 KiB by at most one read loop (16 reads
     * of at most 64 KiB), so only a connection whose reads could not be paused reaches the cap.
     */
    static ReadBackpressure backpressure() {
        return backpressure(64 << 10, 256 << 10, 4L << 20);
    }

    /** Marks of a test's own (each server gets its own instance: it keeps the server's largest pending). */
    static ReadBackpressure backpressure(int resumeBelowBytes, int pauseAboveBytes, long closeAboveBytes) {
        return new ReadBackpressure("ping-server", "bytes wait to be echoed", resumeBelowBytes, pauseAboveBytes,
                closeAboveBytes);
    }

    /** {@link #start(PingProtocol, InetSocketAddress, Duration)} with TCP backpressure marks of its own (tests). */
    static PingServer start(PingProtocol protocol, InetSocketAddress bind, Duration delay, ReadBackpressure limits) {
        long delayNs = delay.toNanos();
        if (delayNs < 0) {
            throw new IllegalArgumentException("delay must not be negative: " + delay);
        }
        LongAdder receivedBytes = new LongAdder();
        LongAdder heldReads = new LongAdder();
        EventLoopGroup group = EPOLL
                ? new EpollEventLoopGroup(1, new DefaultThreadFactory("ping-server", true))
                : new NioEventLoopGroup(1, new DefaultThreadFactory("ping-server", true));
        try {
            ChannelFuture bound = (protocol == PingProtocol.TCP
                    ? tcp(group, delayNs, receivedBytes, limits, heldReads) : udp(group, delayNs, receivedBytes))
                    .bind(bind).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw new BadInputException("ping-server cannot listen on " + protocol.label() + " "
                        + bind.getHostString() + ":" + bind.getPort() + " (" + bound.cause().getMessage()
                        + "); choose another --port or --bind");
            }
            PingServer server = new PingServer(protocol, group, bound.channel(), delayNs, receivedBytes, limits,
                    heldReads);
            LOG.info("ping-server listening on {} {}:{}, reply delay {} ({})", protocol.label(),
                    server.address().getHostString(), server.port(), Durations.format(delay), EPOLL ? "epoll" : "nio");
            return server;
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    private static ServerBootstrap tcp(EventLoopGroup group, long delayNs, LongAdder receivedBytes,
                                       ReadBackpressure limits, LongAdder heldReads) {
        return new ServerBootstrap()
                .group(group)
                .channel(EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark((int) limits.resumeBelow(), (int) limits.pauseAbove()))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new TcpEchoHandler(delayNs, receivedBytes, limits, heldReads));
                    }
                });
    }

    private static Bootstrap udp(EventLoopGroup group, long delayNs, LongAdder receivedBytes) {
        return new Bootstrap()
                .group(group)
                .channel(EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM_BYTES))
                .handler(new UdpEchoHandler(delayNs, receivedBytes));
    }

    /** The address the server is bound to, with the real port when 0 was asked for. */
    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** The bound port. */
    public int port() {
        return address().getPort();
    }

    public PingProtocol protocol() {
        return protocol;
    }

    /** How long every reply is held, in ns. */
    public long delayNs() {
        return delayNs;
    }

    /** Payload bytes read from clients so far (TCP stream bytes, or UDP datagram payloads). */
    public long receivedBytes() {
        return receivedBytes.sum();
    }

    /** TCP reads held for the delay now, on every connection (a closed connection's are released at once). */
    long heldReads() {
        return heldReads.sum();
    }

    /** The most bytes any TCP connection has had waiting to be echoed (read, not yet taken by its socket). */
    long maxPendingBytes() {
        return limits.maxPending();
    }

    /**
     * Stalls the server once, from now, for {@code length}: its one event-loop thread sleeps, so it reads
     * and answers nothing until the stall ends, then answers everything that arrived meanwhile (the kernel
     * buffers it). A pause of known length for ground-truth tests and {@code loadgen calibrate}. Any thread; returns at once.
     *
     * @return completes with how long the event loop really stalled, in ns (a sleep may overshoot)
     */
    public Future<Long> stall(Duration length) {
        long lengthNs = length.toNanos();
        return channel.eventLoop().submit(() -> {
            long startNs = System.nanoTime();
            long leftNs;
            while ((leftNs = startNs + lengthNs - System.nanoTime()) > 0) {
                LockSupport.parkNanos(leftNs);
            }
            return System.nanoTime() - startNs;
        });
    }

    /**
     * Stops listening, drops the connections and any replies still held, and stops the event loop;
     * waits at most a few seconds. Idempotent; any thread.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            channel.close().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
        } finally {
            group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .awaitUninterruptibly(2 * CLOSE_TIMEOUT_MS);
        }
        LOG.info("ping-server on {} port {} stopped", protocol.label(), address().getPort());
    }
}
