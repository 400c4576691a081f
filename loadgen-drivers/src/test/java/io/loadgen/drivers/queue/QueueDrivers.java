package io.loadgen.drivers.queue;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Test helpers: open the driver from property pairs, and run round trips as one worker. */
final class QueueDrivers {
    private QueueDrivers() {
    }

    /** Opens {@code queue} for {@code threads} workers with {@code keyValues} = key, value, key, value... */
    static Driver open(int threads, String... keyValues) {
        Map<String, String> given = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            given.put(keyValues[i], keyValues[i + 1]);
        }
        QueueDriverProvider provider = new QueueDriverProvider();
        return provider.open(DriverProperties.of("queue", provider.properties(), given), new DriverContext(threads, 1L));
    }

    /** Runs {@code count} round trips as worker {@code workerIndex}; returns how many were not OK (stops at the first). */
    static int roundTrips(Driver driver, int workerIndex, int count) throws Exception {
        Operation op = new Operation(workerIndex);
        for (int i = 0; i < count; i++) {
            op.prepare(0, "ROUNDTRIP", System.nanoTime(), 0);
            Status s = driver.execute(op);
            if (s != Status.OK) {
                return count - i;
            }
        }
        return 0;
    }

    /** Names of the live threads this driver starts ({@code loadgen-queue-*}), sorted. */
    static Set<String> queueThreadNames() {
        Set<String> names = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("loadgen-queue-")) {
                names.add(t.getName());
            }
        }
        return names;
    }
}
