package io.loadgen.drivers.ping;

import io.loadgen.core.BadInputException;
import io.loadgen.core.driver.DriverProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PingSettingsTest {

    private static PingSettings settings(Map<String, String> given) {
        return PingSettings.from(DriverProperties.of("ping", PingSettings.SPECS, given));
    }

    @Test
    void defaultsAreOneTcpConnectionToTheServersDefaultPort() {
        PingSettings s = settings(Map.of());
        assertEquals(new PingSettings("127.0.0.1", 7777, PingProtocol.TCP, 64, 1, false, 1_000_000_000L), s);
        assertEquals(1, s.depthPerConnection());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "ping.size, 7, must be between 8 and 65507",
            "ping.size, 70000, must be between 8 and 65507",
            "ping.port, 0, must be between 1 and 65535",
            "ping.connections, 0, must be between 1 and 1024",
            "ping.protocol, sctp, unknown protocol 'sctp'; choose tcp or udp",
            "ping.timeout, 0s, must be positive",
            "ping.timeout, 1, is not a duration",
            "ping.pipelining, yes, is not true or false"})
    void badValueIsRejectedInOneLineNamingTheProperty(String key, String value, String expected) {
        BadInputException e = assertThrows(BadInputException.class, () -> settings(Map.of(key, value)));
        assertTrue(e.getMessage().contains(key), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}
