package io.loadgen.drivers.http;

import io.loadgen.core.BadInputException;
import io.loadgen.core.time.Durations;
import io.loadgen.drivers.support.HeldWrites;
import io.loadgen.drivers.support.ReadBackpressure;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * A small HTTP/1.1 server whose answer is known: every request gets {@code 200} and a fixed body after a fixed
 * delay, except {@code /status/NNN}, which answers status NNN. It can {@link #stall}: hold every response
 * for a given time. The ground truth the {@code http} driver's tests check against,
 * and a local target for {@code loadgen http-server} and {@code bench/http-vs-wrk.sh}. Keep-alive and
 * pipelining (responses in request order) as HTTP/1.1 has them; https when given a TLS context.
 *
 * <pre><code>
 * try (HttpTargetServer server = HttpTargetServer.start(new InetSocketAddress("127.0.0.1", 0), Options.DEFAULT)) {
 *     String url = server.url("/");   // http://127.0.0.1:PORT/
 * }
 * </code></pre>
 *
 * <p>With a delay or a stall, a response is written by a task scheduled on the connection's event loop at its
 * due time; Netty runs tasks due at the same time in the order they were scheduled, so pipelined responses
 * keep their order. On Linux the loops are native epoll (timers to tens of microseconds), elsewhere NIO
 * (to the millisecond).
 *
 * <p>What it cannot answer it refuses, as RFC 9110/9112 say: a request line or header section over the limits
 * 431, bytes that are not HTTP/1.x 400, another major version 505 (each then closes the connection: the framing
 * is lost), an unrecognized method 501, {@code /status/} without a code from 200 to 599 400 (both keep it open).
 * A connection's memory is bounded: its pending responses (held, or written and not yet taken by the socket)
 * pause its reads above {@link #PAUSE_ABOVE_REQUESTS}, and it is closed above {@link #MAX_PENDING_REQUESTS}
 * ({@link ReadBackpressure}, as the ping server's).
 */
public final class HttpTargetServer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(HttpTargetServer.class);
    /** The port {@code loadgen http-server} listens on and {@code http.url} names unless told otherwise. */
    public static final int DEFAULT_PORT = 8080;
    private static final long CLOSE_TIMEOUT_MS = 3_000;
    private static final String STATUS_PATH = "/status/";
    /** {@code /status/NNN} answers NNN in this range (1xx are interim, not a final answer); anything else 400. */
    static final int MIN_STATUS = 200;
    static final int MAX_STATUS = 599;
    /** The methods answered (RFC 9110's, but CONNECT: this is no proxy, plus PATCH); any other gets 501. */
    static final Set<HttpMethod> METHODS = Collections.unmodifiableSet(new LinkedHashSet<>(List.of(HttpMethod.GET,
            HttpMethod.HEAD, HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH, HttpMethod.DELETE,
            HttpMethod.OPTIONS, HttpMethod.TRACE)));
    /** A longer request line, or a longer header section, is answered 431 and the connection closed. */
    static final int MAX_REQUEST_LINE_BYTES = 4096;
    static final int MAX_HEADER_BYTES = 8192;
    /** Netty's default: a body is passed on, and dropped, in parts of at most this size. */
    private static final int MAX_CHUNK_BYTES = 8192;
    /**
     * The most one read takes from a socket (Netty's default is 64 KiB). A paused connection still decodes the
     * read it is in, and Netty may hand it one more read already under way: at most 1,170 requests a read, of
     * the shortest that keeps a connection open ({@code "A / HTTP/1.1\n\n"}, 14 bytes, answered 501).
     */
    static final int MAX_READ_BYTES = 16 << 10;
    /**
     * A connection's reads pause above this many pending responses (held for the delay, or written and not yet
     * taken by the socket) and resume at a quarter of it: the http driver's deepest pipeline (1,024) never pauses.
     */
    static final int PAUSE_ABOVE_REQUESTS = 1024;
    /**
     * The cap: a connection never has more responses pending; one that passes it is closed with a log line.
     * Above the pause mark by more than two reads of the shortest requests, so a paused connection stays under it.
     */
    static final int MAX_PENDING_REQUESTS = 4096;

    private final EventLoopGroup group;
    private final Channel channel;
    private final boolean tls;
    private final Answers answers;
    private final ReadBackpressure limits;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param delay      how long every response is held
     * @param bodyBytes  the 200 response's body length (the body is {@code x}s and a newline)
     * @param threads    event loops
     * @param tls        a server TLS context for https, or null for plain http
     */
    public record Options(Duration delay, int bodyBytes, int threads, SslContext tls) {
        public static final Options DEFAULT = new Options(Duration.ZERO, 13, 1, null);

        public Options withDelay(Duration d) {
            return new Options(d, bodyBytes, threads, tls);
        }

        public Options withTls(SslContext context) {
            return new Options(delay, bodyBytes, threads, context);
        }

        public Options withThreads(int n) {
            return new Options(delay, bodyBytes, n, tls);
        }

        public Options withBodyBytes(int n) {
            return new Options(delay, n, threads, tls);
        }
    }

    private HttpTargetServer(EventLoopGroup group, Channel channel, boolean tls, Answers answers,
                             ReadBackpressure limits) {
        this.limits = limits;
        this.group = group;
        this.channel = channel;
        this.tls = tls;
        this.answers = answers;
    }

    /**
     * Binds and starts answering, then logs the bound address.
     *
     * @param bind where to listen; port 0 picks a free port ({@link #port()} tells which)
     * @throws BadInputException when the address cannot be bound (in use, or not this machine's)
     */
    public static HttpTargetServer start(InetSocketAddress bind, Options options) {
        if (options.delay().isNegative() || options.bodyBytes() < 0
                || options.threads() < 1) {
            throw new IllegalArgumentException("bad options: " + options);
        }
        boolean epoll = Epoll.isAvailable();
        DefaultThreadFactory factory = new DefaultThreadFactory("http-server", true);
        EventLoopGroup group = epoll ? new EpollEventLoopGroup(options.threads(), factory)
                : new NioEventLoopGroup(options.threads(), factory);
        Answers answers = new Answers(options);
        ReadBackpressure limits = backpressure();
        try {
            ChannelFuture bound = new ServerBootstrap().group(group)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.RCVBUF_ALLOCATOR,
                            new AdaptiveRecvByteBufAllocator(64, 2048, MAX_READ_BYTES))
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (options.tls() != null) {
                                ch.pipeline().addLast(options.tls().newHandler(ch.alloc()));
                            }
                            ch.pipeline().addLast(new HttpServerCodec(MAX_REQUEST_LINE_BYTES, MAX_HEADER_BYTES,
                                    MAX_CHUNK_BYTES), new Responder(answers, limits));
                        }
                    })
                    .bind(bind).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw new BadInputException("http-server cannot listen on " + bind.getHostString() + ":"
                        + bind.getPort() + " (" + bound.cause().getMessage() + "); choose another --port or --bind");
            }
            HttpTargetServer server = new HttpTargetServer(group, bound.channel(), options.tls() != null, answers,
                    limits);
            LOG.info("http-server listening on {}, response delay {}, {}-byte body, {} thread(s) ({})",
                    server.url("/"), Durations.format(options.delay()), options.bodyBytes(), options.threads(),
                    epoll ? "epoll" : "nio");
            return server;
        } catch (RuntimeException e) {
            group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    public int port() {
        return address().getPort();
    }

    /** The URL of {@code path} on this server, e.g. {@code http://127.0.0.1:PORT/}. */
    public String url(String path) {
        String host = address().getAddress().getHostAddress();
        return (tls ? "https://" : "http://") + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port() + path;
    }

    /** Requests answered or being answered so far. */
    public long requests() {
        return answers.requests.get();
    }

    /** Responses held for their due time now, on every connection. */
    long heldResponses() {
        return answers.held.sum();
    }

    /** The most responses any connection has had pending (held, or written and not yet taken by its socket). */
    long maxPendingRequests() {
        return limits.maxPending();
    }

    /** How many times a connection's reads were paused (its pending responses full, or its socket). */
    long readPauses() {
        return limits.pauses();
    }

    /** Backpressure in pending responses. */
    private static ReadBackpressure backpressure() {
        return new ReadBackpressure("http-server", "responses wait to be taken by the client",
                PAUSE_ABOVE_REQUESTS / 4, PAUSE_ABOVE_REQUESTS, MAX_PENDING_REQUESTS);
    }

    /**
     * Holds every response due before {@code length} from now until then: a request answered now, or
     * during the stall, is answered at its end (or after its own delay, when that ends later). Any thread.
     */
    public void stall(Duration length) {
        answers.stallEndNs = System.nanoTime() + length.toNanos();
        LOG.info("http-server: stalling for {}", Durations.format(length));
    }

    /** Blocks until closed (the CLI's foreground server). */
    public void awaitClose() throws InterruptedException {
        channel.closeFuture().await();
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        channel.close().awaitUninterruptibly(CLOSE_TIMEOUT_MS);
        group.shutdownGracefully(0, CLOSE_TIMEOUT_MS, TimeUnit.MILLISECONDS).awaitUninterruptibly(2 * CLOSE_TIMEOUT_MS);
    }

    /** What every connection shares: the body, the delay and the stall. Thread-safe. */
    private static final class Answers {
        private final ByteBuf body;
        private final long delayNs;
        private final AtomicLong requests = new AtomicLong();
        /** Responses held for their due time, on every connection. */
        private final LongAdder held = new LongAdder();
        /** When the last stall ends (nanoTime); 0 before the first. */
        private volatile long stallEndNs;

        Answers(Options o) {
            byte[] b = new byte[o.bodyBytes()];
            java.util.Arrays.fill(b, (byte) 'x');
            if (b.length > 0) {
                b[b.length - 1] = '\n';
            }
            this.body = Unpooled.unreleasableBuffer(Unpooled.directBuffer(b.length).writeBytes(b)).asReadOnly();
            this.delayNs = o.delay().toNanos();
        }

        /** How long from {@code now} the response to a request read then is held. */
        long holdNs(long now) {
            requests.incrementAndGet();
            long end = stallEndNs;
            long hold = delayNs;
            if (end != 0 && end - now > hold) {
                hold = end - now;
            }
            return hold;
        }
    }

    /** A response to write: its status, a reason for the body (or null), and the request's keep-alive and HEAD. */
    private record Answer(HttpResponseStatus status, String why, boolean keepAlive, boolean head) {
        /** The common answer, shared: 200, kept alive, with a body. */
        static final Answer OK = new Answer(HttpResponseStatus.OK, null, true, false);
    }

    /**
     * Answers each request once it has been read whole (its last part), in order, after its hold; refuses what
     * it cannot answer, and keeps the connection's pending responses (held, or written and not yet taken by the
     * socket) within {@link #backpressure()}. One per connection, on its event loop.
     */
    private static final class Responder extends SimpleChannelInboundHandler<HttpObject> {
        private final Answers answers;
        private final ReadBackpressure limits;
        private ChannelHandlerContext ctx;
        /** The answer to the request being read. */
        private Answer next = Answer.OK;
        /** Responses held and not yet written (dropped if the connection closes), and when the last is due. */
        private final HeldWrites<Answer> held;
        private long lastDueNs;
        /** Responses written and not yet taken by the socket. Loop thread. */
        private int unsent;
        /** A response that closes the connection is on its way: nothing more is read or answered. */
        private boolean closing;
        private final ChannelFutureListener sent = f -> {
            unsent--;
            resumeIfDrained();
        };

        Responder(Answers answers, ReadBackpressure limits) {
            this.answers = answers;
            this.limits = limits;
            this.held = new HeldWrites<>(this::write, a -> { }, answers.held);
        }

        @Override
        public void handlerAdded(ChannelHandlerContext context) {
            ctx = context;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext context, HttpObject msg) {
            if (closing) {
                return; // Netty's decoder drops what follows a bad message; a closing connection answers nothing more
            }
            if (msg.decoderResult().isFailure()) { // the framing is lost: answer, then close
                Throwable cause = msg.decoderResult().cause();
                answer(new Answer(cause instanceof TooLongFrameException
                        ? HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE : HttpResponseStatus.BAD_REQUEST,
                        String.valueOf(cause.getMessage()), false, false));
                return;
            }
            if (msg instanceof HttpRequest request && !read(request)) {
                return;
            }
            if (msg instanceof LastHttpContent) {
                answer(next);
            }
        }

        /** Decides the answer to {@code request}; false when it was refused at once and the connection closes. */
        private boolean read(HttpRequest request) {
            HttpVersion version = request.protocolVersion(); // Netty's decoder refused any but HTTP/N.N (400)
            if (version.majorVersion() != 1) { // RFC 9110 2.5: a higher minor version is answered as 1.1
                answer(new Answer(HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED, version.text()
                        + ": this server speaks HTTP/1.0 and HTTP/1.1", false, false));
                return false;
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            boolean head = request.method().equals(HttpMethod.HEAD);
            HttpResponseStatus status;
            String reason = null;
            if (!METHODS.contains(request.method())) { // RFC 9110 15.6.2: 501 for a method it does not recognize
                status = HttpResponseStatus.NOT_IMPLEMENTED;
                reason = "method " + request.method() + " is not one of " + METHODS;
            } else {
                status = status(request.uri());
                if (status == null) {
                    status = HttpResponseStatus.BAD_REQUEST;
                    reason = STATUS_PATH + "NNN takes a status code from " + MIN_STATUS + " to " + MAX_STATUS;
                }
            }
            next = status == HttpResponseStatus.OK && keepAlive && !head ? Answer.OK
                    : new Answer(status, reason, keepAlive, head);
            return true;
        }

        /** Writes the response now, or holds it until its due time, after those held before it. */
        private void answer(Answer a) {
            if (!a.keepAlive()) {
                closing = true;
                ctx.channel().config().setAutoRead(false);
            }
            long now = System.nanoTime();
            long due = now + answers.holdNs(now);
            if (!held.isEmpty() && due - lastDueNs < 0) {
                due = lastDueNs; // never before a pipelined response still held: responses keep request order
            }
            if (due - now <= 0 && held.isEmpty()) {
                write(a);
            } else {
                lastDueNs = due;
                held.hold(ctx.executor(), a, due - now);
            }
            if (!closing && !limits.pauseIfFull(ctx, held.size() + unsent)) {
                closing = true; // closed above the cap: the rest of its read is not answered
            }
        }

        private void write(Answer a) {
            unsent++;
            ChannelFuture f = ctx.writeAndFlush(response(a.status(), a.why(), a.keepAlive(), a.head())).addListener(sent);
            if (!a.keepAlive()) {
                f.addListener(ChannelFutureListener.CLOSE);
            }
        }

        private void resumeIfDrained() {
            if (!closing) {
                limits.resumeIfDrained(ctx, held.size() + unsent);
            }
        }

        /** The connection closed: its held responses are dropped now, not when they fall due. */
        @Override
        public void channelInactive(ChannelHandlerContext context) {
            held.dropAll();
            context.fireChannelInactive();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext context) {
            if (!closing) {
                if (context.channel().isWritable()) {
                    resumeIfDrained();
                } else {
                    limits.pauseIfFull(context, held.size() + unsent);
                }
            }
            context.fireChannelWritabilityChanged();
        }

        private FullHttpResponse response(HttpResponseStatus s, String why, boolean alive, boolean headRequest) {
            ByteBuf content = s.code() == 200 ? answers.body.duplicate()
                    : Unpooled.copiedBuffer(s + (why == null ? "" : ": " + why) + "\n", StandardCharsets.US_ASCII);
            int length = content.readableBytes();
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, s,
                    headRequest ? Unpooled.EMPTY_BUFFER : content);
            if (headRequest) {
                content.release();
            }
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, length);
            if (!alive) {
                r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
            return r;
        }

        /** 200, NNN for {@code /status/NNN} with NNN from 200 to 599, or null for any other {@code /status/...}. */
        static HttpResponseStatus status(String uri) {
            if (!uri.startsWith(STATUS_PATH)) {
                return HttpResponseStatus.OK;
            }
            int end = STATUS_PATH.length();
            while (end < uri.length() && uri.charAt(end) != '?' && uri.charAt(end) != '/') {
                end++;
            }
            if (end - STATUS_PATH.length() != 3) {
                return null;
            }
            int code = 0;
            for (int i = STATUS_PATH.length(); i < end; i++) {
                char c = uri.charAt(i);
                if (c < '0' || c > '9') {
                    return null;
                }
                code = code * 10 + (c - '0');
            }
            return code >= MIN_STATUS && code <= MAX_STATUS ? HttpResponseStatus.valueOf(code) : null;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            LOG.debug("http-server: closing {} after {}", context.channel().remoteAddress(), cause.toString());
            context.close();
        }
    }
}
