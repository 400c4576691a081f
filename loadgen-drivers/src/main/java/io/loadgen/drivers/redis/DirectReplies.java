package io.loadgen.drivers.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.ByteProcessor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;

/**
 * The hot operations' own way through a Lettuce channel: {@link OpCommand}s (READ and UPDATE) are written
 * straight to Lettuce's encoder and their replies are framed and counted here, never reaching Lettuce's
 * command stack or its reply decoder. Every other command (the handshake's, SELECT, SCAN's, INSERT's ...) is
 * Lettuce's as before: its reply is handed on, byte for byte, to Lettuce's handlers.
 *
 * <p>Why: with 8 × 16 in flight, an HGETALL of 10 fields costs Lettuce's decoder a state-machine step, a
 * line search and a buffer slice per element (20 per reply), the better part of the event loop's time per
 * operation; an operation needs only to know whether the reply had elements. Here a reply is framed by its
 * headers ({@code *20}, then {@code $100} and a skip of 102 bytes per element), and an error reply's text kept.
 *
 * <p>Sits between Lettuce's {@code CommandEncoder} and its handshake and command handlers. Redis answers a
 * connection's commands in order, so the handler keeps, in write order, one entry per command that went
 * down the pipeline: {@link #LETTUCE} for a command Lettuce wrote through it, or the {@link OpCommand} written by
 * {@link #writeDirect}. Each reply goes to the oldest entry. Confined to the channel's event loop.
 */
final class DirectReplies extends ChannelDuplexHandler {
    /** The entry of a command Lettuce wrote: its reply goes on to Lettuce. */
    private static final Object LETTUCE = new Object();

    private final ArrayDeque<Object> awaiting = new ArrayDeque<>();
    private ByteBuf cumulation;
    private ChannelHandlerContext ctx;

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /**
     * Writes a batch of hot operations as one message to Lettuce's encoder (one buffer, one flush); their
     * replies complete them here. Loop thread, on an active channel.
     */
    void writeDirect(List<OpCommand> batch) {
        awaiting.addAll(batch);
        ctx.writeAndFlush(batch.size() == 1 ? batch.get(0) : batch, ctx.voidPromise());
    }

    /** Lettuce's own commands on their way to the encoder: each will get one reply, Lettuce's to read. */
    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof RedisCommand) {
            awaiting.addLast(LETTUCE);
        } else if (msg instanceof Collection) {
            for (int i = ((Collection<?>) msg).size(); i > 0; i--) {
                awaiting.addLast(LETTUCE);
            }
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (!(msg instanceof ByteBuf)) {
            ctx.fireChannelRead(msg);
            return;
        }
        ByteBuf in = cumulation == null ? (ByteBuf) msg
                : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, (ByteBuf) msg);
        cumulation = null;
        try {
            split(ctx, in);
        } catch (RedisException notRedis) {
            in.skipBytes(in.readableBytes());
            failAwaiting(notRedis);
            ctx.close(); // Lettuce hears of it and reconnects, as after any lost connection
        } finally {
            if (in.isReadable()) {
                cumulation = in; // a reply not yet whole: the next read completes it
            } else {
                in.release();
            }
        }
    }

    /** Hands each whole reply to its command: runs of Lettuce's replies go on as one slice. */
    private void split(ChannelHandlerContext ctx, ByteBuf in) {
        int lettuceStart = -1;
        while (in.isReadable()) {
            Object owner = awaiting.peekFirst();
            if (owner == null) {
                // A reply nobody asked for (none is expected in RESP2): Lettuce's to judge, as before this handler.
                lettuceStart = lettuceStart < 0 ? in.readerIndex() : lettuceStart;
                in.readerIndex(in.writerIndex());
                break;
            }
            int start = in.readerIndex();
            int end = replyEnd(in, start, in.writerIndex());
            if (end < 0) {
                break;
            }
            awaiting.pollFirst();
            if (owner == LETTUCE) {
                lettuceStart = lettuceStart < 0 ? start : lettuceStart;
            } else {
                if (lettuceStart >= 0) {
                    ctx.fireChannelRead(in.retainedSlice(lettuceStart, start - lettuceStart));
                    lettuceStart = -1;
                }
                complete((OpCommand) owner, in, start, end);
            }
            in.readerIndex(end);
        }
        if (lettuceStart >= 0) {
            ctx.fireChannelRead(in.retainedSlice(lettuceStart, in.readerIndex() - lettuceStart));
        }
    }

    /** An operation's reply: an error's text, or else how many elements it had (nil: none). */
    private static void complete(OpCommand op, ByteBuf in, int start, int end) {
        byte type = in.getByte(start);
        if (type == '-') {
            op.replied(-1, new RedisCommandExecutionException(
                    in.toString(start + 1, end - start - 3, StandardCharsets.UTF_8)));
            return;
        }
        long elements;
        if (type == '*') {
            elements = Math.max(0, number(in, start + 1, lineEnd(in, start + 1, end)));
        } else if (type == '$') {
            elements = number(in, start + 1, lineEnd(in, start + 1, end)) < 0 ? 0 : 1;
        } else {
            elements = 1; // an integer (HSET's count of new fields) or a status
        }
        op.replied(elements, null);
    }

    /**
     * Where the RESP2 reply that starts at {@code start} ends (the index after its last CRLF), or -1 when it is
     * not all in {@code [start, limit)} yet. Arrays nest: a count of the elements still to read is all the
     * state a depth-first walk needs.
     */
    static int replyEnd(ByteBuf in, int start, int limit) {
        int i = start;
        long remaining = 1;
        while (remaining > 0) {
            if (i >= limit) {
                return -1;
            }
            byte type = in.getByte(i);
            int cr = lineEnd(in, i + 1, limit);
            if (cr < 0) {
                return -1;
            }
            remaining--;
            switch (type) {
                case '$': {
                    long length = number(in, i + 1, cr);
                    i = cr + 2;
                    if (length >= 0) {
                        i += length + 2;
                    }
                    break;
                }
                case '*': {
                    long count = number(in, i + 1, cr);
                    if (count > 0) {
                        remaining += count;
                    }
                    i = cr + 2;
                    break;
                }
                case '+':
                case '-':
                case ':':
                    i = cr + 2;
                    break;
                default:
                    throw new RedisException("not a RESP2 reply: type byte " + (type & 0xff) + " at " + (i - start)
                            + " bytes into a reply; the server is not speaking Redis's protocol");
            }
        }
        return i <= limit ? i : -1;
    }

    /** Index of the CR that ends the line beginning at {@code from}, or -1 when its LF is not in yet. */
    private static int lineEnd(ByteBuf in, int from, int limit) {
        if (from >= limit) {
            return -1;
        }
        int lf = in.forEachByte(from, limit - from, ByteProcessor.FIND_LF);
        return lf < 0 ? -1 : lf - 1;
    }

    /** The decimal (maybe negative) in {@code [from, to)}. */
    private static long number(ByteBuf in, int from, int to) {
        boolean negative = in.getByte(from) == '-';
        long value = 0;
        for (int i = negative ? from + 1 : from; i < to; i++) {
            value = value * 10 + (in.getByte(i) - '0');
        }
        return negative ? -value : value;
    }

    /** The connection is gone: its hot operations awaiting replies fail now, as Lettuce fails its own. */
    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        failAwaiting(new RedisException("Connection closed"));
        releaseCumulation();
        super.channelInactive(ctx);
    }

    private void failAwaiting(RedisException cause) {
        Object owner;
        while ((owner = awaiting.pollFirst()) != null) {
            if (owner != LETTUCE) {
                ((OpCommand) owner).replied(-1, cause);
            }
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseCumulation();
    }

    private void releaseCumulation() {
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
    }
}
