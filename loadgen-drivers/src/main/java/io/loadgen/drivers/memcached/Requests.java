package io.loadgen.drivers.memcached;

import io.loadgen.drivers.redis.RecordValues;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Writes the driver's requests in the text or the meta protocol, straight into a connection's outgoing
 * buffer, allocating nothing. An item is a record: its key {@code user<n>} and, as its value, the record's
 * fields' values back to back (field 0 first), each the bytes the redis driver stores for that field
 * ({@link RecordValues}); with {@code memcached.valuesize} set, one field of that many bytes. Immutable; any
 * thread.
 *
 * <table>
 *   <caption>What each request is on the wire</caption>
 *   <tr><th>request</th><th>text</th><th>meta</th></tr>
 *   <tr><td>get</td><td>{@code get <key>}</td><td>{@code mg <key> v}</td></tr>
 *   <tr><td>set</td><td>{@code set <key> 0 <ttl> <bytes>}, the value</td><td>{@code ms <key> <bytes> T<ttl>},
 *       the value</td></tr>
 *   <tr><td>delete</td><td>{@code delete <key>}</td><td>{@code md <key>}</td></tr>
 * </table>
 */
final class Requests {
    private static final byte[] GET = ascii("get ");
    private static final byte[] SET = ascii("set ");
    private static final byte[] DELETE = ascii("delete ");
    private static final byte[] MG = ascii("mg ");
    private static final byte[] MG_VALUE = ascii(" v\r\n");
    private static final byte[] MS = ascii("ms ");
    private static final byte[] MD = ascii("md ");
    private static final byte[] CRLF = ascii("\r\n");

    private final boolean meta;
    private final int ttlSeconds;
    /** The text {@code set}'s flags and TTL, between key and length: {@code " 0 <ttl> "}. */
    private final byte[] setMiddle;
    /** The meta {@code ms}'s TTL flag after the length, {@code " T<ttl>"}, or nothing for no TTL. */
    private final byte[] metaTtl;
    private final int valueSize;

    /**
     * @param valueSize bytes per value, or 0 for the record's fields back to back
     */
    Requests(MemcachedSettings.Protocol protocol, int ttlSeconds, int valueSize) {
        this.meta = protocol == MemcachedSettings.Protocol.META;
        this.ttlSeconds = ttlSeconds;
        this.valueSize = valueSize;
        this.setMiddle = ascii(" 0 " + ttlSeconds + " ");
        this.metaTtl = ttlSeconds > 0 ? ascii(" T" + ttlSeconds) : new byte[0];
    }

    int ttlSeconds() {
        return ttlSeconds;
    }

    void get(ByteBuf out, RecordValues records, long keyNumber) {
        out.writeBytes(meta ? MG : GET);
        records.writeKey(out, keyNumber);
        out.writeBytes(meta ? MG_VALUE : CRLF);
    }

    void delete(ByteBuf out, RecordValues records, long keyNumber) {
        out.writeBytes(meta ? MD : DELETE);
        records.writeKey(out, keyNumber);
        out.writeBytes(CRLF);
    }

    /** A set of the whole record, its values as {@code writer} ({@link RecordValues#INSERTED} or UPDATED) writes them. */
    void set(ByteBuf out, RecordValues records, long keyNumber, byte writer) {
        int length = records.recordLength(keyNumber);
        if (meta) {
            out.writeBytes(MS);
            records.writeKey(out, keyNumber);
            out.writeByte(' ');
            writeDecimal(out, length);
            out.writeBytes(metaTtl);
        } else {
            out.writeBytes(SET);
            records.writeKey(out, keyNumber);
            out.writeBytes(setMiddle);
            writeDecimal(out, length);
        }
        out.writeBytes(CRLF);
        out.ensureWritable(length + 2);
        for (int f = 0; f < records.fieldCount(); f++) {
            records.writeValue(out, keyNumber, f, writer);
        }
        out.writeBytes(CRLF);
    }

    /** The records the values are made from: the workload's, or one field of {@code memcached.valuesize} bytes. */
    static RecordValues records(int valueSize, io.loadgen.core.driver.DriverContext.RecordShape shape) {
        if (valueSize > 0) {
            return RecordValues.of(1, valueSize, shape != null ? shape.zeroPadding() : 1);
        }
        return shape != null ? RecordValues.of(shape) : RecordValues.of(10, 100);
    }

    int valueSize() {
        return valueSize;
    }

    private static void writeDecimal(ByteBuf out, int n) {
        int divisor = 1;
        while (n / divisor >= 10) {
            divisor *= 10;
        }
        for (; divisor > 0; divisor /= 10) {
            out.writeByte('0' + n / divisor % 10);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
