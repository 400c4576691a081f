package io.loadgen.plot.html;

import io.loadgen.core.driver.Driver;
import io.loadgen.core.driver.DriverContext;
import io.loadgen.core.driver.DriverProperties;
import io.loadgen.core.driver.DriverProvider;
import io.loadgen.core.driver.PropertySpec;
import io.loadgen.core.driver.Status;
import io.loadgen.core.run.LoadRun;
import io.loadgen.core.run.RunOptions;
import io.loadgen.core.summary.RunResult;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A short real run through core's {@link LoadRun}, for the explorer's tests: a store whose operations
 * take 100 to 500 µs (by key), one in 13 of them failing with ERROR, and which stalls every operation
 * due from 1.0 s to 1.25 s after the first until 1.25 s, so that the log has a pause, queueing in
 * {@code READ.intended}, failures and status counts. Test thread; the driver runs on the workers.
 */
final class RecordedRun implements DriverProvider {
    static final long PAUSE_FROM_NS = TimeUnit.MILLISECONDS.toNanos(1000);
    static final long PAUSE_TO_NS = TimeUnit.MILLISECONDS.toNanos(1250);

    private volatile long firstIntendedNs = Long.MIN_VALUE;

    /** Runs 2 threads at 1000 ops/s for {@code duration}, logging every {@code interval} to {@code log}. */
    static RunResult record(Path log, Duration duration, Duration interval) throws Exception {
        RunOptions options = RunOptions.builder("stall").target(1000.0).threads(2).duration(duration)
                .interval(interval).hlog(log).seed(11).property("stall.note", "test").build();
        return new LoadRun(options, new RecordedRun(), null).run();
    }

    @Override
    public String name() {
        return "stall";
    }

    @Override
    public String description() {
        return "a store that takes 100-500 us, fails 1 in 13 and stalls once";
    }

    @Override
    public List<PropertySpec> properties() {
        return List.of(new PropertySpec("stall.note", "", "shown in the log's header"));
    }

    @Override
    public List<String> operations() {
        return List.of("READ");
    }

    @Override
    public Driver open(DriverProperties properties, DriverContext context) {
        return op -> {
            long intended = op.intendedStartNs();
            synchronized (this) {
                if (firstIntendedNs == Long.MIN_VALUE) {
                    firstIntendedNs = intended;
                }
            }
            long since = intended - firstIntendedNs;
            if (since >= PAUSE_FROM_NS && since < PAUSE_TO_NS) {
                long until = firstIntendedNs + PAUSE_TO_NS;
                long now;
                while ((now = System.nanoTime()) < until) {
                    LockSupport.parkNanos(until - now);
                }
            }
            LockSupport.parkNanos((op.keyNumber() % 5 + 1) * 100_000L);
            return op.keyNumber() % 13 == 0 ? Status.ERROR : Status.OK;
        };
    }
}
