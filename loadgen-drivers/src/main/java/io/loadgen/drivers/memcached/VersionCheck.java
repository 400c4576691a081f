package io.loadgen.drivers.memcached;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Promise;

import java.nio.charset.StandardCharsets;

/**
 * The check a new connection passes before any operation is sent on it: {@code version} must be answered
 * {@code VERSION ...}, and, for the meta protocol, {@code mn} answered {@code MN}. Anything else that speaks
 * back (an echo server, an HTTP server, Redis) would have its answers read as replies: it is refused before the
 * run. The first handler of a channel opened by the driver; it removes itself once answered. Its outcome is
 * the promise: the server's version, or a failure whose message is what the server said instead.
 */
final class VersionCheck extends ChannelInboundHandlerAdapter {
    /** The answer did not come, or was not memcached's. */
    static final class Refused extends Exception {
        private static final long serialVersionUID = 1L;
        final boolean noMeta;

        Refused(String message, boolean noMeta) {
            super(message, null, false, false);
            this.noMeta = noMeta;
        }
    }

    private static final int MAX_ANSWER = 512;

    private final boolean meta;
    private final Promise<String> result;
    private final StringBuilder answer = new StringBuilder();

    VersionCheck(boolean meta, Promise<String> result) {
        this.meta = meta;
        this.result = result;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.writeAndFlush(Unpooled.copiedBuffer(meta ? "version\r\nmn\r\n" : "version\r\n", StandardCharsets.US_ASCII));
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf buf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            answer.append(buf.toString(StandardCharsets.ISO_8859_1));
        } finally {
            buf.release();
        }
        judge(ctx);
    }

    private void judge(ChannelHandlerContext ctx) {
        int first = answer.indexOf("\r\n");
        if (first < 0) {
            if (answer.length() > MAX_ANSWER) {
                refuse(ctx, new Refused(shown(answer), false));
            }
            return;
        }
        String line = answer.substring(0, first);
        if (!line.startsWith("VERSION ")) {
            refuse(ctx, new Refused(shown(line), false));
            return;
        }
        if (meta) {
            int second = answer.indexOf("\r\n", first + 2);
            if (second < 0) {
                return;
            }
            String mn = answer.substring(first + 2, second);
            if (!mn.equals("MN")) {
                refuse(ctx, new Refused(line.substring(8) + ", answering mn with '" + shown(mn) + "'", true));
                return;
            }
        }
        ctx.pipeline().remove(this);
        result.trySuccess(line.substring("VERSION ".length()));
    }

    private void refuse(ChannelHandlerContext ctx, Refused why) {
        result.tryFailure(why);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        result.tryFailure(new Refused(answer.length() == 0 ? null : shown(answer), false));
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        result.tryFailure(cause);
        ctx.close();
    }

    /** What the server said, on one line, printable, at most 80 characters. */
    private static String shown(CharSequence said) {
        String s = said.toString().replace("\r\n", " ").replaceAll("[^\\x20-\\x7e]", "?").trim();
        return s.length() > 80 ? s.substring(0, 80) + "..." : s;
    }
}
