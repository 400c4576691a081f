package io.loadgen.drivers.ping;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.core.time.Durations;
import io.loadgen.drivers.support.Causes;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.FixedLengthFrameDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@code ping} driver: round trips to a {@link PingServer} over a fixed set of TCP connections or UDP
 * sockets. The run's issuer threads call {@link #submit}; replies and timeouts complete on the driver's
 * one Netty event-loop thread.
 *
 * <p>Each submit claims a connection round-robin, skipping any that already has its
 * {@link PingSettings#depthPerConnection() depth} in flight (1 without pipelining), and writes the
 * {@link Completion} into it, wrapped in a pooled {@link PingRequest}; {@link PingClientHandler} does the rest on the event loop.
 * {@link #maxInFlight()} is depth × connections, so under the harness a claim always succeeds: without
 * pipelining a request never waits inside the driver for a busy connection, it waits in the issuer,
 * where the wait counts in {@code intended}. The connections are the concurrency, as wrk's {@code -c}:
 * without {@code --max-in-flight} each issuer keeps its share of them busy ({@link #defaultInFlightPerIssuer()}),
 * so {@code -c 32} on one thread has 32 requests in flight, one per connection.
 */
final class PingDriver implements AsyncDriver {
    private static final Logger LOG = LogManager.getLogger(PingDriver.class);
    static final List<String> STAT_NAMES = List.of("requests_sent", "bytes_sent", "bytes_received", "timeouts",
            "late_replies", "bad_replies", "rejected", "disconnect_errors");
    /** The failure counters among {@link #STAT_NAMES}, which the status line shows as they rise. */
    static final List<String> LIVE_STAT_NAMES = List.of("timeouts", "late_replies", "bad_replies", "rejected",
            "disconnect_errors");
    private static final int CONNECT_TIMEOUT_MS = 3_000;
    private static final long CLOSE_TIMEOUT_MS = 2_000;

    private final EventLoopGroup group;
    private final Channel[] channels;
    private final PingClientHandler[] handlers;
    private final int depth;
    private final int inFlightPerIssuer;
    private final AtomicInteger cursor = new AtomicInteger();
    private final LongAdder rejected = new LongAdder();
    private final AtomicBoolean closed = new AtomicBoolean();

    private PingDriver(EventLoopGroup group, Channel[] channels, PingClientHandler[] handlers, int depth,
                       int inFlightPerIssuer) {
        this.group = group;
        this.channels = channels;
        this.handlers = handlers;
        this.depth = depth;
        this.inFlightPerIssuer = inFlightPerIssuer;
    }

    /**
     * Opens {@code settings.connections()} connections (UDP: connected sockets, which need no answer to open)
     * for a run of {@code threads} issuers.
     *
     * @throws BadInputException naming host:port, and how to start a server there, when a connection fails; or,
     *                           without pipelining, when there are fewer connections than threads (each thread's
     *                           request in flight needs a connection: more would be rejected)
     */
    static PingDriver open(PingSettings settings, int threads) {
        int n = settings.connections();
        if (!settings.pipelining() && n < threads) {
            throw new BadInputException(PingSettings.CONNECTIONS + " " + n + " is fewer than --threads " + threads
                    + ": without pipelining a connection carries one request at a time, so each thread needs one;"
                    + " give -c " + threads + " or more, fewer threads, or -p " + PingSettings.PIPELINING + "=true");
        }
        int perIssuer = Math.max(1, n / threads);
        if (n > threads && n % threads != 0) {
            LOG.warn("{} {} over {} threads: {} in flight per thread, so {} of the {} connections are busy at once;"
                    + " give a multiple of --threads to use them all", PingSettings.CONNECTIONS, n, threads, perIssuer,
                    perIssuer * threads, n);
        }
        EventLoopGroup group = new NioEventLoopGroup(1, new DefaultThreadFactory("ping-client", true));
        Channel[] channels = new Channel[n];
        PingClientHandler[] handlers = new PingClientHandler[n];
        PingDriver driver = new PingDriver(group, channels, handlers, settings.depthPerConnection(), perIssuer);
        try {
            for (int i = 0; i < n; i++) {
                handlers[i] = new PingClientHandler(settings);
                channels[i] = connect(group, settings, handlers[i]);
            }
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
        LOG.debug("ping opened {} connection(s) to {}: {} bytes, pipelining {}, timeout {}", n, settings.target(),
                settings.sizeBytes(), settings.pipelining(), Durations.format(Duration.ofNanos(settings.timeoutNs())));
        return driver;
    }

    private static Channel connect(EventLoopGroup group, PingSettings settings, PingClientHandler handler) {
        boolean tcp = settings.protocol() == PingProtocol.TCP;
        Bootstrap b = new Bootstrap().group(group)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (tcp) {
                            ch.pipeline().addLast(new FixedLengthFrameDecoder(settings.sizeBytes()));
                        }
                        ch.pipeline().addLast(handler);
                    }
                });
        if (tcp) {
            b.channel(NioSocketChannel.class).option(ChannelOption.TCP_NODELAY, true);
        } else {
            // One byte more than a reply, so a longer datagram shows as a bad reply instead of being cut to size.
            b.channel(NioDatagramChannel.class)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(settings.sizeBytes() + 1));
        }
        ChannelFuture f = b.connect(settings.host(), settings.port());
        if (!f.awaitUninterruptibly(2L * CONNECT_TIMEOUT_MS) || !f.isSuccess()) {
            f.channel().close();
            String why = f.cause() == null ? "timed out" : Causes.rootMessage(f.cause());
            throw new BadInputException("ping: cannot connect to " + settings.target() + " (" + why
                    + "); start a server there with 'loadgen ping-server --port " + settings.port()
                    + (tcp ? "" : " --protocol udp") + "', or set ping.host and ping.port");
        }
        return f.channel();
    }

    @Override
    public void submit(Operation op, Completion completion) {
        int i = claim();
        if (i < 0) {
            rejected.increment();
            completion.complete(Status.ERROR);
            return;
        }
        Channel channel = channels[i];
        channel.writeAndFlush(PingRequest.of(handlers[i], completion), channel.voidPromise());
    }

    /** Index of a connection with room for one more request, now counted against it; -1 when none has room. */
    private int claim() {
        int n = handlers.length;
        int start = n == 1 ? 0 : Math.floorMod(cursor.getAndIncrement(), n);
        for (int k = 0; k < n; k++) {
            int i = start + k < n ? start + k : start + k - n;
            AtomicInteger outstanding = handlers[i].outstanding;
            int v;
            while ((v = outstanding.get()) < depth) {
                if (outstanding.compareAndSet(v, v + 1)) {
                    return i;
                }
            }
        }
        return -1;
    }

    /** Depth × connections: 1 per connection without pipelining. */
    @Override
    public int maxInFlight() {
        return depth * handlers.length;
    }

    /**
     * The issuer's share of the connections, at least 1: every connection kept busy with one request, as wrk's
     * {@code -c} means (pipelining deeper is {@code --max-in-flight}'s to ask).
     */
    @Override
    public int defaultInFlightPerIssuer() {
        return inFlightPerIssuer;
    }

    /**
     * {@code requests_sent}, {@code bytes_sent}, {@code bytes_received} (payload bytes), {@code timeouts}
     * (requests unanswered within ping.timeout: UDP losses), {@code late_replies} (replies after their
     * request timed out), {@code bad_replies} (wrong size), {@code rejected} (no connection had room: the
     * caller exceeded maxInFlight) and {@code disconnect_errors} (requests failed by a closed connection).
     */
    @Override
    public Map<String, Number> stats() {
        long[] totals = new long[STAT_NAMES.size()];
        for (int i = 0; i < handlers.length; i++) {
            if (channels[i] != null) {
                addCounters(channels[i], handlers[i], totals);
            }
        }
        totals[STAT_NAMES.indexOf("rejected")] += rejected.sum();
        Map<String, Number> stats = new LinkedHashMap<>();
        for (int i = 0; i < totals.length; i++) {
            stats.put(STAT_NAMES.get(i), totals[i]);
        }
        return stats;
    }

    /** The failure counters, read from the status line's thread while requests complete on the loops. */
    @Override
    public Map<String, Number> liveStats() {
        long[] totals = new long[LIVE_STAT_NAMES.size()];
        for (PingClientHandler handler : handlers) {
            if (handler != null) {
                handler.addFailureCounters(totals);
            }
        }
        totals[LIVE_STAT_NAMES.indexOf("rejected")] += rejected.sum();
        Map<String, Number> live = new LinkedHashMap<>();
        for (int i = 0; i < totals.length; i++) {
            live.put(LIVE_STAT_NAMES.get(i), totals[i]);
        }
        return live;
    }

    /** Reads a handler's counters on its event loop (they are plain fields), or directly once the loop has ended. */
    private void addCounters(Channel channel, PingClientHandler handler, long[] totals) {
        if (group.isTerminated()) {
            handler.addCounters(totals);
            return;
        }
        try {
            channel.eventLoop().submit(() -> handler.addCounters(totals)).get(CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            LOG.warn("ping: could not read the connection counters ({})", e.toString());
        }
    }

    /** Closes the connections (failing any request still in flight) and stops the event loop; bounded. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            for (Channel c : channels) {
                if (c != null) {
                    c.close().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
                }
            }
        } finally {
            group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS)
                    .awaitUninterruptibly(2 * CLOSE_TIMEOUT_MS);
        }
    }
}
