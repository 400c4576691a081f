package io.loadgen.drivers.redis;

import io.lettuce.core.protocol.CommandArgs;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class AsciiKeyCodecTest {
    /** The arguments of HSET key field value, as RESP bulk strings: the bytes Redis must receive. */
    @Test
    void encodesKeysAndValuesAsExactLengthBulkStrings() {
        CommandArgs<String, byte[]> args = new CommandArgs<>(AsciiKeyCodec.INSTANCE)
                .addKey("user42").add("field0".getBytes(StandardCharsets.US_ASCII))
                .addValue(new byte[] {0, 1, (byte) 0xff});
        ByteBuf out = Unpooled.buffer();
        args.encode(out);
        byte[] expected = concat("$6\r\nuser42\r\n$6\r\nfield0\r\n$3\r\n".getBytes(StandardCharsets.US_ASCII),
                new byte[] {0, 1, (byte) 0xff}, "\r\n".getBytes(StandardCharsets.US_ASCII));
        byte[] actual = new byte[out.readableBytes()];
        out.readBytes(actual);
        assertArrayEquals(expected, actual);
    }

    @Test
    void decodesWhatItEncodes() {
        assertEquals("user42", AsciiKeyCodec.INSTANCE.decodeKey(AsciiKeyCodec.INSTANCE.encodeKey("user42")));
        assertArrayEquals(new byte[] {7, 8}, AsciiKeyCodec.INSTANCE.decodeValue(AsciiKeyCodec.INSTANCE.encodeValue(new byte[] {7, 8})));
        assertEquals(6, AsciiKeyCodec.INSTANCE.estimateSize("user42"));
        assertEquals(3, AsciiKeyCodec.INSTANCE.estimateSize(new byte[3]));
    }

    private static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        byte[] all = new byte[n];
        int at = 0;
        for (byte[] p : parts) {
            System.arraycopy(p, 0, all, at, p.length);
            at += p.length;
        }
        return all;
    }
}
