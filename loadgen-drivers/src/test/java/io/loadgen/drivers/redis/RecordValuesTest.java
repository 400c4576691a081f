package io.loadgen.drivers.redis;

import io.loadgen.core.driver.DriverContext;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link RecordValues} writes, allocation-free, exactly the keys and values {@link RecordLayout} makes. */
class RecordValuesTest {

    private static String written(java.util.function.Consumer<ByteBuf> write) {
        ByteBuf buf = Unpooled.buffer();
        try {
            write.accept(buf);
            return buf.toString(StandardCharsets.US_ASCII);
        } finally {
            buf.release();
        }
    }

    private static void assertSameAsTheLayout(DriverContext.RecordShape shape) {
        RecordValues values = RecordValues.of(shape);
        RecordLayout layout = new RecordLayout(shape.fieldCount(),
                new FieldLengths(shape.minFieldLength(), shape.fieldLength(), shape.fieldLengthDistribution()),
                shape.fieldNamePrefix(), shape.zeroPadding());
        for (long key : new long[] {0, 7, 42, 999, 123_456_789L, Long.MAX_VALUE}) {
            int sum = 0;
            for (int f = 0; f < shape.fieldCount(); f++) {
                for (byte writer : new byte[] {RecordValues.INSERTED, RecordValues.UPDATED}) {
                    int field = f;
                    assertEquals(layout.valueText(key, f, writer),
                            written(b -> values.writeValue(b, key, field, writer)), shape + " key " + key + " field " + f);
                }
                sum += layout.value(key, f, RecordValues.INSERTED).length;
            }
            assertEquals(sum, values.recordLength(key), shape + " key " + key);
            assertEquals(layout.key(key), written(b -> values.writeKey(b, key)));
            assertEquals(layout.key(key), values.key(key));
            assertEquals(layout.scratch().key(key), written(b -> values.scratch().writeKey(b, key)));
        }
    }

    @Test
    void constantUniformAndZipfianLengthsAndZeroPaddingWriteWhatTheLayoutMakes() {
        assertSameAsTheLayout(new DriverContext.RecordShape(10, 100, 100, "constant", "field", 1));
        assertSameAsTheLayout(new DriverContext.RecordShape(5, 300, 1, "uniform", "f", 12));
        assertSameAsTheLayout(new DriverContext.RecordShape(4, 50, 2, "zipfian", "field", 1));
    }

    @Test
    void fieldsShorterThanTheirPrefixAreThePrefixCut() {
        // "i123456789-3:" is 13 bytes: a 4-byte field holds "i123".
        assertSameAsTheLayout(new DriverContext.RecordShape(4, 4, 4, "constant", "field", 1));
        assertEquals("i123", written(b -> RecordValues.of(4, 4).writeValue(b, 123_456_789L, 3, RecordValues.INSERTED)));
    }
}
