package io.loadgen.core.workload;

import io.loadgen.core.driver.Operation;
import io.loadgen.core.workload.generator.DiscreteChooser;
import io.loadgen.core.workload.generator.Fnv;
import io.loadgen.core.workload.generator.ScrambledZipfianGenerator;
import io.loadgen.core.workload.generator.ZipfianGenerator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * What a YCSB workload's choice of operation and key costs per operation, on one thread:
 * <ul>
 *   <li>{@code workloadaDraws}: everything the run loop asks of workloada's sequence for one operation
 *       (type, key, the driver's hashed key, the field, completion);</li>
 *   <li>the parts: {@code chooseType} (the 50/50 mix), {@code zipfianRank} (Gray's draw over YCSB's 10^10
 *       ranks), {@code fnvHash} (YCSB's key hash of a small key), {@code scrambledZipfianKey} (rank, hash,
 *       fold onto the 1000 keys).</li>
 * </ul>
 * Run: {@code java -jar bench/target/benchmarks.jar WorkloadDraw}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class WorkloadDrawBenchmark {
    private OperationSequence workloada;
    private Operation op;
    private DiscreteChooser chooser;
    private ZipfianGenerator ranks;
    private ScrambledZipfianGenerator scrambled;
    private long n;

    @Setup
    public void setUp() {
        CoreWorkloadPlan plan = CoreWorkloadPlan.run(CoreWorkloadPlan.Config.of(WorkloadOptions.from(Map.of(
                "recordcount", "1000", "operationcount", "1000", "readallfields", "true", "readproportion", "0.5",
                "updateproportion", "0.5", "scanproportion", "0", "insertproportion", "0",
                "requestdistribution", "zipfian"))));
        workloada = plan.forThread(0, 1, new SplittableRandom(42));
        op = new Operation(0);
        chooser = new DiscreteChooser(new double[] {0.5, 0.5}, new SplittableRandom(43));
        ranks = new ZipfianGenerator(0, ScrambledZipfianGenerator.ITEM_COUNT, ScrambledZipfianGenerator.USED_ZIPFIAN_CONSTANT,
                ScrambledZipfianGenerator.ZETAN, new SplittableRandom(44));
        scrambled = new ScrambledZipfianGenerator(0, 999, new SplittableRandom(45));
    }

    @Benchmark
    public long workloadaDraws() {
        long i = n++;
        int type = workloada.nextType(i);
        long key = workloada.nextKey(type, i);
        op.prepare(type, "READ", i, workloada.driverKey(key));
        workloada.detail(type, op);
        workloada.completed(type, key);
        return op.keyNumber() + op.fieldIndex();
    }

    @Benchmark
    public int chooseType() {
        return chooser.next();
    }

    @Benchmark
    public long zipfianRank() {
        return ranks.next();
    }

    @Benchmark
    public long fnvHash() {
        return Fnv.hash64(n++ & 1023);
    }

    @Benchmark
    public long scrambledZipfianKey() {
        return scrambled.next();
    }
}
