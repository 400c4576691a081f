package io.loadgen.drivers.redis;

import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;

import java.nio.ByteBuffer;

/**
 * A reply read only as far as counting its elements: what a READ needs to tell a record from a missing
 * one (HGETALL of a missing key is empty, HGET of one is nil), without decoding every field name into a String and every
 * value into a byte array as Lettuce's map output would. Written by Lettuce on the connection's event
 * loop, read once when the command completes.
 */
final class ElementCount extends CommandOutput<String, byte[], Long> {
    private long count;

    ElementCount(RedisCodec<String, byte[]> codec) {
        super(codec, null);
    }

    /** One element; a nil reply (HGET of a missing field or key) is none. */
    @Override
    public void set(ByteBuffer bytes) {
        if (bytes != null) {
            count++;
        }
    }

    /** An integer reply (HSET's count of new fields) is one element. */
    @Override
    public void set(long integer) {
        count++;
    }

    @Override
    public Long get() {
        return count;
    }
}
