package io.loadgen.core.run;

import io.loadgen.core.workload.OperationPlan;
import io.loadgen.core.workload.OperationSequence;

import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Plans of READs whose sequence runs a test's code after each completion, on the worker, between operations:
 * harness time, as choosing a key is. For tests that make the harness itself slow or stall. Any thread.
 */
final class HarnessTimePlans {
    private HarnessTimePlans() {
    }

    /** READs; after each completion, the thread's own hook (one made per thread by {@code hooks}) runs. */
    static OperationPlan afterEachCompletion(Supplier<Runnable> hooks) {
        OperationPlan fixed = OperationPlan.fixed("READ");
        return new OperationPlan() {
            @Override
            public List<String> operations() {
                return fixed.operations();
            }

            @Override
            public OperationSequence forThread(int threadIndex, int threads, SplittableRandom random) {
                OperationSequence inner = fixed.forThread(threadIndex, threads, random);
                Runnable hook = hooks.get();
                return new OperationSequence() {
                    @Override
                    public int nextType(long sequence) {
                        return inner.nextType(sequence);
                    }

                    @Override
                    public long nextKey(int type, long sequence) {
                        return inner.nextKey(type, sequence);
                    }

                    @Override
                    public void completed(int type, long logicalKey) {
                        hook.run();
                    }
                };
            }
        };
    }
}
