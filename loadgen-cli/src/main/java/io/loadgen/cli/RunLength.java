package io.loadgen.cli;

import io.loadgen.core.run.RunOptions;
import io.loadgen.core.workload.WorkloadOptions;

import java.time.Duration;

/**
 * What bounds a run: an operation count, a duration, both (the run ends at whichever comes first),
 * or neither (then {@link RunOptions} applies its default). Immutable; built on the main thread.
 *
 * <p>Each bound is taken from the command line when given there, else from the workload's YCSB
 * property ({@code operationcount}, {@code maxexecutiontime}; 0 means no limit, as in YCSB). A
 * command-line value replaces only the same bound from a file, never the other one:
 * <pre><code>
 * -P workloadc -p operationcount=3000 --duration 5s   // 3000 operations or 5 s, whichever first
 * -P workloadc --operations 500                       // 500 operations (and the file's maxexecutiontime, if any)
 * </code></pre>
 *
 * @param operations the count bound, or null for none
 * @param duration   the time bound, or null for none
 */
record RunLength(Long operations, Duration duration) {

    /** The bounds of {@code run} and of each {@code sweep} step. */
    static RunLength of(Long operations, Duration duration, WorkloadOptions workload) {
        return new RunLength(operations != null ? operations : fileCount(workload),
                duration != null ? duration : fileDuration(workload));
    }

    /** The bounds of {@code load}: the workload's {@code insertcount}, and its {@code maxexecutiontime}. */
    static RunLength ofLoad(WorkloadOptions workload) {
        return new RunLength(workload.insertCount(), fileDuration(workload));
    }

    /** Sets both bounds on {@code b} (a null bound stays unset). */
    RunOptions.Builder applyTo(RunOptions.Builder b) {
        return b.operations(operations).duration(duration);
    }

    private static Long fileCount(WorkloadOptions workload) {
        return workload == null || workload.operationCount() == 0 ? null : workload.operationCount();
    }

    private static Duration fileDuration(WorkloadOptions workload) {
        return workload == null ? null : workload.maxExecutionTime().filter(d -> !d.isZero()).orElse(null);
    }
}
