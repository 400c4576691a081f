package io.loadgen.core.workload;

import io.loadgen.core.workload.generator.DiscreteChooser;

import java.util.List;
import java.util.SplittableRandom;

/**
 * What a run issues: which operation types (in report order) and, per thread, the sequence of
 * operations (type and key). Built once on the main thread; {@link #forThread} is called once per
 * run thread before the run starts, and the returned sequence is used by that thread only.
 */
public interface OperationPlan {

    /** The operation types this plan issues, named as in the driver's {@code operations()}, in report order. */
    List<String> operations();

    /**
     * The sequence for one run thread.
     *
     * @param random the thread's own generator, split from the run's seed
     */
    OperationSequence forThread(int threadIndex, int threads, SplittableRandom random);

    /** The records the plan's workload describes, passed to the driver; null when it describes none. */
    default io.loadgen.core.driver.DriverContext.RecordShape recordShape() {
        return null;
    }

    /**
     * The types drawn independently at random with the given relative weights (a driver's own mix, e.g. http's
     * requests); key numbers as {@link #fixed}.
     */
    static OperationPlan weighted(List<String> operations, double[] weights) {
        List<String> types = List.copyOf(operations);
        double[] w = weights.clone();
        return new OperationPlan() {
            @Override
            public List<String> operations() {
                return types;
            }

            @Override
            public OperationSequence forThread(int threadIndex, int threads, SplittableRandom random) {
                DiscreteChooser chooser = new DiscreteChooser(w, random);
                return new OperationSequence() {
                    @Override
                    public int nextType(long sequence) {
                        return chooser.next();
                    }

                    @Override
                    public long nextKey(int type, long sequence) {
                        return sequence * threads + threadIndex;
                    }
                };
            }
        };
    }

    /** Always the same operation type; key numbers 0, 1, 2, ... interleaved over threads ({@code n * threads + index}). */
    static OperationPlan fixed(String operation) {
        return new OperationPlan() {
            @Override
            public List<String> operations() {
                return List.of(operation);
            }

            @Override
            public OperationSequence forThread(int threadIndex, int threads, SplittableRandom random) {
                return new OperationSequence() {
                    @Override
                    public int nextType(long sequence) {
                        return 0;
                    }

                    @Override
                    public long nextKey(int type, long sequence) {
                        return sequence * threads + threadIndex;
                    }
                };
            }
        };
    }
}
