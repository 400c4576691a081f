package io.loadgen.core.summary;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * What YCSB's client prints besides its measurements, for the {@link YcsbTextSummary} lines users grep:
 * the JVM's garbage collections per collector, read as YCSB reads them (totals over the JVM's life, where
 * {@code [HARNESS], gc_count} counts the run's only), and how long the driver took to close
 * ({@code [CLEANUP]}). Immutable.
 *
 * @param collectors each garbage collector's totals, in the JVM's order
 * @param cleanupNs  the driver's close time in ns, or -1 when it was not measured
 */
public record YcsbClientStats(List<Collector> collectors, long cleanupNs) {
    /** No client lines: a summary of a log (report), where no JVM ran the load. */
    public static final YcsbClientStats NONE = new YcsbClientStats(List.of(), -1);

    /** One garbage collector's totals: its name as the JVM reports it, e.g. {@code G1 Young Generation}. */
    public record Collector(String name, long count, long timeMs) {
    }

    public YcsbClientStats {
        collectors = List.copyOf(collectors);
    }

    /** This JVM's collectors now, and the driver's close time measured by the run. */
    public static YcsbClientStats ofThisJvm(long cleanupNs) {
        List<Collector> list = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            list.add(new Collector(gc.getName(), Math.max(0, gc.getCollectionCount()),
                    Math.max(0, gc.getCollectionTime())));
        }
        return new YcsbClientStats(list, cleanupNs);
    }
}
