package io.loadgen.drivers.memcached;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** memcached's replies, text and meta, framed whole or not at all, however the bytes arrive. */
class RepliesTest {
    private static final String STREAM = "VALUE user1 0 5\r\nab\r\nc\r\nEND\r\n" // a value holding a CRLF
            + "END\r\n"
            + "STORED\r\n"
            + "DELETED\r\n"
            + "NOT_FOUND\r\n"
            + "NOT_STORED\r\n"
            + "SERVER_ERROR out of memory storing object\r\n"
            + "CLIENT_ERROR bad command line format\r\n"
            + "ERROR\r\n"
            + "VA 3 f0\r\nxyz\r\n"
            + "EN\r\n"
            + "HD\r\n"
            + "NF\r\n"
            + "NS\r\n"
            + "EX\r\n";
    private static final List<Integer> KINDS = List.of(Replies.HIT, Replies.MISS, Replies.DONE, Replies.DONE,
            Replies.NOT_FOUND, Replies.NOT_STORED, Replies.SERVER_ERROR, Replies.CLIENT_ERROR, Replies.CLIENT_ERROR,
            Replies.HIT, Replies.MISS, Replies.DONE, Replies.NOT_FOUND, Replies.NOT_STORED, Replies.NOT_STORED);

    private static ByteBuf bytes(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }

    @Test
    void everyKindOfReplyIsFramedAndClassified() {
        Replies replies = new Replies();
        ByteBuf in = bytes(STREAM);
        List<Integer> kinds = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        while (in.isReadable()) {
            int kind = replies.next(in);
            kinds.add(kind);
            if (kind == Replies.SERVER_ERROR || kind == Replies.CLIENT_ERROR) {
                errors.add(replies.errorText());
            }
            if (kinds.size() == 1) {
                assertEquals(5, replies.valueLength());
            }
        }
        assertEquals(KINDS, kinds);
        assertEquals(List.of("SERVER_ERROR out of memory storing object", "CLIENT_ERROR bad command line format",
                "ERROR"), errors);
        in.release();
    }

    @Test
    void aReplyArrivingOneByteAtATimeIsTakenOnlyWhenWhole() {
        // Every prefix of the stream, fed as received so far: each reply is consumed exactly when its last byte is in.
        Replies replies = new Replies();
        ByteBuf in = Unpooled.buffer();
        List<Integer> kinds = new ArrayList<>();
        for (byte b : STREAM.getBytes(StandardCharsets.US_ASCII)) {
            in.writeByte(b);
            int kind;
            while ((kind = replies.next(in)) != Replies.INCOMPLETE) {
                kinds.add(kind);
            }
        }
        assertEquals(KINDS, kinds);
        assertEquals(0, in.readableBytes());
        in.release();
    }

    @Test
    void bytesThatAreNoMemcachedReplyAreRefusedNamingThem() {
        Replies replies = new Replies();
        for (String bad : new String[] {"+PONG\r\n", "get user1\r\n", "HTTP/1.1 400 Bad Request\r\n", "STORED\n",
                "VALUE user1 0 3\r\nabcXY\r\nEND\r\n", "VALUE user1 0 x\r\n"}) {
            ByteBuf in = bytes(bad);
            Replies.NotMemcachedException e = assertThrows(Replies.NotMemcachedException.class, () -> replies.next(in),
                    bad);
            assertTrue(e.getMessage().endsWith("is not a memcached reply"), e.getMessage());
            in.release();
        }
        ByteBuf endless = bytes("x".repeat(2000));
        assertThrows(Replies.NotMemcachedException.class, () -> replies.next(endless), "a line longer than any reply");
        endless.release();
    }
}
