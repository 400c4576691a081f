package io.loadgen.core.run;

import java.util.concurrent.ScheduledExecutorService;

/**
 * {@link AsyncRunTest}'s contract with every issuer running on the driver's own single-threaded loop
 * ({@link EventLoopIssuer}): the same counts, views and bounds as issuers with threads of their own.
 */
class EventLoopAsyncRunTest extends AsyncRunTest {
    @Override
    ScheduledExecutorService issuerExecutor() {
        return loop;
    }
}
