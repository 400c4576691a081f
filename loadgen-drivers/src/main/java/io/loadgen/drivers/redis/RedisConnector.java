package io.loadgen.drivers.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.ConnectionFuture;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.protocol.ProtocolVersion;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.RedisChannelWriter;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.event.Event;
import io.lettuce.core.event.connection.ReconnectFailedEvent;
import io.lettuce.core.protocol.CommandEncoder;
import io.lettuce.core.protocol.Endpoint;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;
import io.loadgen.core.BadInputException;
import io.loadgen.core.Limits;
import io.loadgen.core.Secrets;
import io.lettuce.core.resource.NettyCustomizer;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.flush.FlushConsolidationHandler;

import java.net.SocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Opens the {@code redis} driver's connections, with the options that keep a run moving when the server
 * goes away. Called on the main thread when the driver opens.
 *
 * <ul>
 *   <li>{@code redis.connections} connections (default: one per issuer thread, as YCSB's threads and
 *       redis-benchmark's clients each have their own), spread round-robin over {@code redis.iothreads}
 *       event loops ({@link IoLoop}) by issuer, so the driver knows which loop each connection lives on and an
 *       issuer's connections share its loop.</li>
 *   <li>No command timeout inside Lettuce (its timer ticks every 100 ms and would let a 100 ms timeout
 *       last 200 ms): the driver enforces {@code redis.timeout} itself, per operation, on the loop.</li>
 *   <li>While a connection is down, new commands fail at once
 *       ({@link ClientOptions.DisconnectedBehavior#REJECT_COMMANDS}) instead of queueing in the client,
 *       where they would pile up unseen and then all arrive at the restarted server together.</li>
 *   <li>Connections reconnect by themselves, trying again after 1, 2, 4 ... ms, at most
 *       {@value #MAX_RECONNECT_DELAY_MS} ms apart, so a server that comes back is used again within
 *       about that long.</li>
 * </ul>
 */
final class RedisConnector {
    /** Keys and field names are ASCII text; values are bytes. */
    static final RedisCodec<String, byte[]> CODEC = AsciiKeyCodec.INSTANCE;

    /**
     * The connections' buffer allocator. Netty's default pooled allocator counts every buffer it hands out
     * in a {@code LongAdder} per chunk ("pinned memory", for metrics nobody reads here): 7% of the event
     * loop's time in a profile of {@code --threads 8 --max-in-flight 16}. The adaptive allocator, Netty
     * 4.2's default, has no such count; the loop's CPU per operation fell by about a tenth.
     */
    private static final ByteBufAllocator ALLOCATOR = new AdaptiveByteBufAllocator();

    static final long MAX_RECONNECT_DELAY_MS = 500;

    private static final org.apache.logging.log4j.Logger LOG = org.apache.logging.log4j.LogManager.getLogger(RedisConnector.class);

    /** Distinct reconnect failures logged at most; beyond, the headline and the counters tell the rest. */
    private static final int MAX_SAID = 16;

    /**
     * Commands written while a connection's replies are being read (the completions that issue the next
     * operations) are flushed once, when the read is done, not one write per command: with pipelining, one
     * system call sends the batch, as redis-benchmark's -P does. Other writes flush at once. The last handler
     * is the {@link ChannelTracker}, which lets {@link CommandBatch} write a batch as one message.
     */
    private static NettyCustomizer customizer(ChannelTracker tracker) {
        return new NettyCustomizer() {
            @Override
            public void afterChannelInitialized(Channel channel) {
                channel.pipeline().addFirst(new FlushConsolidationHandler(
                        FlushConsolidationHandler.DEFAULT_EXPLICIT_FLUSH_AFTER_FLUSHES, true));
                ChannelHandlerContext encoder = channel.pipeline().context(CommandEncoder.class);
                if (encoder != null) {
                    channel.pipeline().addAfter(encoder.name(), "loadgen-direct-replies", new DirectReplies());
                }
                channel.pipeline().addLast(tracker);
                channel.config().setRecvByteBufAllocator(new AdaptiveRecvByteBufAllocator(4096, 65536, 1 << 20));
                channel.config().setAllocator(ALLOCATOR);
            }
        };
    }
    private static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(2);

    private RedisConnector() {
    }

    /**
     * Connects {@code connections} times to {@code settings.uri()} over {@code ioThreads} event loops, for
     * {@code issuers} issuers. Connection {@code c} belongs to issuer {@code c mod issuers} when there are more
     * connections than issuers, and lives on that issuer's loop, {@code (c mod issuers) mod ioThreads}: so an
     * issuer's connections share one loop, and its sends and replies never change threads.
     *
     * @throws BadInputException when the server cannot be reached, naming the URI and the fix
     */
    static Opened open(RedisSettings settings, int connections, int ioThreads, int issuers) {
        return open(settings, false, connections, ioThreads, issuers);
    }

    /**
     * As {@link #open(RedisSettings, int, int, int)}; with {@code cluster} ({@code redis.cluster=true}) each of the
     * {@code connections} is a connection set: a connection to every master of the Redis Cluster that
     * {@code redis.uri} is a node of, all on the set's loop ({@link RedisCluster}).
     */
    static Opened open(RedisSettings settings, boolean cluster, int connections, int ioThreads, int issuers) {
        Opened opened = new Opened(ioThreads, connections, issuers, Secrets.redact(settings.uriText()));
        try {
            for (int i = 0; i < ioThreads; i++) {
                opened.loops[i] = new IoLoop(i);
                opened.resources[i] = ClientResources.builder()
                        .eventLoopGroupProvider(opened.loops[i])
                        .computationThreadPoolSize(2)
                        .nettyCustomizer(customizer(opened.tracker))
                        .reconnectDelay(Delay.exponential(Duration.ofMillis(1), Duration.ofMillis(MAX_RECONNECT_DELAY_MS),
                                2, TimeUnit.MILLISECONDS))
                        .build();
                opened.clients[i] = RedisClient.create(opened.resources[i], settings.uri());
                opened.clients[i].setOptions(ClientOptions.builder()
                        .socketOptions(SocketOptions.builder()
                                .connectTimeout(Duration.ofNanos(settings.connectTimeoutNs())).build())
                        .autoReconnect(true)
                        .protocolVersion(ProtocolVersion.RESP2) // as YCSB's Jedis and redis-benchmark speak
                        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                        .timeoutOptions(TimeoutOptions.builder().timeoutCommands(false).build())
                        .build());
                opened.clients[i].addListener(opened.connects);
                // An error ends the subscription quietly: the only one the bus sends is its scheduler's refusal once
                // the resources are shut down, which Reactor would otherwise print as a stack trace.
                opened.resources[i].eventBus().get().subscribe(opened::onEvent,
                        e -> LOG.debug("redis: the event bus stopped: {}", e.toString()));
            }
            if (cluster) {
                opened.cluster = RedisCluster.open(opened, settings, connections);
                opened.connects.cluster = opened.cluster;
                return opened;
            }
            for (int c = 0; c < connections; c++) {
                opened.connections[c] = connect(opened.clients[opened.loopIndex(c)], settings.uri(), settings);
                opened.firstConnects.incrementAndGet();
                if (checkIsRedis(opened.connections[c], settings) && c == 0) {
                    checkNotCluster(opened.connections[c], settings);
                }
            }
            return opened;
        } catch (RedisConnectionException e) {
            opened.close();
            String uri = Secrets.redact(settings.uriText());
            if (isAuthError(rootMessage(e))) {
                throw authError(uri, rootMessage(e), e);
            }
            if (rootMessage(e).startsWith("ERR DB index is out of range")) {
                throw new BadInputException("Redis at " + uri + " has no database " + settings.uri().getDatabase()
                        + " (ERR DB index is out of range): its databases are numbered from 0 to its 'databases'"
                        + " setting less 1 (16 by default, so 0 to 15); give one of them in the URI,"
                        + " redis://HOST:PORT/DB, or raise 'databases' in redis.conf", e);
            }
            if (isServerError(rootMessage(e))) {
                throw new BadInputException("Redis at " + uri + " accepted the connection but refused its setup ("
                        + Secrets.redact(Limits.quote(rootMessage(e))) + "); fix what it names in -p "
                        + RedisSettings.URI + " or on the server", e);
            }
            throw new BadInputException("cannot connect to Redis at " + uri + " (" + Secrets.redact(connectFailure(e))
                    + "); start redis-server there or point -p " + RedisSettings.URI + "=redis://HOST:PORT at one", e);
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    /**
     * Opens one connection within {@code redis.connect.timeout}: the TCP connect and Lettuce's handshake together.
     * Lettuce's own blocking connect waits as long as the URI's timeout (60 s) for a server that accepted the
     * connection and never answers (a paused redis-server, a port that is not Redis); a run must not hang there.
     *
     * @throws BadInputException when the deadline passes, naming the server, the deadline and the fix
     */
    static StatefulRedisConnection<String, byte[]> connect(RedisClient client, io.lettuce.core.RedisURI uri,
                                                           RedisSettings settings) {
        ConnectionFuture<StatefulRedisConnection<String, byte[]>> future = client.connectAsync(CODEC, uri);
        String shown = uri == settings.uri() ? Secrets.redact(settings.uriText())
                : "redis://" + uri.getHost() + ":" + uri.getPort();
        try {
            return future.get(settings.connectTimeoutNs(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new BadInputException("Redis at " + shown + " did not complete the"
                    + " connection within " + RedisSettings.CONNECT_TIMEOUT + "=" + Duration.ofNanos(settings.connectTimeoutNs())
                    .toMillis() + "ms (it accepts connections but does not answer: paused, overloaded, or not Redis);"
                    + " resume or start redis-server there, or raise -p " + RedisSettings.CONNECT_TIMEOUT, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(true);
            throw new BadInputException("interrupted while connecting to Redis at " + shown, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw cause instanceof RedisConnectionException rce ? rce
                    : new RedisConnectionException("cannot connect: " + cause.getMessage(), cause);
        }
    }

    /**
     * One PING at open, answered PONG. A server that wants a password and got none accepts the connection
     * and refuses every command with NOAUTH: that becomes one line about authentication instead of a run of
     * errors. Anything else that speaks back (an echo server, an HTTP server) would have its answers parsed
     * as replies, and a run against it report every operation OK: refused. A server that does not answer
     * within redis.timeout is the run's to measure, not a reason to refuse it here.
     *
     * @return whether it answered PONG (false: it did not answer in time)
     */
    static boolean checkIsRedis(StatefulRedisConnection<String, byte[]> connection, RedisSettings settings) {
        String answer;
        try {
            answer = connection.async().ping().get(settings.timeoutNs(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            String message = rootMessage(e);
            if (isAuthError(message)) {
                throw authError(Secrets.redact(settings.uriText()), message, e);
            }
            answer = "an error: " + message;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        if (!"PONG".equals(answer)) {
            throw new BadInputException("the server at " + Secrets.redact(settings.uriText()) + " answered PING with '"
                    + Limits.quote(Secrets.redact(String.valueOf(answer)).replaceAll("\\s+", " "))
                    + "', not PONG: it is not a Redis server; point -p " + RedisSettings.URI + " at one");
        }
        return true;
    }

    /**
     * Without {@code redis.cluster}, a node of a Redis Cluster would answer most keys with {@code MOVED} (they live
     * on other nodes) and the run would count them as server errors: refused at open, naming the property. One
     * {@code INFO cluster}; a server that does not answer it (renamed, paused) is left to the run.
     */
    private static void checkNotCluster(StatefulRedisConnection<String, byte[]> connection, RedisSettings settings) {
        String info;
        try {
            info = connection.async().info("cluster").get(settings.timeoutNs(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException | TimeoutException e) {
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (info != null && info.contains("cluster_enabled:1")) {
            throw new BadInputException("the server at " + Secrets.redact(settings.uriText()) + " is a node of a Redis"
                    + " Cluster (INFO cluster: cluster_enabled:1), which serves only its own slots' keys; give -p "
                    + RedisCluster.PROPERTY + "=true to send each key to the master that serves it");
        }
    }

    /** Redis's answers to a missing or wrong password (and an AUTH the server does not expect). */
    static boolean isAuthError(String message) {
        return message != null && (message.startsWith("NOAUTH") || message.startsWith("WRONGPASS")
                || message.contains("invalid password") || message.contains("AUTH <password> called without"));
    }

    /** A Redis error reply ({@code ERR ...}, {@code WRONGTYPE ...}): an upper-case code, a space, the message. */
    static boolean isServerError(String message) {
        return message != null && message.matches("(?s)[A-Z][A-Z_]+ .*");
    }

    static BadInputException authError(String redactedUri, String serverMessage, Throwable cause) {
        return new BadInputException("Redis at " + redactedUri + " refused authentication ("
                + Secrets.redact(Limits.quote(serverMessage)) + "); give its password in the URI: -p "
                + RedisSettings.URI + "=redis://:<password>@HOST:PORT, or redis://<user>:<password>@HOST:PORT for an ACL user",
                cause);
    }

    /**
     * Why a connection failed, as the system said it ({@code Connection refused}), without the native transport's
     * {@code finishConnect(..) failed: } prefix: the line names the URI already, and reads the same on every transport.
     */
    static String connectFailure(Throwable e) {
        return rootMessage(e).replaceFirst("^\\w+\\(\\.\\.\\) failed: ", "");
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }

    /** Counts connections made; Lettuce calls it on its I/O threads. */
    private static final class ConnectCounter implements RedisConnectionStateListener {
        private final AtomicLong connects = new AtomicLong();

        /** Set once the cluster is open: a lost connection asks it for a fresh slot map. */
        private volatile RedisCluster cluster;

        @Override
        public void onRedisConnected(RedisChannelHandler<?, ?> connection, SocketAddress socketAddress) {
            connects.incrementAndGet();
        }

        @Override
        public void onRedisDisconnected(RedisChannelHandler<?, ?> connection) {
            RedisCluster c = cluster;
            if (c != null) {
                c.requestRefresh();
            }
        }
    }

    /** The open connections, their clients and loops; closed once, by the driver. */
    static final class Opened implements AutoCloseable {
        private final IoLoop[] loops;
        private final ClientResources[] resources;
        private final RedisClient[] clients;
        private final StatefulRedisConnection<String, byte[]>[] connections;
        private final ConnectCounter connects = new ConnectCounter();
        private final ChannelTracker tracker = new ChannelTracker();
        /** Connections opened for the first time (reconnects are the connects beyond these). */
        private final AtomicLong firstConnects = new AtomicLong();
        /** On a cluster: every connection to a node, closed with the rest. */
        private final java.util.List<StatefulRedisConnection<String, byte[]>> nodeConnections =
                new java.util.concurrent.CopyOnWriteArrayList<>();
        /** On a cluster ({@code redis.cluster=true}): the slot map and routes; else null. */
        private volatile RedisCluster cluster;
        private final int issuers;
        /** The server, redacted, for messages. */
        private final String uri;

        @SuppressWarnings("unchecked")
        private Opened(int ioThreads, int connections, int issuers, String uri) {
            this.uri = uri;
            this.issuers = Math.max(1, issuers);
            this.loops = new IoLoop[ioThreads];
            this.resources = new ClientResources[ioThreads];
            this.clients = new RedisClient[ioThreads];
            this.connections = new StatefulRedisConnection[connections];
        }

        int size() {
            return connections.length;
        }

        int ioThreads() {
            return loops.length;
        }

        StatefulRedisConnection<String, byte[]> connection(int c) {
            return connections[c];
        }

        /** Connections open now: one per set, or on a cluster each set's to every master it knows. */
        int connectionCount() {
            return cluster != null ? cluster.connections() : connections.length;
        }

        /** The Redis Cluster the sets route over, or null for a single server. */
        RedisCluster cluster() {
            return cluster;
        }

        /** The client on connection set {@code c}'s loop. */
        RedisClient client(int c) {
            return clients[loopIndex(c)];
        }

        /**
         * Set {@code c}'s route: its one connection, or on a cluster its connections to every master.
         */
        Route route(int c) {
            return cluster != null ? cluster.route(c) : link(connections[c], c);
        }

        /** A connection to a cluster's node just made for set {@code c}: counted, closed with the rest. Any thread. */
        NodeLink link(int c, StatefulRedisConnection<String, byte[]> connection) {
            nodeConnections.add(connection);
            firstConnects.incrementAndGet();
            return link(connection, c);
        }

        private NodeLink link(StatefulRedisConnection<String, byte[]> connection, int c) {
            RedisChannelWriter writer = connection instanceof RedisChannelHandler
                    ? ((RedisChannelHandler<?, ?>) connection).getChannelWriter() : null;
            return new NodeLink(connection, writer instanceof Endpoint ? tracker.ref((Endpoint) writer) : null, loop(c));
        }

        /** Counts a connection opened and closed at open (a cluster's seed). */
        void countFirstConnect() {
            firstConnects.incrementAndGet();
        }

        /** The event loop connection {@code c} lives on: its issuer's. */
        EventLoop loop(int c) {
            return loops[loopIndex(c)].loop();
        }

        /** Which loop (and client) connection {@code c} is on: {@code (c mod issuers) mod loops}. */
        int loopIndex(int c) {
            return c % issuers % loops.length;
        }

        /**
         * Why reconnecting failed, the last time it did (a password set on the server during the run answers the
         * reconnect's handshake with NOAUTH), or null when it never failed. Lettuce logs it as a warning; the run's
         * headline names it through {@link RedisDriver#lastFailure()}, as the operations themselves only learn
         * "not connected".
         */
        private volatile Throwable reconnectFailure;

        /** The reconnect failures already said, by message: each distinct one is logged once, not every attempt. */
        private final java.util.Set<String> said = java.util.concurrent.ConcurrentHashMap.newKeySet();

        /**
         * Lettuce's events, on its event executor: keeps the cause of a failed reconnect, and logs each distinct
         * failure once (log4j2.xml quiets Lettuce's own warning, one per attempt every few seconds).
         */
        private void onEvent(Event event) {
            if (event instanceof ReconnectFailedEvent failed && failed.getCause() != null) {
                String message = rootMessage(failed.getCause());
                Throwable kept = reconnectFailure;
                if (kept == null || isAuthError(message) || !isAuthError(rootMessage(kept))) {
                    reconnectFailure = failed.getCause(); // the latest, but a refused password outranks a transient
                }
                String where = cluster != null && failed.remoteAddress() instanceof java.net.InetSocketAddress node
                        ? "redis://" + node.getHostString() + ":" + node.getPort() : uri;
                if (said.size() < MAX_SAID && said.add(where + message)) {
                    LOG.warn("redis: reconnecting to {} fails: {}{}", where, message,
                            isAuthError(message) ? " (did the server's password change?)" : "");
                }
            }
        }

        /** The root message of the last failed reconnect, or null when none failed. */
        String reconnectFailure() {
            Throwable t = reconnectFailure;
            return t == null ? null : rootMessage(t);
        }

        /** Connections made after the first of each. */
        long reconnects() {
            return Math.max(0, connects.connects.get() - firstConnects.get());
        }

        /**
         * A driver's {@code [DRIVER]} counters: {@code connections} and {@code io_threads} (what the run used), the
         * driver's {@code failures} (each failed operation counted once, by the failure that ended it),
         * {@code reconnects}, and on a cluster its masters and redirects.
         */
        Map<String, Number> stats(Map<String, Number> failures) {
            Map<String, Number> stats = new LinkedHashMap<>();
            stats.put("connections", connectionCount());
            stats.put("io_threads", ioThreads());
            stats.putAll(failures);
            stats.put("reconnects", reconnects());
            if (cluster != null) {
                cluster.addStats(stats);
            }
            return stats;
        }

        @Override
        public void close() {
            connects.cluster = null;
            if (cluster != null) {
                cluster.close();
            }
            // Close every connection and wait, bounded, for the closes; then let each loop run what the closes left
            // it (the channels' inactive events, which Lettuce publishes on its event bus) while the resources that
            // publish them are still up. Shutting the resources down first made a closing channel's event meet a
            // stopped scheduler.
            java.util.List<CompletableFuture<Void>> closing = new java.util.ArrayList<>();
            for (StatefulRedisConnection<String, byte[]> c : connections) {
                if (c != null) {
                    closing.add(c.closeAsync());
                }
            }
            for (StatefulRedisConnection<String, byte[]> c : nodeConnections) {
                closing.add(c.closeAsync());
            }
            long deadlineNs = System.nanoTime() + SHUTDOWN_TIMEOUT.toNanos();
            try {
                await(CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)), deadlineNs);
                for (IoLoop loop : loops) {
                    if (loop != null) {
                        loop.loop().submit(() -> { }).await(Math.max(1, deadlineNs - System.nanoTime()),
                                TimeUnit.NANOSECONDS);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // shut down at once, below
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // a loop already stopped: nothing left on it to run
            }
            for (int i = 0; i < loops.length; i++) {
                if (clients[i] != null) {
                    clients[i].shutdown(Duration.ZERO, SHUTDOWN_TIMEOUT);
                }
                if (resources[i] != null) {
                    resources[i].shutdown(0, SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                            .awaitUninterruptibly(SHUTDOWN_TIMEOUT.toMillis());
                }
                if (loops[i] != null) {
                    loops[i].close(SHUTDOWN_TIMEOUT.toMillis());
                }
            }
        }
    }

    /**
     * Waits for {@code done} until {@code deadlineNs} ({@link System#nanoTime()}): true when it completed normally,
     * false when it failed or the deadline came first. The drivers' warm-ups use it.
     */
    static boolean await(CompletableFuture<?> done, long deadlineNs) throws InterruptedException {
        try {
            done.get(Math.max(1, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        }
    }
}
