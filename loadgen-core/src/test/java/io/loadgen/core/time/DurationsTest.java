package io.loadgen.core.time;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DurationsTest {

    @Test
    void parsesEveryUnitAndFractions() {
        assertEquals(Duration.ofNanos(250), Durations.parse("250ns", "x"));
        assertEquals(Duration.ofNanos(250_000), Durations.parse("250us", "x"));
        assertEquals(Duration.ofMillis(4), Durations.parse("4ms", "x"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("1.5s", "x"));
        assertEquals(Duration.ofMinutes(2), Durations.parse("2m", "x"));
        assertEquals(Duration.ofHours(1), Durations.parse("1h", "x"));
        assertEquals(Duration.ofSeconds(30), Durations.parse(" 30S ", "x"));
    }

    @Test
    void addsUpPartsWrittenLargestFirst() {
        assertEquals(Duration.ofSeconds(90), Durations.parse("1m30s", "x"));
        assertEquals(Duration.ofMinutes(62), Durations.parse("1h2m", "x"));
        assertEquals(Duration.ofMillis(2500), Durations.parse("2s500ms", "x"));
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms", "x"));
        assertEquals(Duration.ofMillis(90_500), Durations.parse("1.5m500ms", "x"));
    }

    @Test
    void rejectsPartsOutOfOrderOrWithoutUnit() {
        BadInputException e = assertThrows(BadInputException.class, () -> Durations.parse("30s1m", "-d"));
        assertTrue(e.getMessage().contains("largest unit first"), e.getMessage());
        assertThrows(BadInputException.class, () -> Durations.parse("1s1s", "-d"));
        assertThrows(BadInputException.class, () -> Durations.parse("1m30", "-d"));
        assertThrows(BadInputException.class, () -> Durations.parse("1m 30s", "-d"));
    }

    @Test
    void rejectsANumberWithoutUnitNamingTheOptionAndTheForm() {
        BadInputException e = assertThrows(BadInputException.class, () -> Durations.parse("4", "--duration"));
        assertTrue(e.getMessage().startsWith("--duration: '4' is not a duration"), e.getMessage());
        assertTrue(e.getMessage().contains("4ms"), e.getMessage());
    }

    @Test
    void rejectsAnUnknownUnit() {
        BadInputException e = assertThrows(BadInputException.class, () -> Durations.parse("4 parsecs", "p"));
        assertTrue(e.getMessage().contains("unknown unit 'parsecs'"), e.getMessage());
    }

    @Test
    void formatsInTheLargestExactUnit() {
        assertEquals("4ms", Durations.format(Duration.ofMillis(4)));
        assertEquals("1500ms", Durations.format(Duration.ofMillis(1500)));
        assertEquals("30s", Durations.format(Duration.ofSeconds(30)));
        assertEquals("2m", Durations.format(Duration.ofMinutes(2)));
        assertEquals("0s", Durations.format(Duration.ZERO));
    }
}
