package io.loadgen.drivers.redis;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

import java.nio.ByteBuffer;

/**
 * The driver's codec: keys and field names are ASCII text, values are bytes. It writes keys and values
 * straight into the command's buffer, with their exact length known in advance
 * ({@link #isEstimateExact()}), so encoding a command allocates nothing of its own. Lettuce's
 * {@code RedisCodec.of(StringCodec.ASCII, ByteArrayCodec.INSTANCE)} is not a {@link ToByteBufEncoder}, and
 * made a heap buffer and a wrapper per key. Decoding is Lettuce's.
 */
final class AsciiKeyCodec implements RedisCodec<String, byte[]>, ToByteBufEncoder<String, byte[]> {
    static final AsciiKeyCodec INSTANCE = new AsciiKeyCodec();

    private AsciiKeyCodec() {
    }

    @Override
    public String decodeKey(ByteBuffer bytes) {
        return StringCodec.ASCII.decodeKey(bytes);
    }

    @Override
    public byte[] decodeValue(ByteBuffer bytes) {
        return ByteArrayCodec.INSTANCE.decodeValue(bytes);
    }

    @Override
    public ByteBuffer encodeKey(String key) {
        return StringCodec.ASCII.encodeKey(key);
    }

    @Override
    public ByteBuffer encodeValue(byte[] value) {
        return ByteArrayCodec.INSTANCE.encodeValue(value);
    }

    @Override
    public void encodeKey(String key, ByteBuf target) {
        if (key != null) {
            ByteBufUtil.writeAscii(target, key);
        }
    }

    @Override
    public void encodeValue(byte[] value, ByteBuf target) {
        if (value != null) {
            target.writeBytes(value);
        }
    }

    /** Exact: one byte per character of an ASCII key, the array's length for a value. */
    @Override
    public int estimateSize(Object keyOrValue) {
        if (keyOrValue instanceof String) {
            return ((String) keyOrValue).length();
        }
        if (keyOrValue instanceof byte[]) {
            return ((byte[]) keyOrValue).length;
        }
        return 0;
    }

    @Override
    public boolean isEstimateExact() {
        return true;
    }
}
