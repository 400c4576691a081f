package io.loadgen.plot;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The palette's rules and the latency text a person reads (both shared by the PNG charts and the HTML pages). */
class PaletteTest {
    @Test
    void aViewHasItsColourWhateverTheTagAroundIt() {
        assertEquals("intended", Palette.view("READ.intended"));
        assertEquals("intended", Palette.view("run-a: UPDATE.intended"));
        assertEquals("failed.intended", Palette.view("READ.failed.intended"));
        assertEquals("failed.service", Palette.view("READ.failed.service"));
        assertEquals("harness.hiccup", Palette.view("harness.hiccup"));
        assertEquals("corrected", Palette.view("corrected"));
        assertEquals(null, Palette.view("mytool.latency"));
        List<java.awt.Color> c = Palette.colors(List.of("READ.intended", "READ.service", "UPDATE.intended",
                "harness.lag", "x", "y"));
        assertEquals(Palette.INTENDED, c.get(0));
        assertEquals(Palette.SERVICE, c.get(1));
        assertEquals(Palette.shade(Palette.INTENDED, 1), c.get(2), "a second intended: a shade of red");
        assertNotEquals(Palette.INTENDED, c.get(2));
        assertEquals(Palette.HARNESS_LAG, c.get(3));
        assertEquals(Palette.OTHERS[0], c.get(4));
        assertEquals(Palette.OTHERS[1], c.get(5));
        assertEquals("#d62728", Palette.hex(Palette.INTENDED));
    }

    /**
     * Three significant digits in the largest unit reached, rounded half up first (so 999.6 µs is 1 ms), trailing
     * zeros dropped: core's Units.latency (the tool's tables) with the micro sign.
     */
    @Test
    void latenciesReadAsAPersonReadsThem() {
        assertEquals("4.91 ms", LatencyUnit.human(4_911_103));
        assertEquals("812 µs", LatencyUnit.human(812_000));
        assertEquals("81.2 µs", LatencyUnit.human(81_249));
        assertEquals("1 ms", LatencyUnit.human(999_600));
        assertEquals("999 µs", LatencyUnit.human(999_499));
        assertEquals("5 ms", LatencyUnit.human(5_000_000));
        assertEquals("511 ns", LatencyUnit.human(511));
        assertEquals("92.8 ns", LatencyUnit.human(92.786));
        assertEquals("0 ns", LatencyUnit.human(0));
        assertEquals("1.23 s", LatencyUnit.human(1_234_000_000L));
        assertEquals("1230 s", LatencyUnit.human(1_234_567_000_000L));
        assertEquals(LatencyUnit.US, LatencyUnit.fit(999_999));
        assertEquals(LatencyUnit.MS, LatencyUnit.fit(1_000_000));
        assertEquals(LatencyUnit.MS, LatencyUnit.fit(9.9e9));
        assertEquals(LatencyUnit.S, LatencyUnit.fit(1e10));
    }
}
