package io.loadgen.drivers.http;

import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Status;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.ssl.SslContext;
import io.netty.util.ReferenceCountUtil;

import java.util.concurrent.TimeUnit;

/**
 * One keep-alive HTTP/1.1 connection and the requests in flight on it, in the order they were sent (the
 * order their responses come back). Confined to its event loop: the issuer that owns it runs there, and so
 * do its replies and its timer, so nothing here is shared between threads but the driver's counters.
 *
 * <p>A request is answered when its response's last part arrives; its status code picks its {@link Status}
 * ({@link HttpCounters#status}). A request still unanswered {@code http.timeout} after it was sent completes
 * with {@link Status#TIMEOUT}, and the connection is closed, since a late response would otherwise be taken
 * for the next request's; the requests behind it fail with {@link Status#ERROR}. A closed connection (by the
 * server, a timeout or an error) is opened again by the next request that needs it, which waits for the
 * connect: the only case where a request waits inside the driver, and it counts as that request's service time.
 *
 * <p>The requests in flight live in a ring of {@code http.pipelining} slots, so sending one allocates
 * nothing but Netty's own write.
 */
@ChannelHandler.Sharable // on one channel at a time, but on a new one after each reconnect
final class HttpConnection extends ChannelInboundHandlerAdapter {
    private final Bootstrap bootstrap;
    private final EventLoop loop;
    private final SslContext tls;
    private final HttpOrigin origin;
    private final HttpRequestSpec[] specs;
    private final io.netty.buffer.ByteBuf[] encoded;
    private final HttpCounters counters;
    private final long timeoutNs;
    private final Completion[] completions;
    private final int[] types;
    private final long[] deadlines;
    private final Runnable expireTask = this::expire;
    private Channel channel;
    private boolean connecting;
    /** Ring of requests in flight: {@code count} from {@code head}; the last {@code unsent} await a connect. */
    private int head;
    private int count;
    private int unsent;
    private boolean armed;
    /** The status code of the response being read; 0 between responses. */
    private int code;

    /** @param tls the TLS context for https, or null */
    HttpConnection(Bootstrap bootstrap, EventLoop loop, SslContext tls, HttpOrigin origin, HttpRequestSpec[] specs,
                   io.netty.buffer.ByteBuf[] encoded, HttpCounters counters, long timeoutNs, int depth) {
        this.bootstrap = bootstrap;
        this.loop = loop;
        this.tls = tls;
        this.origin = origin;
        this.specs = specs;
        this.encoded = encoded;
        this.counters = counters;
        this.timeoutNs = timeoutNs;
        this.completions = new Completion[depth];
        this.types = new int[depth];
        this.deadlines = new long[depth];
    }

    /** Has room for one more request. Loop thread. */
    boolean hasRoom() {
        return count < completions.length;
    }

    int inFlight() {
        return count;
    }

    /** The connection, once open (tests and close). */
    Channel channel() {
        return channel;
    }

    /** Connects on this connection's loop; returns the connect's future (for https the handshake follows it). */
    ChannelFuture connect() {
        connecting = true;
        ChannelFuture f = bootstrap.clone(loop).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    ch.pipeline().addLast(tls.newHandler(ch.alloc(), origin.host(), origin.port()));
                }
                ch.pipeline().addLast(new Decoder(HttpConnection.this), HttpConnection.this);
            }
        }).connect();
        channel = f.channel();
        f.addListener(done -> connected(f));
        return f;
    }

    private void connected(ChannelFuture f) {
        connecting = false;
        if (!f.isSuccess()) {
            failAll(Status.ERROR, true);
            return;
        }
        for (int k = count - unsent; k < count; k++) {
            write(slot(k), false);
        }
        unsent = 0;
        channel.flush();
    }

    /** Sends request type {@code type}; {@code completion} gets its outcome. Loop thread; needs {@link #hasRoom}. */
    void send(int type, Completion completion) {
        int s = slot(count++);
        completions[s] = completion;
        types[s] = type;
        deadlines[s] = System.nanoTime() + timeoutNs;
        if (!armed) {
            armed = true;
            loop.schedule(expireTask, timeoutNs, TimeUnit.NANOSECONDS);
        }
        if (channel != null && channel.isActive() && !connecting) {
            write(s, true);
            return;
        }
        unsent++;
        if (!connecting) {
            counters.reconnects.increment();
            connect();
        }
    }

    private void write(int s, boolean flush) {
        counters.requests.increment();
        if (flush) {
            channel.writeAndFlush(encoded[types[s]].duplicate(), channel.voidPromise());
        } else {
            channel.write(encoded[types[s]].duplicate(), channel.voidPromise());
        }
    }

    private int slot(int k) {
        int s = head + k;
        return s < completions.length ? s : s - completions.length;
    }

    /** For the decoder: the response now read answers a HEAD, so it has no body whatever its headers say. */
    boolean answersHead() {
        return count > 0 && specs[types[head]].isHead();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpResponse response) {
                if (response.decoderResult().isFailure()) {
                    counters.badResponses.increment();
                    if (counters.firstBadResponse == null) {
                        counters.firstBadResponse = response.decoderResult().cause();
                    }
                    ctx.close();
                    return;
                }
                code = response.status().code();
            }
            if (msg instanceof LastHttpContent last) {
                if (last.decoderResult().isFailure()) {
                    counters.badResponses.increment();
                    if (counters.firstBadResponse == null) {
                        counters.firstBadResponse = last.decoderResult().cause();
                    }
                    ctx.close();
                } else if (code >= 200 || code == 101) {
                    answered(code);
                }
                code = 0; // an interim 1xx response is followed by the real one
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    /** The head request's response has arrived. */
    private void answered(int status) {
        if (count == unsent) {
            counters.badResponses.increment(); // a response nobody asked for
            channel.close();
            return;
        }
        Completion c = take();
        c.complete(counters.status(status));
    }

    private Completion take() {
        Completion c = completions[head];
        completions[head] = null;
        head = slot(1);
        count--;
        return c;
    }

    /** The timer: an overdue head completes with TIMEOUT and closes the connection; else waits for the head's deadline. */
    private void expire() {
        armed = false;
        if (count == 0) {
            return;
        }
        long wait = deadlines[head] - System.nanoTime();
        if (wait > 0) {
            armed = true;
            loop.schedule(expireTask, wait, TimeUnit.NANOSECONDS);
            return;
        }
        counters.timeouts.increment(); // counted before the completion, so whoever it wakes sees the count
        take().complete(Status.TIMEOUT);
        failAll(Status.ERROR, false);
        if (channel != null) {
            channel.close();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (ctx.channel() == channel) {
            failAll(Status.ERROR, false);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.lastError = cause;
        ctx.close();
    }

    /** Completes every request in flight with {@code status}, counting each as a connection error. */
    private void failAll(Status status, boolean connectFailed) {
        while (count > 0) {
            counters.connectionErrors.increment();
            take().complete(status);
        }
        unsent = 0;
        if (connectFailed) {
            counters.connectFailures.increment();
        }
    }

    /** Netty's decoder, told when a response answers a HEAD request (it has no body). */
    static final class Decoder extends HttpResponseDecoder {
        private final HttpConnection connection;

        Decoder(HttpConnection connection) {
            // Headers are read only for framing (Content-Length, chunked, Connection): the decoder need not check
            // every name and value, as a server facing untrusted clients must.
            super(new HttpDecoderConfig().setValidateHeaders(false));
            this.connection = connection;
        }

        @Override
        protected boolean isContentAlwaysEmpty(HttpMessage msg) {
            return connection.answersHead() || super.isContentAlwaysEmpty(msg);
        }
    }
}
