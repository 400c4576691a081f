package io.loadgen.drivers.ping;

import io.loadgen.drivers.support.HeldWrites;
import io.loadgen.drivers.support.ReadBackpressure;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link PingServer}'s TCP side, one per connection: writes every byte it reads back, at once or
 * {@code delayNs} later. Runs on the connection's event loop only.
 *
 * <p>A delayed echo is a task scheduled on that same loop; tasks due at the same time run in the order
 * they were scheduled, so the stream comes back in order.
 *
 * <p>Backpressure, so a client that sends and never reads cannot grow the server's memory or stall the
 * loop for everyone else: the connection's <em>pending</em> bytes are those read but not yet taken by the
 * socket (held for the delay, or queued in Netty's outbound buffer). Above {@link ReadBackpressure#pauseAbove}
 * the handler stops reading (autoRead off), so the kernel's buffers, then the client's send, fill up; it
 * reads again once pending is back under {@link ReadBackpressure#resumeBelow} and the channel is
 * writable. Pending can pass the pause mark by what one read loop brings; above
 * {@link ReadBackpressure#closeAbove} the connection is closed with a log line. On a half-close (the
 * client shut its output) everything received is echoed, then the connection is closed.
 */
final class TcpEchoHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LogManager.getLogger(TcpEchoHandler.class);

    private final long delayNs;
    private final LongAdder receivedBytes;
    private final ReadBackpressure limits;
    /** Reads held for the delay (released if the connection closes), and their bytes. */
    private final HeldWrites<ByteBuf> held;
    private long heldBytes;
    private ChannelHandlerContext ctx;

    TcpEchoHandler(long delayNs, LongAdder receivedBytes, ReadBackpressure limits, LongAdder heldReads) {
        this.delayNs = delayNs;
        this.receivedBytes = receivedBytes;
        this.limits = limits;
        this.held = new HeldWrites<>(this::echo, ByteBuf::release, heldReads);
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        int n = ((ByteBuf) msg).readableBytes();
        receivedBytes.add(n);
        if (delayNs == 0) {
            ctx.write(msg, ctx.voidPromise());
        } else {
            heldBytes += n;
            held.hold(ctx.executor(), (ByteBuf) msg, delayNs);
        }
        limits.pauseIfFull(ctx, pendingBytes(ctx));
    }

    /** A held read fell due. */
    private void echo(ByteBuf msg) {
        heldBytes -= msg.readableBytes();
        ctx.writeAndFlush(msg, ctx.voidPromise());
        resumeIfDrained(ctx);
    }

    /** The connection closed: the reads still held are released now, not when they fall due. */
    @Override
    public void channelInactive(ChannelHandlerContext context) {
        held.dropAll();
        heldBytes = 0;
        context.fireChannelInactive();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (delayNs == 0) {
            ctx.flush();
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        resumeIfDrained(ctx);
        ctx.fireChannelWritabilityChanged();
    }

    /** The client shut its output: echo everything received (after the delay), then close. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            Runnable closeAfterEcho = () -> ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
            if (delayNs == 0) {
                closeAfterEcho.run();
            } else {
                ctx.executor().schedule(closeAfterEcho, delayNs, TimeUnit.NANOSECONDS);
            }
            return;
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void resumeIfDrained(ChannelHandlerContext ctx) {
        limits.resumeIfDrained(ctx, pendingBytes(ctx));
    }

    private long pendingBytes(ChannelHandlerContext ctx) {
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        return heldBytes + (out == null ? 0 : out.totalPendingWriteBytes());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A client that goes away mid-write (reset) is normal for a ping server: close that connection only.
        LOG.debug("ping-server: closing {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
