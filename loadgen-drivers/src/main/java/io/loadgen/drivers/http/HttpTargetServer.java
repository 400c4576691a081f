package io.loadgen.drivers.http;

import io.loadgen.core.BadInputException;
import io.loadgen.core.time.Durations;
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
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

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
 */
public final class HttpTargetServer implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(HttpTargetServer.class);
    /** The port {@code loadgen http-server} listens on and {@code http.url} names unless told otherwise. */
    public static final int DEFAULT_PORT = 8080;
    private static final long CLOSE_TIMEOUT_MS = 3_000;
    private static final String STATUS_PATH = "/status/";

    private final EventLoopGroup group;
    private final Channel channel;
    private final boolean tls;
    private final Answers answers;
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

    private HttpTargetServer(EventLoopGroup group, Channel channel, boolean tls, Answers answers) {
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
        try {
            ChannelFuture bound = new ServerBootstrap().group(group)
                    .channel(epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            if (options.tls() != null) {
                                ch.pipeline().addLast(options.tls().newHandler(ch.alloc()));
                            }
                            ch.pipeline().addLast(new HttpServerCodec(), new Responder(answers));
                        }
                    })
                    .bind(bind).awaitUninterruptibly();
            if (!bound.isSuccess()) {
                throw new BadInputException("http-server cannot listen on " + bind.getHostString() + ":"
                        + bind.getPort() + " (" + bound.cause().getMessage() + "); choose another --port or --bind");
            }
            HttpTargetServer server = new HttpTargetServer(group, bound.channel(), options.tls() != null, answers);
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

    /** Answers each request once it has been read whole (its last part), in order, after its hold. */
    private static final class Responder extends SimpleChannelInboundHandler<HttpObject> {
        private final Answers answers;
        private HttpResponseStatus status = HttpResponseStatus.OK;
        private boolean keepAlive = true;
        private boolean head;
        /** Responses held and not yet written, and when the last of them is due. Loop thread. */
        private int scheduled;
        private long lastDueNs;

        Responder(Answers answers) {
            this.answers = answers;
        }

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, HttpObject msg) {
            if (msg instanceof HttpRequest request) {
                status = status(request.uri());
                keepAlive = HttpUtil.isKeepAlive(request);
                head = request.method().name().equals("HEAD");
            }
            if (msg instanceof LastHttpContent) {
                FullHttpResponse response = response(status, keepAlive, head);
                long now = System.nanoTime();
                long due = now + answers.holdNs(now);
                if (scheduled > 0 && due - lastDueNs < 0) {
                    due = lastDueNs; // never before a pipelined response still held: responses keep request order
                }
                if (due - now <= 0 && scheduled == 0) {
                    write(ctx, response, keepAlive);
                } else {
                    boolean alive = keepAlive;
                    scheduled++;
                    lastDueNs = due;
                    ctx.executor().schedule(() -> {
                        scheduled--;
                        write(ctx, response, alive);
                    }, due - now, TimeUnit.NANOSECONDS);
                }
            }
        }

        private static void write(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
            ChannelFuture f = ctx.writeAndFlush(response);
            if (!keepAlive) {
                f.addListener(ChannelFutureListener.CLOSE);
            }
        }

        private FullHttpResponse response(HttpResponseStatus s, boolean keepAlive, boolean headRequest) {
            ByteBuf content = s.code() == 200 ? answers.body.duplicate()
                    : Unpooled.copiedBuffer(s.toString() + "\n", StandardCharsets.US_ASCII);
            int length = content.readableBytes();
            FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, s,
                    headRequest ? Unpooled.EMPTY_BUFFER : content);
            r.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, length);
            if (!keepAlive) {
                r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            }
            return r;
        }

        /** 200, or NNN for {@code /status/NNN}. */
        private static HttpResponseStatus status(String uri) {
            if (uri.startsWith(STATUS_PATH)) {
                try {
                    int code = Integer.parseInt(uri.substring(STATUS_PATH.length()).replaceAll("[?/].*", ""));
                    if (code >= 200 && code < 600) {
                        return HttpResponseStatus.valueOf(code);
                    }
                } catch (NumberFormatException e) {
                    return HttpResponseStatus.BAD_REQUEST;
                }
            }
            return HttpResponseStatus.OK;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
