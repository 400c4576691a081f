package io.loadgen.drivers.ping;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
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
 */
final class TcpEchoHandler extends ChannelInboundHandlerAdapter {
    private static final Logger LOG = LogManager.getLogger(TcpEchoHandler.class);

    private final long delayNs;
    private final LongAdder receivedBytes;

    TcpEchoHandler(long delayNs, LongAdder receivedBytes) {
        this.delayNs = delayNs;
        this.receivedBytes = receivedBytes;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        receivedBytes.add(((ByteBuf) msg).readableBytes());
        if (delayNs == 0) {
            ctx.write(msg, ctx.voidPromise());
        } else {
            ctx.executor().schedule(() -> ctx.writeAndFlush(msg, ctx.voidPromise()), delayNs, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (delayNs == 0) {
            ctx.flush();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // A client that goes away mid-write (reset) is normal for a ping server: close that connection only.
        LOG.debug("ping-server: closing {} after {}", ctx.channel().remoteAddress(), cause.toString());
        ctx.close();
    }
}
