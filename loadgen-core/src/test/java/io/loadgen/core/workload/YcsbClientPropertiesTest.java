package io.loadgen.core.workload;

import io.loadgen.core.BadInputException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class YcsbClientPropertiesTest {
    private static Map<String, String> props(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }

    @Test
    void yscbsOwnMeasurementKeysAreSetAsideAndNamedInTheirOrder() {
        YcsbClientProperties.Translation t = YcsbClientProperties.translate(props("recordcount", "1000",
                "measurementtype", "histogram", "maxscanrate", "0", "discardscannedrecord", "false",
                "hdrhistogram.percentiles", "50,99", "exporter", "site.ycsb.measurements.exporter.JSONArrayMeasurementsExporter",
                "measurement.interval", "both", "histogram.buckets", "1000", "timeseries.granularity", "1000",
                "mockdb.delay", "1ms"));
        assertEquals(Map.of("recordcount", "1000", "mockdb.delay", "1ms"), t.properties());
        assertEquals(List.of("measurementtype", "maxscanrate", "discardscannedrecord", "hdrhistogram.percentiles",
                "exporter", "measurement.interval", "histogram.buckets", "timeseries.granularity"), t.noEffect());
        assertEquals(Optional.empty(), t.statusInterval());
    }

    /** The ycsb driver's binding reads YCSB's keys itself: they stay as given, only the status period is taken. */
    @Test
    void forADriverThatPassesPropertiesThroughEveryKeyButTheStatusIntervalStays() {
        Map<String, String> given = props("redis.host", "10.0.0.7", "redis.port", "6390", "redis.password", "s3cret",
                "redis.cluster", "true", "columnfamily", "family", "measurementtype", "histogram", "recordcount", "10",
                "status.interval", "5");
        YcsbClientProperties.Translation t = YcsbClientProperties.translate(given, true);
        Map<String, String> kept = new LinkedHashMap<>(given);
        kept.remove("status.interval");
        assertEquals(kept, t.properties());
        assertEquals(List.of("measurementtype"), t.noEffect(), "the bindings' own options have an effect");
        assertEquals(Optional.of(Duration.ofSeconds(5)), t.statusInterval());
    }

    @Test
    void redisHostAndPortAreTheUri() {
        assertEquals(Map.of("redis.uri", "redis://10.0.0.7:6390"),
                YcsbClientProperties.translate(props("redis.host", "10.0.0.7", "redis.port", "6390")).properties());
        assertEquals(Map.of("redis.uri", "redis://:s3cret@127.0.0.1:6379"),
                YcsbClientProperties.translate(props("redis.password", "s3cret")).properties(),
                "YCSB's defaults for the host and port");
        assertEquals(Map.of("redis.uri", "redis://h:6379", "redis.cluster", "true"),
                YcsbClientProperties.translate(props("redis.host", "h", "redis.cluster", "true")).properties(),
                "YCSB's redis.cluster is the redis driver's own");
        assertEquals(List.of(),
                YcsbClientProperties.translate(props("redis.host", "h", "redis.cluster", "true")).noEffect());
    }

    @Test
    void statusIntervalIsSeconds() {
        assertEquals(Optional.of(Duration.ofSeconds(10)),
                YcsbClientProperties.translate(props("status.interval", "10")).statusInterval());
        assertEquals(Map.of(), YcsbClientProperties.translate(props("status.interval", "10")).properties());
    }

    @Test
    void whatCannotBeHonouredIsRefusedWithTheFix() {
        assertEquals("give the Redis server either as redis.uri or as YCSB's redis.host and redis.port, not both",
                assertThrows(BadInputException.class, () -> YcsbClientProperties.translate(
                        props("redis.uri", "redis://a:1", "redis.host", "b"))).getMessage());
        assertEquals("property status.interval: '2s' is not a whole number of seconds of at least 1 (YCSB's status"
                + " period; or give --interval, e.g. --interval 10s)",
                assertThrows(BadInputException.class, () -> YcsbClientProperties.translate(
                        props("status.interval", "2s"))).getMessage());
    }
}
