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
 * Knows, for each Lettuce connection, the Netty channel it is connected over right now, so
 * {@link CommandBatch} can write a batch of commands to that channel in one write. Lettuce's own write path
 * ({@code DefaultEndpoint.write}) writes a batch one command at a time, each with its own promise, listener,
 * pipeline pass and buffer; half of the event loop's time with 8 × 16 in flight was that.
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

    /** The channel one connection is using now, or null while it is down. */
    static final class Ref {
        private volatile Channel channel;

        Channel channel() {
            return channel;
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
            ref.channel = ctx.channel();
        }
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        Ref ref = refOf(ctx);
        if (ref != null && ref.channel == ctx.channel()) {
            ref.channel = null;
        }
        super.channelInactive(ctx);
    }

    private Ref refOf(ChannelHandlerContext ctx) {
        CommandHandler handler = ctx.pipeline().get(CommandHandler.class);
        return handler == null ? null : ref(handler.getEndpoint());
    }
}
