package io.loadgen.drivers.redis;

import io.lettuce.core.protocol.CommandHandler;
import io.lettuce.core.protocol.Endpoint;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Knows, for each Lettuce connection, the Netty channel it is connected over right now and that channel's
 * {@link DirectReplies}, so {@link CommandBatch} can write a batch of hot commands in one write and have
 * their replies counted without Lettuce. Lettuce's own write path ({@code DefaultEndpoint.write}) writes a
 * batch one command at a time, each with its own promise, listener, pipeline pass and buffer.
 *
 * <p>The tracker is the last handler of every channel Lettuce opens (through the client's
 * {@code NettyCustomizer}). Its {@code channelActive} comes after Lettuce's {@link CommandHandler} has
 * activated the connection (AUTH and SELECT written, commands buffered while down re-sent), on the
 * channel's event loop; from then on the connection's {@link Ref} holds the channel, and from
 * {@code channelInactive} on it holds none, so commands are refused at once while the connection is down,
 * as {@code DisconnectedBehavior.REJECT_COMMANDS} refuses them on Lettuce's path.
 */
@ChannelHandler.Sharable
final class ChannelTracker extends ChannelInboundHandlerAdapter {
    private final Map<Endpoint, Ref> refs = new ConcurrentHashMap<>();

    /** The channel one connection is using now, and its {@link DirectReplies}; null while it is down. */
    static final class Ref {
        private volatile Channel channel;
        private volatile DirectReplies direct;

        Channel channel() {
            return channel;
        }

        DirectReplies direct() {
            return direct;
        }
    }

    /** The reference of the connection whose endpoint is {@code endpoint}; the same object across reconnects. */
    Ref ref(Endpoint endpoint) {
        return refs.computeIfAbsent(endpoint, e -> new Ref());
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        Ref ref = refOf(ctx);
        if (ref != null) {
            ref.direct = ctx.pipeline().get(DirectReplies.class);
            ref.channel = ctx.channel();
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Ref ref = refOf(ctx);
        if (ref != null && ref.channel == ctx.channel()) {
            ref.channel = null;
            ref.direct = null;
        }
        super.channelInactive(ctx);
    }

    private Ref refOf(ChannelHandlerContext ctx) {
        CommandHandler handler = ctx.pipeline().get(CommandHandler.class);
        return handler == null ? null : ref(handler.getEndpoint());
    }
}
