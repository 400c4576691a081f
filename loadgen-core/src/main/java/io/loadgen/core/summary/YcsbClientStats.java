package io.loadgen.core.summary;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * What YCSB's client prints besides its measurements, for the {@link YcsbTextSummary} lines users grep:
 * the JVM's garbage collections per collector during the run (from its start, after the driver's warm-up, to
 * the report, as {@code [HARNESS], gc_count} counts them), and how long the driver took to close
 * ({@code [CLEANUP]}). YCSB counts over the JVM's life, so its {@code TOTAL_GC_TIME_%} of a short run counted
 * the start-up's collections against the run's time and passed 100 %. Immutable.
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

    /** This JVM's collectors' totals over its life so far, in the JVM's order. */
    public static List<Collector> collectorsNow() {
        List<Collector> list = new ArrayList<>();
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            list.add(new Collector(gc.getName(), Math.max(0, gc.getCollectionCount()),
                    Math.max(0, gc.getCollectionTime())));
        }
        return list;
    }

    /**
     * The collections since {@code start} ({@link #collectorsNow()} when the run started), each collector's count
     * and time less its count and time then, and the driver's close time measured by the run.
     */
    public static YcsbClientStats since(List<Collector> start, long cleanupNs) {
        List<Collector> list = new ArrayList<>();
        for (Collector now : collectorsNow()) {
            Collector then = start.stream().filter(c -> c.name().equals(now.name())).findFirst()
                    .orElse(new Collector(now.name(), 0, 0));
            list.add(new Collector(now.name(), Math.max(0, now.count() - then.count()),
                    Math.max(0, now.timeMs() - then.timeMs())));
        }
        return new YcsbClientStats(list, cleanupNs);
    }
}
