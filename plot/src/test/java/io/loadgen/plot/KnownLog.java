package io.loadgen.plot;

import io.loadgen.core.record.IntervalLog;
import io.loadgen.core.record.StatusTags;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * An interval log written by core's {@link IntervalLog}, with distributions known exactly. Test thread only.
 *
 * <p>Ten 1 s intervals from {@link #START_MS}. In interval k (0-based), READ.service records 1000 values
 * 1, 2, ... 1000 µs (+ k µs) and READ.intended the same plus a stall's queue: in interval 4 (the stall)
 * intended records 100 extra values 10, 20, ... 1000 ms. READ.status counts 1000 OK per interval (1100 in
 * interval 4). Events: a stop-the-world at 4.2 s for 150 ms, a harness GC at 7.5 s for 3 ms, and a GC
 * at -0.5 s (before the first interval, the harness starting up).
 */
final class KnownLog {
    static final long START_MS = 1_795_000_000_000L;
    static final int INTERVALS = 10;
    static final int STALL = 4;
    static final long US = 1_000L;
    static final long MS = 1_000_000L;

    private KnownLog() {
    }

    static Path write(Path file) throws IOException {
        try (IntervalLog log = IntervalLog.open(file)) {
            log.writeHeader(START_MS, List.of("run: driver=test target=1000ops/s threads=1 in_flight_per_thread=1"));
            log.writeEvent("gc", "harness", START_MS - 500, 2 * MS);
            for (int k = 0; k < INTERVALS; k++) {
                if (k == STALL) {
                    log.writeEvent("stop-the-world", "stw-mockdb", START_MS + 4_200, 150 * MS);
                }
                if (k == 7) {
                    log.writeEvent("gc", "harness", START_MS + 7_500, 3 * MS);
                }
                log.write(stamp(intended(k), "READ.intended", k));
                log.write(stamp(service(k), "READ.service", k));
                Histogram status = StatusTags.newHistogram();
                status.recordValueWithCount(0, intended(k).getTotalCount());
                log.write(stamp(status, "READ.status", k));
            }
        }
        return file;
    }

    static Histogram service(int k) {
        Histogram h = new Histogram(3_600_000_000_000L, 3);
        for (long v = 1; v <= 1000; v++) {
            h.recordValue((v + k) * US);
        }
        return h;
    }

    static Histogram intended(int k) {
        Histogram h = service(k);
        if (k == STALL) {
            for (long v = 1; v <= 100; v++) {
                h.recordValue(v * 10 * MS);
            }
        }
        return h;
    }

    private static Histogram stamp(Histogram h, String tag, int k) {
        h.setTag(tag);
        h.setStartTimeStamp(START_MS + k * 1000L);
        h.setEndTimeStamp(START_MS + (k + 1) * 1000L);
        return h;
    }
}
