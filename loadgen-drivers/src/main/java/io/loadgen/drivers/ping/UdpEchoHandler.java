package io.loadgen.drivers.ping;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link PingServer}'s UDP side: sends every datagram back to its sender, at once or {@code delayNs}
 * later. Runs on the server channel's event loop only.
 *
 * <p>A datagram is read into a buffer of the largest UDP size; a delayed reply is copied into one of
 * its own size first, so held replies cost their size, not 64 KiB each.
 */
@ChannelHandler.Sharable
final class UdpEchoHandler extends SimpleChannelInboundHandler<DatagramPacket> {
    private static final Logger LOG = LogManager.getLogger(UdpEchoHandler.class);

    private final long delayNs;
    private final LongAdder receivedBytes;

    UdpEchoHandler(long delayNs, LongAdder receivedBytes) {
        this.delayNs = delayNs;
        this.receivedBytes = receivedBytes;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket request) {
        ByteBuf content = request.content();
        receivedBytes.add(content.readableBytes());
        if (delayNs == 0) {
            ctx.writeAndFlush(new DatagramPacket(content.retain(), request.sender()), ctx.voidPromise());
        } else {
            DatagramPacket reply = new DatagramPacket(ctx.alloc().directBuffer(content.readableBytes())
                    .writeBytes(content, content.readerIndex(), content.readableBytes()), request.sender());
            ctx.executor().schedule(() -> ctx.writeAndFlush(reply, ctx.voidPromise()), delayNs, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // One bad send (e.g. the client's port closed) must not stop the server.
        LOG.debug("ping-server: udp error {}", cause.toString());
    }
}
