package io.loadgen.drivers.memcached;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.drivers.redis.RecordValues;
import io.loadgen.drivers.support.Causes;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * YCSB's operations on memcached, over Netty connections of the driver's own, in the text protocol (or the meta
 * one). With at most one connection per issuer, issuer {@code i} uses connection {@code i mod connections}; with
 * more, issuer {@code i} owns connections {@code i}, {@code i + threads}, ... (all on its loop) and sends each
 * operation on one with nothing in flight, or the least busy, as memtier's and redis-benchmark's clients each
 * have one request in flight: so {@code -c 8} on one thread is 8 operations in flight by default, one per
 * connection. Each issuer runs on its connections' event loop ({@link #issuerExecutor}), so {@link #submit},
 * the request's write, its reply and the completion all run on one thread; a submit from any other thread is
 * handed to the loop. {@link #warmUp}, {@link #stats} and {@link #close} are called once, on the main thread.
 *
 * <table>
 *   <caption>What each operation sends (text protocol; meta: mg, ms, md)</caption>
 *   <tr><th>op</th><th>requests</th><th>status</th></tr>
 *   <tr><td>READ</td><td>get user&lt;key&gt;</td><td>NOT_FOUND when there is no such item</td></tr>
 *   <tr><td>UPDATE</td><td>set user&lt;key&gt;, the whole record (values {@code u<key>-<field>:...})</td><td>OK</td></tr>
 *   <tr><td>INSERT</td><td>set user&lt;key&gt;, the whole record (values {@code i<key>-<field>:...})</td><td>OK</td></tr>
 *   <tr><td>SCAN</td><td>nothing: memcached has no range read</td><td>NOT_IMPLEMENTED, at once</td></tr>
 *   <tr><td>READ-MODIFY-WRITE</td><td>get, then set (as UPDATE) once the get is answered</td><td>NOT_FOUND (and
 *       no write) when there is no such item</td></tr>
 *   <tr><td>DELETE</td><td>delete user&lt;key&gt;</td><td>NOT_FOUND when there was no such item</td></tr>
 * </table>
 *
 * <p>An item is read and written whole, so a workload's one-field READ or UPDATE ({@code readallfields=false},
 * {@code writeallfields=false}) reads or writes the whole record. A failure (a lost connection, an error reply)
 * completes its operation with {@link Status#ERROR}, and an operation unanswered {@code memcached.timeout} after
 * it started completes with {@link Status#TIMEOUT}, whatever requests it sends. The driver itself does not bound
 * operations in flight: memcached serves one connection's requests in order, and the run's
 * {@code --max-in-flight} is the bound (default: the issuer's connections, one each; no pipelining).
 */
final class MemcachedDriver implements AsyncDriver {
    /** Operations per connection and round when warming up, on scratch records. */
    private static final int WARM_UP_BATCH = 32;
    private static final int WARM_UP_ROUNDS = 1600;
    private static final long CLOSE_TIMEOUT_MS = 2_000;

    /**
     * The connections' buffer allocator: Netty's pooled allocator counts every buffer it hands out in a
     * {@code LongAdder} per chunk, which the redis driver measured at 7% of its event loop's time; the adaptive
     * allocator does not.
     */
    private static final ByteBufAllocator ALLOCATOR = new AdaptiveByteBufAllocator();

    private final MemcachedSettings settings;
    private final EventLoopGroup group;
    private final MemcachedConnection[] connections;
    private final MemcachedConnection[][] issuerConnections;
    private final int[] cursors;
    private final RecordValues records;
    private final MemcachedCounters counters;
    private final int ioThreads;
    private String version;

    private MemcachedDriver(MemcachedSettings settings, EventLoopGroup group, int ioThreads, int connections,
                            int threads, RecordValues records) {
        this.settings = settings;
        this.group = group;
        this.ioThreads = ioThreads;
        this.connections = new MemcachedConnection[connections];
        this.issuerConnections = new MemcachedConnection[threads][];
        this.cursors = new int[threads];
        this.records = records;
        this.counters = new MemcachedCounters(settings.address());
    }

    /**
     * Connects {@code connections} times to the server over {@code ioThreads} event loops, for {@code threads}
     * issuers. Connection {@code c} belongs to issuer {@code c mod threads} and lives on that issuer's loop,
     * {@code (c mod threads) mod ioThreads}: an issuer's connections share one loop, and its sends and replies
     * never change threads. Each connection is made and checked ({@link VersionCheck}) within
     * {@code memcached.connect.timeout}.
     *
     * @throws BadInputException when the server cannot be reached or is not memcached, naming it and the fix
     */
    static MemcachedDriver open(MemcachedSettings settings, int connections, int ioThreads, int threads,
                                RecordValues records) {
        DefaultThreadFactory factory = new DefaultThreadFactory("loadgen-memcached-io", true);
        boolean epoll = Epoll.isAvailable();
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(ioThreads, factory) : new NioEventLoopGroup(ioThreads, factory);
        MemcachedDriver driver = new MemcachedDriver(settings, group, ioThreads, connections, threads, records);
        try {
            EventLoop[] loops = new EventLoop[ioThreads];
            int i = 0;
            for (EventExecutor e : group) {
                loops[i++] = (EventLoop) e;
            }
            Bootstrap base = new Bootstrap()
                    .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.ALLOCATOR, ALLOCATOR)
                    .option(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(4096, 65536, 1 << 20))
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS,
                            (int) Math.min(Integer.MAX_VALUE, Math.max(1, settings.connectTimeoutNs() / 1_000_000)))
                    .remoteAddress(settings.host(), settings.port());
            Requests requests = new Requests(settings.protocol(), settings.ttlSeconds(), settings.valueSize());
            for (int c = 0; c < connections; c++) {
                EventLoop loop = loops[c % threads % ioThreads];
                MemcachedConnection connection = new MemcachedConnection(loop, settings.timeoutNs(), requests,
                        driver.counters, base.clone().group(loop));
                driver.connections[c] = connection;
                Channel channel = driver.connect(base.clone().group(loop), connection);
                loop.submit(() -> connection.attach(channel)).syncUninterruptibly();
            }
            driver.assignIssuers(threads);
            return driver;
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
    }

    /** Opens one connection and checks it within {@code memcached.connect.timeout}. */
    private Channel connect(Bootstrap bootstrap, MemcachedConnection connection) {
        long deadlineNs = System.nanoTime() + settings.connectTimeoutNs();
        EventLoop loop = (EventLoop) bootstrap.config().group().next();
        Promise<String> checked = loop.newPromise();
        boolean meta = settings.protocol() == MemcachedSettings.Protocol.META;
        ChannelFuture f = bootstrap.handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new VersionCheck(meta, checked), connection);
            }
        }).connect();
        String uri = settings.uriText();
        if (!f.awaitUninterruptibly(Math.max(1, (deadlineNs - System.nanoTime()) / 1_000_000)) || !f.isSuccess()) {
            f.channel().close();
            String why = f.cause() == null ? "no answer within " + MemcachedSettings.CONNECT_TIMEOUT + "="
                    + Duration.ofNanos(settings.connectTimeoutNs()).toMillis() + "ms"
                    : Causes.rootMessage(f.cause()).replaceFirst("^\\w+\\(\\.\\.\\) failed: ", "");
            throw new BadInputException("cannot connect to memcached at " + uri + " (" + why + "); start memcached"
                    + " there (memcached -l " + settings.host() + " -p " + settings.port() + ") or point -p "
                    + MemcachedSettings.URI_KEY + "=memcached://HOST:PORT at one");
        }
        if (!checked.awaitUninterruptibly(Math.max(1, (deadlineNs - System.nanoTime()) / 1_000_000))) {
            f.channel().close();
            throw new BadInputException("memcached at " + uri + " did not answer 'version' within "
                    + MemcachedSettings.CONNECT_TIMEOUT + "=" + Duration.ofNanos(settings.connectTimeoutNs()).toMillis()
                    + "ms (it accepts connections but does not answer: paused, overloaded, or not memcached);"
                    + " resume or start memcached there, or raise -p " + MemcachedSettings.CONNECT_TIMEOUT);
        }
        if (!checked.isSuccess()) {
            f.channel().close();
            Throwable why = checked.cause();
            if (why instanceof VersionCheck.Refused refused && refused.noMeta) {
                throw new BadInputException("memcached at " + uri + " (version " + refused.getMessage() + ") does not"
                        + " speak the meta protocol (memcached 1.6 and later do); give -p "
                        + MemcachedSettings.PROTOCOL + "=text or a newer server");
            }
            if (why instanceof VersionCheck.Refused refused) {
                throw new BadInputException("the server at " + uri + (refused.getMessage() == null
                        ? " closed the connection without answering 'version'"
                        : " answered 'version' with '" + refused.getMessage() + "', not VERSION")
                        + ": it is not a memcached server; point -p " + MemcachedSettings.URI_KEY + " at one");
            }
            throw new BadInputException("cannot connect to memcached at " + uri + " (" + Causes.rootMessage(why)
                    + "); start memcached there or point -p " + MemcachedSettings.URI_KEY
                    + "=memcached://HOST:PORT at one");
        }
        version = checked.getNow();
        return f.channel();
    }

    /**
     * Each issuer's connections: {@code i mod N} alone when there are no more connections than issuers, else
     * every connection {@code c} with {@code c mod threads == i}.
     */
    private void assignIssuers(int threads) {
        for (int i = 0; i < threads; i++) {
            if (connections.length <= threads) {
                issuerConnections[i] = new MemcachedConnection[]{connections[i % connections.length]};
                continue;
            }
            List<MemcachedConnection> mine = new ArrayList<>();
            for (int c = i; c < connections.length; c += threads) {
                mine.add(connections[c]);
            }
            issuerConnections[i] = mine.toArray(new MemcachedConnection[0]);
        }
    }

    /** The server's version, as it answered at open. */
    String serverVersion() {
        return version;
    }

    @Override
    public ScheduledExecutorService issuerExecutor(int issuer) {
        return issuerConnections[issuer % issuerConnections.length][0].loop();
    }

    /**
     * The connections per issuer, at least 1 (the fewest any issuer has): one operation in flight on each, as
     * memtier's clients; pipelining deeper is {@code --max-in-flight}'s to ask.
     */
    @Override
    public int defaultInFlightPerIssuer() {
        return Math.max(1, connections.length / issuerConnections.length);
    }

    @Override
    public void submit(Operation op, Completion completion) {
        int type = op.typeIndex();
        if (type == MemcachedConnection.SCAN) {
            counters.notImplemented();
            completion.complete(Status.NOT_IMPLEMENTED);
            return;
        }
        int issuer = op.workerIndex() % issuerConnections.length;
        MemcachedConnection[] mine = issuerConnections[issuer];
        MemcachedConnection connection = mine.length == 1 ? mine[0] : freest(issuer, mine);
        if (connection.loop().inEventLoop()) {
            connection.start(records, type, op.keyNumber(), completion);
            return;
        }
        startFromOutside(connection, records, type, op.keyNumber(), completion);
    }

    /** Hands an operation to its connection's loop; the arguments are copies (the harness reuses its op). */
    private static void startFromOutside(MemcachedConnection connection, RecordValues records, int type, long key,
                                         Completion completion) {
        connection.loop().execute(() -> connection.start(records, type, key, completion));
    }

    /**
     * The issuer's next connection with nothing in flight, searching round-robin from where it last found one,
     * else its least busy. The issuer's thread.
     */
    private MemcachedConnection freest(int issuer, MemcachedConnection[] mine) {
        int n = mine.length;
        int start = cursors[issuer];
        MemcachedConnection best = null;
        int bestOpen = Integer.MAX_VALUE;
        for (int k = 0; k < n; k++) {
            int i = start + k < n ? start + k : start + k - n;
            int open = mine[i].open();
            if (open == 0) {
                cursors[issuer] = i + 1 < n ? i + 1 : 0;
                return mine[i];
            }
            if (open < bestOpen) {
                best = mine[i];
                bestOpen = open;
            }
        }
        return best;
    }

    /**
     * Runs every operation type but SCAN on every connection, {@value #WARM_UP_BATCH} at a time, through the
     * run's own path (on the connection's loop, with its timeout) on scratch records of the same shape
     * ({@link RecordValues#scratch}), until {@value #WARM_UP_ROUNDS} rounds are done or the budget is spent,
     * then deletes the scratch records: connections are up and the JIT's cold start is behind us, and the
     * workload's own items are as they were.
     */
    @Override
    public void warmUp(long budgetNs) throws Exception {
        long deadlineNs = System.nanoTime() + budgetNs;
        RecordValues scratch = records.scratch();
        int[] types = {MemcachedConnection.INSERT, MemcachedConnection.READ, MemcachedConnection.UPDATE,
                MemcachedConnection.READ_MODIFY_WRITE, MemcachedConnection.READ, MemcachedConnection.DELETE};
        CompletableFuture<?>[] batch = new CompletableFuture<?>[WARM_UP_BATCH * connections.length];
        try {
            for (int round = 0; round < WARM_UP_ROUNDS && System.nanoTime() - deadlineNs < 0; round++) {
                if (!runOnEvery(scratch, types[round % types.length], batch, deadlineNs)) {
                    break; // a slow or absent server: the run measures it as it is
                }
            }
        } finally {
            if (batch[batch.length - 1] != null) {
                await(CompletableFuture.allOf(batch), deadlineNs + budgetNs);
                runOnEvery(scratch, MemcachedConnection.DELETE, batch, deadlineNs + budgetNs);
            }
            counters.reset(); // the run's counters count the run's operations, not the warm-up's
        }
    }

    /** One operation of {@code type} on each of the {@value #WARM_UP_BATCH} scratch keys of every connection. */
    private boolean runOnEvery(RecordValues scratch, int type, CompletableFuture<?>[] batch, long deadlineNs)
            throws InterruptedException {
        for (int c = 0; c < connections.length; c++) {
            for (int i = 0; i < WARM_UP_BATCH; i++) {
                CompletableFuture<Status> done = new CompletableFuture<>();
                startFromOutside(connections[c], scratch, type, (long) c * WARM_UP_BATCH + i, done::complete);
                batch[c * WARM_UP_BATCH + i] = done;
            }
        }
        return await(CompletableFuture.allOf(batch), deadlineNs);
    }

    /** Waits for {@code all} until {@code deadlineNs}: whether it completed, normally, by then. */
    private static boolean await(CompletableFuture<?> all, long deadlineNs) throws InterruptedException {
        for (long left = deadlineNs - System.nanoTime(); !all.isDone() && left > 0; left = deadlineNs - System.nanoTime()) {
            try {
                all.get(left, TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                break; // the deadline, or an operation that failed: isDone and the outcome say which
            }
        }
        return all.isDone() && !all.isCompletedExceptionally();
    }

    /** The first failure's text (an error reply, a lost connection's cause), or null when none failed. */
    @Override
    public String lastFailure() {
        return counters.firstFailure();
    }

    /**
     * {@code connections} and {@code io_threads}: what the run used; then {@link MemcachedCounters#counts()}:
     * misses, not_implemented, timeouts, server_errors, client_errors, connection_errors, protocol_errors,
     * reconnects.
     */
    @Override
    public Map<String, Number> stats() {
        Map<String, Number> stats = new LinkedHashMap<>();
        stats.put("connections", connections.length);
        stats.put("io_threads", ioThreads);
        stats.putAll(counters.counts());
        return stats;
    }

    /** The failure counters (LongAdders, safe to sum while operations complete), for the status line. */
    @Override
    public Map<String, Number> liveStats() {
        return counters.failures();
    }

    @Override
    public void close() {
        for (MemcachedConnection c : connections) {
            if (c != null) {
                c.close(CLOSE_TIMEOUT_MS);
            }
        }
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(2 * CLOSE_TIMEOUT_MS);
    }
}
