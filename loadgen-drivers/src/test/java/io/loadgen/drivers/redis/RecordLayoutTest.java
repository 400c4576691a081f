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

    @org.junit.jupiter.api.Test
    void uniformFieldLengthsCoverTheRangeEvenlyAndRepeatPerRecord() {
        // YCSB fieldlengthdistribution=uniform over [minfieldlength, fieldlength] = [10, 19]: 10 lengths, each
        // ~10% of 100,000 values (sd ~0.1%), and the same record's field always has the same length.
        FieldLengths lengths = new FieldLengths(10, 19, "uniform");
        int[] counts = new int[20];
        for (long k = 0; k < 10_000; k++) {
            for (int f = 0; f < 10; f++) {
                int n = lengths.length(k, f);
                org.junit.jupiter.api.Assertions.assertTrue(n >= 10 && n <= 19, "length " + n);
                counts[n]++;
                org.junit.jupiter.api.Assertions.assertEquals(n, lengths.length(k, f));
            }
        }
        for (int n = 10; n <= 19; n++) {
            org.junit.jupiter.api.Assertions.assertEquals(0.1, counts[n] / 100_000.0, 0.01, "length " + n);
        }
        RecordLayout layout = new RecordLayout(10, lengths, "field", 1);
        org.junit.jupiter.api.Assertions.assertEquals(lengths.length(42, 3), layout.value(42, 3, RecordLayout.INSERTED).length);
    }

    @org.junit.jupiter.api.Test
    void zipfianFieldLengthsFavourTheShortest() {
        // Zipf over 100 lengths with theta 0.99: the shortest has weight 1 / sum(1/r^0.99, r=1..100) ~ 0.19.
        FieldLengths lengths = new FieldLengths(1, 100, "zipfian");
        int shortest = 0;
        int n = 100_000;
        for (long k = 0; k < n; k++) {
            int len = lengths.length(k, 0);
            org.junit.jupiter.api.Assertions.assertTrue(len >= 1 && len <= 100);
            if (len == 1) {
                shortest++;
            }
        }
        double expected = 0;
        for (int r = 1; r <= 100; r++) {
            expected += 1 / Math.pow(r, 0.99);
        }
        org.junit.jupiter.api.Assertions.assertEquals(1 / expected, (double) shortest / n, 0.01);
    }

    @org.junit.jupiter.api.Test
    void zeroPaddingPadsTheKeyNumberAsYcsbDoes() {
        RecordLayout padded = new RecordLayout(1, FieldLengths.constant(10), "field", 6);
        org.junit.jupiter.api.Assertions.assertEquals("user000042", padded.key(42));
        org.junit.jupiter.api.Assertions.assertEquals("user1234567", padded.key(1234567));
        org.junit.jupiter.api.Assertions.assertEquals("user42", new RecordLayout(1, 10).key(42));
    }
}
