/**
 * Key and choice generators for YCSB-style workloads: the distributions YCSB's CoreWorkload draws
 * record keys and operations from, reimplemented to be deterministic for a seed and allocation-free.
 *
 * <h2>Threading</h2>
 * <ul>
 *   <li>{@link io.loadgen.core.workload.generator.NumberGenerator} implementations and
 *       {@link io.loadgen.core.workload.generator.DiscreteChooser} are <em>single-owner</em>: one
 *       worker thread builds and calls each instance, drawing from that worker's own
 *       {@link java.util.SplittableRandom} (split from the run's seed). Give every worker its own
 *       instances; never share one across threads.</li>
 *   <li>{@link io.loadgen.core.workload.generator.SequentialGenerator} instances are per worker too,
 *       but workers built on one shared {@link java.util.concurrent.atomic.AtomicLong} walk one
 *       sequence together.</li>
 *   <li>{@link io.loadgen.core.workload.generator.KeyCounter} is the one shared object: any thread
 *       may call it.</li>
 * </ul>
 *
 * <h2>Usage</h2>
 * <pre><code>
 * double zetan = ZipfianGenerator.zeta(recordCount, ZipfianGenerator.ZIPFIAN_CONSTANT); // once per run
 * SplittableRandom root = new SplittableRandom(seed);
 * for (int w = 0; w &lt; threads; w++) {
 *     SplittableRandom mine = root.split();
 *     NumberGenerator keys = new ZipfianGenerator(0, recordCount - 1, ZipfianGenerator.ZIPFIAN_CONSTANT, zetan, mine);
 *     DiscreteChooser ops = new DiscreteChooser(new double[] {0.95, 0.05}, mine);
 *     // hand keys and ops to worker w; it calls keys.next() and ops.next() on its own thread
 * }
 * </code></pre>
 *
 * <p>Nothing here reads properties: the workload parses {@code requestdistribution},
 * {@code hotspotdatafraction}, {@code exponential.percentile} and the rest once, then builds these.
 */
package io.loadgen.core.workload.generator;
