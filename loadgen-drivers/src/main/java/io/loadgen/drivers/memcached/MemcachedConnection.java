package io.loadgen.drivers.memcached;

import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Status;
import io.loadgen.drivers.redis.RecordValues;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One connection to the server, and everything about its operations: the requests written and awaiting their
 * replies (in order: memcached answers a connection's requests in the order it reads them), the operations
 * begun and their deadlines, a buffer of requests written in this pass of the loop, and the reconnect when
 * the connection is lost. Confined to its event loop (the issuer's own, so a send, its reply and the next
 * send never change threads), except {@link #open()}, read by the issuer choosing a connection.
 *
 * <p>An operation is a {@link Pending}, pooled: begun, it waits in {@link #started} (in start order, so in
 * deadline order) until it is done; each request it sends waits in {@link #wire} until its reply. A
 * READ-MODIFY-WRITE sends its set when its get's reply comes. Whichever comes first, the reply or the deadline,
 * completes the operation; a reply to an operation already timed out is read and dropped. Nothing is allocated
 * per operation once the pool holds as many as are ever in flight.
 */
@ChannelHandler.Sharable
final class MemcachedConnection extends ChannelInboundHandlerAdapter {
    static final int READ = 0;
    static final int UPDATE = 1;
    static final int INSERT = 2;
    static final int SCAN = 3;
    static final int READ_MODIFY_WRITE = 4;
    static final int DELETE = 5;

    /** What a request on the wire asked, so its reply is read as that request's. */
    private static final int GET = 0;
    private static final int SET = 1;
    private static final int DEL = 2;

    static final long MAX_RECONNECT_DELAY_MS = 500;

    private final EventLoop loop;
    private final long timeoutNs;
    private final Requests requests;
    private final MemcachedCounters counters;
    private final Bootstrap bootstrap;
    private final Replies replies = new Replies();
    private final ArrayDeque<Pending> wire = new ArrayDeque<>();
    private final ArrayDeque<Pending> started = new ArrayDeque<>();
    private final ArrayDeque<Pending> pool = new ArrayDeque<>();
    private final Runnable flushTask = this::flush;
    private final Runnable expireTask = this::expire;
    private final Runnable reconnectTask = this::reconnect;

    private Channel channel;
    /** This pass's requests, not yet flushed: {@link #spare}, or null. */
    private ByteBuf out;
    /** The connection's write buffer, ours (one count) between passes. */
    private ByteBuf spare;
    private ByteBuf cumulation;
    private boolean flushScheduled;
    /** Between a read's first channelRead and its channelReadComplete, which flushes what the replies' completions wrote. */
    private boolean reading;
    private boolean armed;
    private boolean closing;
    private long reconnectDelayMs;
    /** Operations begun and not yet completed; written on the loop only. */
    private volatile int open;

    /** One operation: its completion, what it does, its deadline, and where it is. */
    private static final class Pending {
        Completion completion;
        RecordValues records;
        int type;
        long keyNumber;
        long deadlineNs;
        /** The request of this operation now awaiting its reply, or -1 when none is. */
        int onWire = -1;
        boolean inStarted;
        boolean done;
        /** In the pool: free, once, whoever releases it last (the reply, the deadline's queue or the completion). */
        boolean pooled;
    }

    MemcachedConnection(EventLoop loop, long timeoutNs, Requests requests, MemcachedCounters counters,
                        Bootstrap bootstrap) {
        this.loop = loop;
        this.timeoutNs = timeoutNs;
        this.requests = requests;
        this.counters = counters;
        this.bootstrap = bootstrap;
    }

    EventLoop loop() {
        return loop;
    }

    /**
     * Operations begun and not yet completed: 0 when the connection is free. Counted down before the completion
     * runs, so a completion that issues the next operation at once sees its connection free. Any thread.
     */
    int open() {
        return open;
    }

    /** The channel this connection uses from now on (opened and checked by the driver). Loop thread. */
    void attach(Channel channel) {
        this.channel = channel;
    }

    /** Starts one operation (not a SCAN) on the records {@code records}; its outcome reaches {@code completion} once. Loop thread. */
    void start(RecordValues records, int type, long keyNumber, Completion completion) {
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            counters.connectionError("not connected (the connection was lost and is being made again)");
            completion.complete(Status.ERROR);
            return;
        }
        Pending p = pool.pollFirst();
        if (p == null) {
            p = new Pending();
        }
        p.pooled = false;
        p.completion = completion;
        p.records = records;
        p.type = type;
        p.keyNumber = keyNumber;
        p.deadlineNs = System.nanoTime() + timeoutNs;
        p.done = false;
        p.inStarted = true;
        started.addLast(p);
        open = open + 1;
        if (!armed) {
            armed = true;
            loop.schedule(expireTask, timeoutNs, TimeUnit.NANOSECONDS);
        }
        switch (type) {
            case READ, READ_MODIFY_WRITE -> send(p, GET);
            case DELETE -> send(p, DEL);
            default -> send(p, SET);
        }
    }

    /** Writes one request of {@code p} into this pass's buffer; the pass's end flushes it. */
    private void send(Pending p, int request) {
        ByteBuf buf = out;
        if (buf == null) {
            buf = out = writeBuffer();
        }
        switch (request) {
            case GET -> requests.get(buf, p.records, p.keyNumber);
            case DEL -> requests.delete(buf, p.records, p.keyNumber);
            default -> requests.set(buf, p.records, p.keyNumber,
                    p.type == INSERT ? RecordValues.INSERTED : RecordValues.UPDATED);
        }
        p.onWire = request;
        wire.addLast(p);
        if (!reading && !flushScheduled) {
            // After the task in progress (an issuer's step): every request it writes joins. While replies are
            // read, the read's end flushes instead (channelReadComplete), with no task at all.
            flushScheduled = true;
            loop.execute(flushTask);
        }
    }

    /**
     * The buffer this pass's requests are written into: the connection's own, reused once Netty has written and
     * let go of the last pass's (its count back to our one), else a new one, which becomes the connection's.
     * So a connection that keeps up allocates no buffer per pass.
     */
    private ByteBuf writeBuffer() {
        ByteBuf own = spare;
        if (own != null && own.refCnt() == 1) {
            return own.clear();
        }
        if (own != null) {
            own.release(); // still being written: Netty frees it when done
        }
        return spare = channel.alloc().directBuffer(1024);
    }

    private void flush() {
        flushScheduled = false;
        ByteBuf buf = out;
        out = null;
        if (buf == null) {
            return;
        }
        Channel ch = channel;
        if (ch == null || !ch.isActive()) {
            return; // the requests in it failed with the connection (channelInactive); the buffer is reused
        }
        // A write that fails closes the channel; channelInactive then fails every request awaiting a reply.
        ch.writeAndFlush(buf.retain(), ch.voidPromise()); // our count stays: the buffer is reused once written
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        reading = true;
        ByteBuf in = cumulation == null ? (ByteBuf) msg
                : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, (ByteBuf) msg);
        cumulation = null;
        try {
            while (in.isReadable()) {
                Pending p = wire.peekFirst();
                if (p == null) {
                    throw new Replies.NotMemcachedException("a reply to no request ('"
                            + in.toString(in.readerIndex(), Math.min(in.readableBytes(), 40),
                            java.nio.charset.StandardCharsets.US_ASCII).replaceAll("[^\\x20-\\x7e]", "?") + "')");
                }
                int reply = replies.next(in);
                if (reply == Replies.INCOMPLETE) {
                    break;
                }
                wire.pollFirst();
                int request = p.onWire;
                p.onWire = -1;
                replied(p, request, reply);
            }
        } catch (Replies.NotMemcachedException e) {
            in.skipBytes(in.readableBytes());
            counters.protocolError(e);
            ctx.close(); // channelInactive fails what awaits a reply; the connection comes back by itself
        } finally {
            if (in.isReadable()) {
                in.discardSomeReadBytes(); // what was read is dropped, so a long pipelined run's buffer stays small
                cumulation = in; // a reply not yet whole: the next read completes it
            } else {
                in.release();
            }
        }
    }

    /** The end of one read from the socket: the requests the replies' completions wrote leave in one write. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reading = false;
        flush();
        ctx.fireChannelReadComplete();
    }

    /** One reply to {@code p}'s {@code request}. */
    private void replied(Pending p, int request, int reply) {
        if (p.done) {
            release(p); // it timed out before its reply came
            return;
        }
        switch (reply) {
            case Replies.CLIENT_ERROR -> {
                counters.clientError(replies.errorText());
                complete(p, Status.ERROR);
            }
            case Replies.SERVER_ERROR -> {
                counters.serverError(replies.errorText());
                complete(p, Status.ERROR);
            }
            case Replies.HIT -> {
                if (request != GET) {
                    protocolMismatch(p, request, reply);
                } else if (p.type == READ_MODIFY_WRITE) {
                    send(p, SET);
                } else {
                    complete(p, Status.OK);
                }
            }
            case Replies.MISS -> {
                if (request != GET) {
                    protocolMismatch(p, request, reply);
                } else {
                    counters.miss();
                    complete(p, Status.NOT_FOUND);
                }
            }
            case Replies.DONE -> {
                if (request == GET) {
                    protocolMismatch(p, request, reply);
                } else {
                    complete(p, Status.OK);
                }
            }
            case Replies.NOT_FOUND -> {
                if (request != DEL) {
                    protocolMismatch(p, request, reply);
                } else {
                    counters.miss();
                    complete(p, Status.NOT_FOUND);
                }
            }
            case Replies.NOT_STORED -> {
                counters.serverError("NOT_STORED (the server did not store the item)");
                complete(p, Status.ERROR);
            }
            default -> protocolMismatch(p, request, reply);
        }
    }

    /**
     * A reply of a kind the request cannot have: the server is not memcached, or the two sides disagree. The
     * operation goes back to the head of the wire, so closing the connection fails it with the rest.
     */
    private void protocolMismatch(Pending p, int request, int reply) {
        p.onWire = request;
        wire.addFirst(p);
        throw new Replies.NotMemcachedException("a reply of kind " + reply + " to a "
                + (request == GET ? "get" : request == SET ? "set" : "delete") + " (operation type " + p.type + ")");
    }

    private void complete(Pending p, Status status) {
        p.done = true;
        open = open - 1;
        Completion c = p.completion;
        p.completion = null;
        c.complete(status);
        settle();
        release(p);
    }

    /** Drops done operations from the head of {@link #started}. */
    private void settle() {
        Pending head;
        while ((head = started.peekFirst()) != null && head.done) {
            started.pollFirst();
            head.inStarted = false;
            release(head);
        }
    }

    /** Back to the pool once done, answered and out of {@link #started}. */
    private void release(Pending p) {
        if (p.done && p.onWire < 0 && !p.inStarted && !p.pooled) {
            p.pooled = true;
            p.records = null;
            pool.addLast(p);
        }
    }

    /**
     * The timer: completes every overdue operation with TIMEOUT, then waits for the next deadline. It stays armed
     * while it runs, so an operation a completion starts here adds no second timer: the loop below reaches it.
     */
    private void expire() {
        long nowNs = System.nanoTime();
        Pending head;
        while ((head = started.peekFirst()) != null) {
            if (!head.done && head.deadlineNs - nowNs > 0) {
                loop.schedule(expireTask, head.deadlineNs - nowNs, TimeUnit.NANOSECONDS);
                return;
            }
            started.pollFirst();
            head.inStarted = false;
            if (!head.done) {
                counters.timeout(); // counted before the completion, so whoever it wakes sees the count
                head.done = true;
                open = open - 1;
                Completion c = head.completion;
                head.completion = null;
                c.complete(Status.TIMEOUT);
            }
            release(head);
        }
        armed = false;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        reconnectDelayMs = 0;
        super.channelActive(ctx);
    }

    /** The connection is gone: what awaits a reply fails now, and the connection is made again (unless closing). */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        reading = false;
        if (ctx.channel() == channel) {
            channel = null;
            if (cumulation != null) {
                cumulation.release();
                cumulation = null;
            }
            out = null;
            if (spare != null) {
                spare.release();
                spare = null;
            }
            Pending p;
            while ((p = wire.pollFirst()) != null) {
                p.onWire = -1;
                if (!p.done) {
                    counters.connectionError("the connection was lost");
                    complete(p, Status.ERROR);
                } else {
                    release(p);
                }
            }
            if (!closing) {
                counters.disconnected();
                scheduleReconnect();
            }
        }
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        counters.connectionCause(cause);
        ctx.close();
    }

    private void scheduleReconnect() {
        reconnectDelayMs = reconnectDelayMs == 0 ? 1 : Math.min(MAX_RECONNECT_DELAY_MS, reconnectDelayMs * 2);
        loop.schedule(reconnectTask, reconnectDelayMs, TimeUnit.MILLISECONDS);
    }

    /** Makes the connection again, on this loop; on failure tries again after twice the wait, at most 0.5 s. */
    private void reconnect() {
        if (closing) {
            return;
        }
        ChannelFuture f = bootstrap.clone().handler(this).connect(); // the bootstrap's group is this loop
        f.addListener(done -> {
            if (closing) {
                f.channel().close();
            } else if (done.isSuccess()) {
                channel = f.channel();
                counters.reconnected();
            } else {
                counters.reconnectFailed(done.cause());
                scheduleReconnect();
            }
        });
    }

    /** Closes the connection for good; waits at most {@code timeoutMs}. Any thread. */
    void close(long timeoutMs) {
        if (loop.isShuttingDown()) {
            return;
        }
        try {
            loop.submit(() -> {
                closing = true;
                Channel ch = channel;
                if (ch != null) {
                    ch.close();
                }
            }).await(timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
