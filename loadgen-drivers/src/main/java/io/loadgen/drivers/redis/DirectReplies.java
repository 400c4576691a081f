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
            elements = Math.max(0, value(header(in, start + 1, end)));
        } else if (type == '$') {
            elements = value(header(in, start + 1, end)) < 0 ? 0 : 1;
        } else {
            elements = 1; // an integer (HSET's count of new fields) or a status
        }
        op.replied(elements, null);
    }

    /**
     * Where the RESP2 reply that starts at {@code start} ends (the index after its last CRLF), or -1 when it is
     * not all in {@code [start, limit)} yet. Arrays nest: a count of the elements still to read is all the
     * state a depth-first walk needs. A header ({@code *20}, {@code $100}) is read once, its digits summed as the
     * scan looks for its CR; a bulk string's bytes are skipped, never read.
     */
    static int replyEnd(ByteBuf in, int start, int limit) {
        int i = start;
        long remaining = 1;
        while (remaining > 0) {
            if (i >= limit) {
                return -1;
            }
            byte type;
            long h = NOT_IN_WORD;
            if (limit - i >= Long.BYTES) {
                long word = in.getLong(i); // the type byte and, mostly, the whole header line: one bounds check
                type = (byte) (word >>> 56);
                h = wordHeader(word, i);
            } else {
                type = in.getByte(i);
            }
            remaining--;
            switch (type) {
                case '$': {
                    if (h == NOT_IN_WORD && (h = header(in, i + 1, limit)) == INCOMPLETE) {
                        return -1;
                    }
                    int length = value(h);
                    i = crIndex(h) + 2;
                    if (length >= 0) {
                        i += length + 2;
                    }
                    break;
                }
                case '*': {
                    if (h == NOT_IN_WORD && (h = header(in, i + 1, limit)) == INCOMPLETE) {
                        return -1;
                    }
                    remaining += Math.max(0, value(h));
                    i = crIndex(h) + 2;
                    break;
                }
                case '+':
                case '-':
                case ':': {
                    int cr = lineEnd(in, i + 1, limit);
                    if (cr < 0) {
                        return -1;
                    }
                    i = cr + 2;
                    break;
                }
                default:
                    throw notResp("type byte " + (type & 0xff) + " at " + (i - start) + " bytes into a reply");
            }
        }
        return i <= limit ? i : -1;
    }

    /** {@link #wordHeader}'s answer when the header is not a short decimal whose CRLF is in the word. */
    private static final long NOT_IN_WORD = Long.MIN_VALUE + 1;

    /**
     * The header line of the 8 bytes {@code word} read big-endian at {@code at} (a type byte, then e.g.
     * {@code 100\r\n}), as {@link #header} answers, when it is 1 to 5 digits and its CR and LF are both in the
     * word: every bulk string's and array's header of a record. Anything else, {@link #NOT_IN_WORD}, and
     * {@link #header} reads it byte by byte (a nil's {@code -1}, a long length, a line cut by the read).
     */
    private static long wordHeader(long word, int at) {
        long value = 0;
        for (int k = 1; k < Long.BYTES - 1; k++) {
            int b = (int) (word >>> (56 - 8 * k)) & 0xff;
            if (b == '\r') {
                if (k == 1 || ((int) (word >>> (48 - 8 * k)) & 0xff) != '\n') {
                    return NOT_IN_WORD;
                }
                return (value << 32) | (at + k);
            }
            int digit = b - '0';
            if (digit < 0 || digit > 9) {
                return NOT_IN_WORD;
            }
            value = value * 10 + digit;
        }
        return NOT_IN_WORD;
    }

    /** {@link #header}'s answer when the line's CRLF is not all in yet. */
    private static final long INCOMPLETE = Long.MIN_VALUE;

    /**
     * The decimal header line beginning at {@code from} ({@code 100\r\n}, {@code -1\r\n}), read in one pass:
     * its value in the high 32 bits and the index of its CR in the low 32, or {@link #INCOMPLETE} when its LF is
     * not in {@code [from, limit)} yet. A length or count beyond an int cannot frame a reply held in a buffer.
     */
    private static long header(ByteBuf in, int from, int limit) {
        int i = from;
        if (i >= limit) {
            return INCOMPLETE;
        }
        boolean negative = in.getByte(i) == '-';
        if (negative) {
            i++;
        }
        long value = 0;
        byte b;
        while (i < limit && (b = in.getByte(i)) != '\r') {
            int digit = b - '0';
            if (digit < 0 || digit > 9 || value > Integer.MAX_VALUE) {
                throw notResp("byte " + (b & 0xff) + " in a length line");
            }
            value = value * 10 + digit;
            i++;
        }
        if (i + 1 >= limit) {
            return INCOMPLETE; // no CR yet, or its LF not yet
        }
        if (value > Integer.MAX_VALUE || in.getByte(i + 1) != '\n') {
            throw notResp(value > Integer.MAX_VALUE ? "a length beyond 2^31" : "a length line not ended by CRLF");
        }
        return ((negative ? -value : value) << 32) | i;
    }

    private static int value(long header) {
        return (int) (header >> 32);
    }

    private static int crIndex(long header) {
        return (int) header;
    }

    private static RedisException notResp(String what) {
        return new RedisException("not a RESP2 reply: " + what + "; the server is not speaking Redis's protocol");
    }

    /** Index of the CR that ends the line beginning at {@code from}, or -1 when its LF is not in yet. */
    private static int lineEnd(ByteBuf in, int from, int limit) {
        if (from >= limit) {
            return -1;
        }
        int lf = in.forEachByte(from, limit - from, ByteProcessor.FIND_LF);
        return lf < 0 ? -1 : lf - 1;
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
