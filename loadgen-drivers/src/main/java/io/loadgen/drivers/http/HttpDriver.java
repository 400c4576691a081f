package io.loadgen.drivers.http;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import io.loadgen.drivers.support.Causes;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import javax.net.ssl.SSLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The {@code http} driver: HTTP/1.1 requests over keep-alive connections, as wrk does. Each issuer thread has
 * an event loop of its own and {@code http.connections / threads} connections on it (wrk's threads and
 * {@code -c}); the run keeps the issuer's schedule on that loop ({@link #issuerExecutor}), so a request is
 * written, and its response read and completed, on the one thread that issued it, with no hand-off.
 *
 * <p>Each submit takes the issuer's next connection with room ({@code http.pipelining} requests; 1 without
 * pipelining). {@link #maxInFlight()} is connections × pipelining, and {@link #defaultInFlightPerIssuer()}
 * is the issuer's share of it, so without {@code --max-in-flight} every connection is kept busy (the
 * concurrency is {@code http.connections}, as wrk's {@code -c}), and a request never waits inside the
 * driver for a busy connection: it waits in the issuer, where the wait counts in {@code intended}.
 */
final class HttpDriver implements AsyncDriver {
    private static final Logger LOG = LogManager.getLogger(HttpDriver.class);
    private static final int CONNECT_TIMEOUT_MS = 3_000;
    private static final long CLOSE_TIMEOUT_MS = 2_000;
    /** Rounds of one request per connection slot when warming up. */
    private static final int WARM_UP_ROUNDS = 500;

    private final HttpSettings settings;
    private final EventLoopGroup group;
    private final EventLoop[] loops;
    /** Per issuer, its connections. */
    private final HttpConnection[][] connections;
    private final int[] cursors;
    private final HttpCounters counters;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HttpDriver(HttpSettings settings, EventLoopGroup group, EventLoop[] loops, HttpConnection[][] connections,
                       HttpCounters counters) {
        this.settings = settings;
        this.group = group;
        this.loops = loops;
        this.connections = connections;
        this.cursors = new int[loops.length];
        this.counters = counters;
    }

    /**
     * Opens every connection (and its TLS handshake) before the run starts.
     *
     * @param threads the run's issuer threads: one event loop each
     * @throws BadInputException naming the origin when a connection fails, or when there are fewer connections
     *                           than threads
     */
    static HttpDriver open(HttpSettings settings, int threads) {
        int total = settings.connections() == 0 ? threads : settings.connections();
        if (total < threads) {
            throw new BadInputException("http.connections " + total + " is fewer than --threads " + threads
                    + ": each thread needs a connection; give at least " + threads + " connections, or fewer threads");
        }
        int perIssuer = total / threads;
        if (total % threads != 0) {
            LOG.warn("http.connections {} over {} threads: {} each, {} in all (as wrk spreads them)", total, threads,
                    perIssuer, perIssuer * threads);
        }
        boolean epoll = Epoll.isAvailable();
        DefaultThreadFactory factory = new DefaultThreadFactory("loadgen-http-io", true);
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(threads, factory) : new NioEventLoopGroup(threads, factory);
        EventLoop[] loops = new EventLoop[threads];
        int i = 0;
        for (EventExecutor e : group) {
            loops[i++] = (EventLoop) e;
        }
        HttpCounters counters = new HttpCounters(settings.success());
        HttpConnection[][] connections = new HttpConnection[threads][perIssuer];
        HttpDriver driver = new HttpDriver(settings, group, loops, connections, counters);
        try {
            Bootstrap bootstrap = new Bootstrap()
                    .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MS)
                    .remoteAddress(settings.origin().host(), settings.origin().port());
            SslContext tls = sslContext(settings);
            HttpRequestSpec[] specs = settings.requests().toArray(new HttpRequestSpec[0]);
            ByteBuf[] encoded = new ByteBuf[specs.length];
            for (int t = 0; t < specs.length; t++) {
                encoded[t] = specs[t].encode(settings.origin());
            }
            List<ChannelFuture> opening = new ArrayList<>();
            for (int issuer = 0; issuer < threads; issuer++) {
                for (int c = 0; c < perIssuer; c++) {
                    HttpConnection connection = new HttpConnection(bootstrap, loops[issuer], tls, settings.origin(),
                            specs, encoded, counters, settings.timeoutNs(), settings.pipelining());
                    connections[issuer][c] = connection;
                    opening.add(onLoop(loops[issuer], connection::connect));
                }
            }
            for (ChannelFuture f : opening) {
                awaitOpen(f, settings);
            }
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
        LOG.debug("http opened {} connection(s) to {} on {} loop(s) ({}), pipelining {}", perIssuer * threads,
                settings.origin(), threads, epoll ? "epoll" : "nio", settings.pipelining());
        return driver;
    }

    private static ChannelFuture onLoop(EventLoop loop, java.util.function.Supplier<ChannelFuture> task) {
        try {
            return loop.submit(task::get).get(CONNECT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("http: the event loop did not start a connect", e);
        }
    }

    /** Waits for a connect (and, for https, its handshake); bad input naming the origin when it fails. */
    private static void awaitOpen(ChannelFuture f, HttpSettings settings) {
        boolean done = f.awaitUninterruptibly(2L * CONNECT_TIMEOUT_MS) && f.isSuccess();
        Throwable cause = f.cause();
        if (done && settings.origin().tls()) {
            SslHandler ssl = f.channel().pipeline().get(SslHandler.class);
            done = ssl.handshakeFuture().awaitUninterruptibly(2L * CONNECT_TIMEOUT_MS) && ssl.handshakeFuture().isSuccess();
            cause = ssl.handshakeFuture().cause();
        }
        if (!done) {
            String why = cause == null ? "timed out" : Causes.rootMessage(cause);
            throw new BadInputException("http: cannot connect to " + settings.origin() + " (" + why + "); start a"
                    + " server there (e.g. 'loadgen http-server --port " + settings.origin().port() + "'), or set"
                    + " http.url" + (settings.origin().tls() && !settings.insecure()
                    ? " (a self-signed certificate needs -p http.insecure=true)" : ""));
        }
    }

    private static SslContext sslContext(HttpSettings settings) {
        if (!settings.origin().tls()) {
            return null;
        }
        try {
            SslContextBuilder b = SslContextBuilder.forClient();
            if (settings.insecure()) {
                b.trustManager(InsecureTrustManagerFactory.INSTANCE);
            }
            return b.build();
        } catch (SSLException e) {
            throw new IllegalStateException("http: cannot set up TLS (" + e.getMessage() + ")", e);
        }
    }

    @Override
    public ScheduledExecutorService issuerExecutor(int issuer) {
        return loops[issuer % loops.length];
    }

    @Override
    public void submit(Operation op, Completion completion) {
        int issuer = op.workerIndex() % loops.length;
        if (loops[issuer].inEventLoop()) {
            send(issuer, op.typeIndex(), completion);
        } else {
            int type = op.typeIndex();
            loops[issuer].execute(() -> send(issuer, type, completion));
        }
    }

    /** Sends on the issuer's next connection with room; loop thread. */
    private void send(int issuer, int type, Completion completion) {
        HttpConnection[] mine = connections[issuer];
        int n = mine.length;
        int start = cursors[issuer];
        for (int k = 0; k < n; k++) {
            int i = start + k < n ? start + k : start + k - n;
            if (mine[i].hasRoom()) {
                cursors[issuer] = i + 1 < n ? i + 1 : 0;
                mine[i].send(type, completion);
                return;
            }
        }
        counters.rejected.increment(); // more in flight than maxInFlight(): the caller broke the contract
        completion.complete(Status.ERROR);
    }

    /** Connections × pipelining. */
    @Override
    public int maxInFlight() {
        return loops.length * connections[0].length * settings.pipelining();
    }

    /** The issuer's connections × pipelining: every connection kept busy, as wrk's {@code -c} means. */
    @Override
    public int defaultInFlightPerIssuer() {
        return connections[0].length * settings.pipelining();
    }

    /**
     * Sends every request type through the run's own path, one per connection slot a round, for at most
     * {@value #WARM_UP_ROUNDS} rounds or the budget, when every request is safe (GET, HEAD, OPTIONS): a run that
     * POSTs does not post before its clock starts, and warms up on its connects alone.
     */
    @Override
    public void warmUp(long budgetNs) throws Exception {
        if (!settings.requests().stream().allMatch(HttpRequestSpec::isSafe)) {
            return;
        }
        long deadlineNs = System.nanoTime() + budgetNs;
        int slots = maxInFlight();
        int types = settings.requests().size();
        CompletableFuture<?>[] batch = new CompletableFuture<?>[0];
        try {
            for (int round = 0; round < WARM_UP_ROUNDS && System.nanoTime() - deadlineNs < 0; round++) {
                batch = new CompletableFuture<?>[slots];
                for (int s = 0; s < slots; s++) {
                    CompletableFuture<Status> done = new CompletableFuture<>();
                    int issuer = s % loops.length;
                    int type = (round + s) % types;
                    loops[issuer].execute(() -> send(issuer, type, done::complete));
                    batch[s] = done;
                }
                try {
                    CompletableFuture.allOf(batch).get(Math.max(1, deadlineNs - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    break; // a slow server: the run measures it as it is
                }
            }
        } finally {
            // The last round's requests end by http.timeout at the latest; the run's counters count the run's
            // requests, not the warm-up's, so they are cleared only once those have been answered.
            try {
                CompletableFuture.allOf(batch).get(settings.timeoutNs() + TimeUnit.SECONDS.toNanos(1),
                        TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
                LOG.debug("http: the warm-up's last requests did not end in time ({})", e.toString());
            }
            counters.reset();
        }
    }

    /**
     * {@code connections}, {@code requests} (sent), responses by class ({@code status_2xx}, ...), then the
     * failures: {@code timeouts}, {@code connection_errors} (requests lost with their connection),
     * {@code connect_failures}, {@code bad_responses} (unreadable), and {@code reconnects}.
     */
    @Override
    public Map<String, Number> stats() {
        Map<String, Number> stats = new java.util.LinkedHashMap<>();
        stats.put("connections", loops.length * connections[0].length);
        stats.putAll(counters.all());
        stats.put("rejected", counters.rejected.sum());
        return stats;
    }

    @Override
    public Map<String, Number> liveStats() {
        return counters.failures();
    }

    @Override
    public String lastFailure() {
        return counters.lastFailure();
    }

    /** Closes the connections (failing any request in flight) and stops the loops; bounded. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        Throwable last = counters.lastError;
        if (last != null) {
            LOG.debug("http: last connection error: {}", Causes.rootMessage(last));
        }
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(2 * CLOSE_TIMEOUT_MS);
    }
}
