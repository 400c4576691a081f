package io.loadgen.core.schedule;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RatesTest {
    @Test
    void readsPlainNumbersAndThousandsAndMillions() {
        assertEquals(2500.0, Rates.parse("2500", "-R"));
        assertEquals(10_000.0, Rates.parse("10k", "-R"));
        assertEquals(10_000.0, Rates.parse("10K", "-R"));
        assertEquals(1500.0, Rates.parse("1.5k", "-R"));
        assertEquals(2_000_000.0, Rates.parse("2M", "-R"));
        assertEquals(3000.0, Rates.parse("3k/s", "-R"));
        assertEquals(1e4, Rates.parse("1e4", "-R"));
        assertEquals(-100.0, Rates.parse("-100", "-R"), "the caller refuses it with its own message");
    }

    @Test
    void refusesMilliAndWordsNamingTheForm() {
        BadInputException e = assertThrows(BadInputException.class, () -> Rates.parse("2m", "--target"));
        assertEquals("--target: '2m' is not a rate; write " + Rates.FORM, e.getMessage());
        assertThrows(BadInputException.class, () -> Rates.parse("fast", "--target"));
        assertThrows(BadInputException.class, () -> Rates.parse("", "--target"));
        assertTrue(Rates.FORM.contains("10k"));
    }
}
