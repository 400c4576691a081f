package io.loadgen.core.run;

import org.junit.jupiter.api.AfterEach;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AsyncRunTest}'s contract with the issuers on an executor of their own while every completion
 * arrives on another thread (the store's loop): each completion that frees a slot for a waiting issuer
 * wakes it through one task on the issuer's executor ({@link EventLoopIssuer}'s rare path).
 */
class CrossThreadEventLoopAsyncRunTest extends AsyncRunTest {
    private final ScheduledExecutorService issuers = Executors.newSingleThreadScheduledExecutor();

    @Override
    ScheduledExecutorService issuerExecutor() {
        return issuers;
    }

    @AfterEach
    void stopIssuers() throws InterruptedException {
        issuers.shutdownNow();
        assertTrue(issuers.awaitTermination(5, TimeUnit.SECONDS));
    }
}
