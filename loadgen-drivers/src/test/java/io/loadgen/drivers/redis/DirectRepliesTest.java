package io.loadgen.drivers.redis;

import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.loadgen.core.driver.Status;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DirectReplies} on an embedded channel: replies framed by their RESP2 headers, in write order, the hot
 * operations' counted here and Lettuce's handed on byte for byte, whatever the reads' boundaries.
 */
class DirectRepliesTest {
    private static final String HGETALL_2 = "*4\r\n$6\r\nfield0\r\n$3\r\nabc\r\n$6\r\nfield1\r\n$0\r\n\r\n";
    private final LongAdder timeouts = new LongAdder();
    private final List<Throwable> errors = new ArrayList<>();

    private EmbeddedChannel channel() {
        return new EmbeddedChannel(new DirectReplies());
    }

    /** A READ as the driver builds it, completing into {@code done}. */
    private OpCommand read(EmbeddedChannel channel, RecordedCompletion done) {
        InFlight inFlight = new InFlight(channel.eventLoop(), Duration.ofSeconds(60).toNanos(), timeouts, errors::add);
        return OpCommand.read(CommandType.HGETALL, new CommandArgs<>(RedisConnector.CODEC).addKey("user1"),
                RedisConnector.CODEC, inFlight.begin(done));
    }

    private static Command<String, String, String> lettuceCommand() {
        return new Command<>(CommandType.PING, new StatusOutput<>(StringCodec.UTF8));
    }

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.UTF_8);
    }

    @Test
    void repliesAreFramedByTheirHeadersAndCountedInWriteOrder() {
        // Four READs: a record of 2 fields (4 elements, one an empty value), a missing key (empty array), a nil
        // bulk (HGET of a missing field) and an error; their replies arrive in one read.
        EmbeddedChannel channel = channel();
        DirectReplies direct = channel.pipeline().get(DirectReplies.class);
        RecordedCompletion[] done = new RecordedCompletion[4];
        List<OpCommand> batch = new ArrayList<>();
        for (int i = 0; i < done.length; i++) {
            done[i] = new RecordedCompletion();
            batch.add(read(channel, done[i]));
        }
        direct.writeDirect(batch);
        assertEquals(1, channel.outboundMessages().size(), "one message for the batch");
        channel.writeInbound(bytes(HGETALL_2 + "*0\r\n" + "$-1\r\n" + "-WRONGTYPE Operation against a key\r\n"));

        assertEquals(Status.OK, done[0].status());
        assertEquals(Status.NOT_FOUND, done[1].status());
        assertEquals(Status.NOT_FOUND, done[2].status());
        assertEquals(Status.ERROR, done[3].status());
        assertEquals(1, errors.size());
        assertEquals("WRONGTYPE Operation against a key", errors.get(0).getMessage());
        assertNull(channel.readInbound(), "nothing was Lettuce's");
    }

    @Test
    void aReplySplitAtEveryByteIsFramedOnceWhole() {
        // The same four replies fed one byte per read: no reply completes before its last byte.
        EmbeddedChannel channel = channel();
        DirectReplies direct = channel.pipeline().get(DirectReplies.class);
        RecordedCompletion first = new RecordedCompletion();
        RecordedCompletion second = new RecordedCompletion();
        direct.writeDirect(List.of(read(channel, first), read(channel, second)));
        byte[] wire = (HGETALL_2 + ":3\r\n").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < wire.length; i++) {
            channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {wire[i]}));
            assertEquals(i >= HGETALL_2.length() - 1, first.isDone(), "after byte " + i);
            assertEquals(i == wire.length - 1, second.isDone(), "after byte " + i);
        }
        assertEquals(Status.OK, first.status());
        assertEquals(Status.OK, second.status(), "an integer reply (HSET's) is OK");
    }

    @Test
    void lettucesRepliesGoOnByteForByteBetweenTheHotOnes() {
        // Written: READ, Lettuce's command, READ, Lettuce's command. Lettuce's replies (a nested array and a
        // status) reach the next handler unchanged, the READs' are counted here.
        EmbeddedChannel channel = channel();
        DirectReplies direct = channel.pipeline().get(DirectReplies.class);
        RecordedCompletion a = new RecordedCompletion();
        RecordedCompletion b = new RecordedCompletion();
        direct.writeDirect(List.of(read(channel, a)));
        channel.writeOutbound(lettuceCommand());
        direct.writeDirect(List.of(read(channel, b)));
        channel.writeOutbound(lettuceCommand());
        String nested = "*2\r\n*2\r\n:1\r\n$2\r\nhi\r\n*-1\r\n";
        channel.writeInbound(bytes("*0\r\n" + nested + HGETALL_2 + "+PONG\r\n"));

        assertEquals(Status.NOT_FOUND, a.status());
        assertEquals(Status.OK, b.status());
        ByteBuf first = channel.readInbound();
        ByteBuf second = channel.readInbound();
        assertEquals(nested, first.toString(StandardCharsets.UTF_8));
        assertEquals("+PONG\r\n", second.toString(StandardCharsets.UTF_8));
        first.release();
        second.release();
        assertNull(channel.readInbound());
    }

    @Test
    void aLostConnectionFailsTheHotOperationsStillAwaitingReplies() {
        EmbeddedChannel channel = channel();
        DirectReplies direct = channel.pipeline().get(DirectReplies.class);
        RecordedCompletion answered = new RecordedCompletion();
        RecordedCompletion lost = new RecordedCompletion();
        direct.writeDirect(List.of(read(channel, answered), read(channel, lost)));
        channel.writeInbound(bytes("*0\r\n*2\r\n$1\r\na")); // the second reply only begins
        assertTrue(answered.isDone());
        assertFalse(lost.isDone());

        channel.close();
        assertEquals(Status.ERROR, lost.status());
        assertEquals("Connection closed", errors.get(0).getMessage());
    }

    @Test
    void bytesThatAreNotRespCloseTheConnectionAndFailWhatAwaitsAReply() {
        EmbeddedChannel channel = channel();
        DirectReplies direct = channel.pipeline().get(DirectReplies.class);
        RecordedCompletion done = new RecordedCompletion();
        direct.writeDirect(List.of(read(channel, done)));
        channel.writeInbound(bytes("HTTP/1.1 400 Bad Request\r\n"));
        assertEquals(Status.ERROR, done.status());
        assertTrue(errors.get(0).getMessage().startsWith("not a RESP2 reply"), errors.get(0).getMessage());
        assertFalse(channel.isOpen());
    }

    @Test
    void aLengthLineThatIsNotADecimalEndedByCrlfIsNotResp() {
        // The one-pass header reader checks what the old line search let through: a digit, then CR, then LF.
        for (String bad : new String[] {"*2\r\n$3x\r\nabc\r\n", "$3\rxabc\r\n", "*99999999999\r\n"}) {
            EmbeddedChannel channel = channel();
            DirectReplies direct = channel.pipeline().get(DirectReplies.class);
            RecordedCompletion done = new RecordedCompletion();
            direct.writeDirect(List.of(read(channel, done)));
            errors.clear();
            channel.writeInbound(bytes(bad));
            assertEquals(Status.ERROR, done.status(), bad);
            assertTrue(errors.get(0).getMessage().startsWith("not a RESP2 reply"), errors.get(0).getMessage());
            assertFalse(channel.isOpen(), bad);
        }
    }

    @Test
    void replyEndFramesNestedArraysAndNullsWhateverTheLimit() {
        // [[a, nil], nil-array, -1 length bulk, :5, +OK] as one reply: every shorter limit is "not all in yet".
        String reply = "*5\r\n*2\r\n$1\r\na\r\n$-1\r\n*-1\r\n$-1\r\n:5\r\n+OK\r\n";
        ByteBuf in = bytes(reply + "*0\r\n");
        assertEquals(reply.length(), DirectReplies.replyEnd(in, 0, in.writerIndex()));
        for (int limit = 0; limit < reply.length(); limit++) {
            assertEquals(-1, DirectReplies.replyEnd(in, 0, limit), "limit " + limit);
        }
        assertEquals(reply.length() + 4, DirectReplies.replyEnd(in, reply.length(), in.writerIndex()));
        in.release();
    }

    @Test
    void headersInAndOutOfTheEightByteWordFrameAlike() {
        // The reader takes a header from one 8-byte word when it can ($100\r\n) and byte by byte when it cannot:
        // 6 digits (its LF past the word), a nil, a header at the buffer's end. Each framed whole, and no sooner.
        String[] replies = {"$123456\r\n" + "x".repeat(123456) + "\r\n", "$100\r\n" + "y".repeat(100) + "\r\n",
            "*1\r\n$-1\r\n", "*3\r\n$0\r\n\r\n$1\r\nz\r\n$12\r\nhello world!\r\n", "$2\r\nab\r\n"};
        for (String reply : replies) {
            ByteBuf in = bytes(reply);
            assertEquals(reply.length(), DirectReplies.replyEnd(in, 0, in.writerIndex()), reply.substring(0, 6));
            for (int limit : new int[] {1, 3, 5, 7, 8, 9, reply.length() - 1}) {
                assertEquals(-1, DirectReplies.replyEnd(in, 0, Math.min(limit, reply.length() - 1)), "limit " + limit);
            }
            in.release();
        }
    }
}
