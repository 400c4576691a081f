package io.loadgen.drivers.redis;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordLayoutTest {

    @Test
    void keyIsUserAndTheKeyNumberScoredByItsHashCodeAsYcsbDoes() {
        assertEquals("user42", RecordLayout.keyName(42));
        assertEquals((double) "user42".hashCode(), RecordLayout.indexScore("user42"));
    }

    @Test
    void valueStartsWithWriterKeyAndFieldThenTheFieldsPattern() {
        RecordLayout layout = new RecordLayout(10, 100);
        String v = layout.valueText(42, 3, RecordLayout.INSERTED);
        assertEquals(100, v.length());
        assertTrue(v.startsWith("i42-3:"), v);
        assertTrue(v.substring(6).chars().allMatch(c -> c >= 'a' && c <= 'z'), v);
        assertEquals("u42-3:" + v.substring(6), layout.valueText(42, 3, RecordLayout.UPDATED));
    }

    @Test
    void valueIsTheSameEachTimeAndDiffersByKeyFieldAndWriter() {
        RecordLayout layout = new RecordLayout(10, 100);
        byte[] v = layout.value(123_456_789_012L, 7, RecordLayout.INSERTED);
        assertArrayEquals(v, layout.value(123_456_789_012L, 7, RecordLayout.INSERTED));
        assertNotSame(v, layout.value(123_456_789_012L, 7, RecordLayout.INSERTED), "fresh: Lettuce encodes it later");
        assertNotEquals(layout.valueText(1, 7, RecordLayout.INSERTED), layout.valueText(2, 7, RecordLayout.INSERTED));
        String field0 = layout.valueText(1, 0, RecordLayout.INSERTED);
        String field1 = layout.valueText(1, 1, RecordLayout.INSERTED);
        assertNotEquals(field0.substring(6), field1.substring(6), "fields have their own patterns");
    }

    @Test
    void fieldShorterThanThePrefixKeepsItsLengthAndThePrefixStart() {
        RecordLayout layout = new RecordLayout(2, 4);
        assertEquals("i123", layout.valueText(123_456, 1, RecordLayout.INSERTED));
        assertEquals("u", new RecordLayout(1, 1).valueText(9, 0, RecordLayout.UPDATED));
    }

    @Test
    void fieldNamesAreFieldZeroToCountMinusOne() {
        RecordLayout layout = new RecordLayout(3, 10);
        assertEquals("field0", layout.fieldName(0));
        assertEquals("field2", layout.fieldName(2));
        assertEquals("field2", new String(layout.fieldNameBytes(2), java.nio.charset.StandardCharsets.US_ASCII));
    }
}
