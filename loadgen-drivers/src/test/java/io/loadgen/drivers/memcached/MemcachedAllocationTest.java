package io.loadgen.drivers.memcached;

import io.loadgen.core.driver.AsyncDriver;
import io.loadgen.core.driver.Completion;
import io.loadgen.core.driver.Operation;
import io.loadgen.core.driver.Status;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Once warm, the driver allocates nothing of its own per operation on the connection's event loop: its pending
 * operations are pooled and its write buffer reused. READs, UPDATEs and READ-MODIFY-WRITEs are issued back to
 * back from the loop, as the run's issuer does, each from the previous one's completion, one in flight, so every
 * operation is one write and one read. What the loop thread still allocates (the JVM's per-thread counter, over
 * 20,000 operations after 20,000 of warm-up) is Netty's: its adaptive allocator makes a NIO view of its chunk
 * (a {@code DirectByteBuffer} slice, 64 bytes and its header) for each buffer it hands out, here one per read:
 * 86 bytes an operation measured. The bound, 128 bytes an operation, holds that with room, and fails for any
 * object of the driver's own per operation on top (a pending operation is 56 bytes, a request buffer another
 * 86, a CompletableFuture stage 40 or more): before the write buffer was reused, this measured 171.
 */
class MemcachedAllocationTest {
    private static final List<String> OPS = new MemcachedDriverProvider().operations();

    /** Issues {@code n} operations one after another on the loop: each completion issues the next. */
    private static final class Chain implements Completion {
        private final AsyncDriver driver;
        private final Operation op = new Operation(0);
        private final CompletableFuture<Long> done = new CompletableFuture<>();
        private final int[] types = {OPS.indexOf("READ"), OPS.indexOf("UPDATE"), OPS.indexOf("READ-MODIFY-WRITE")};
        private int left;
        private long notOk;
        private long startBytes;

        Chain(AsyncDriver driver, int n) {
            this.driver = driver;
            this.left = n;
        }

        void next() {
            int type = types[left % types.length];
            op.prepare(type, OPS.get(type), System.nanoTime(), left % 16);
            driver.submit(op, this);
        }

        @Override
        public void complete(Status status) {
            if (status != Status.OK) {
                notOk++;
            }
            if (--left > 0) {
                next();
            } else {
                done.complete(allocated() - startBytes);
            }
        }
    }

    private static long allocated() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    private static long run(AsyncDriver driver, int n) throws Exception {
        Chain chain = new Chain(driver, n);
        driver.issuerExecutor(0).execute(() -> {
            chain.startBytes = allocated();
            chain.next();
        });
        long bytes = chain.done.get(30, TimeUnit.SECONDS);
        assertEquals(0, chain.notOk, "every operation OK");
        return bytes;
    }

    @Test
    void anOperationAllocatesNothingOfTheDriversOwnOnceWarm() throws Exception {
        try (MemcachedServerProcess server = MemcachedServerProcess.start();
             AsyncDriver driver = MemcachedDriverTest.open(Map.of("memcached.uri", server.uri()))) {
            for (long k = 0; k < 16; k++) {
                assertEquals(Status.OK, MemcachedDriverTest.run(driver, "INSERT", k));
            }
            run(driver, 20_000); // warm-up: pools filled, code compiled
            long bytes = run(driver, 20_000);
            System.out.println("[memcached allocation] " + bytes + " bytes on the loop over 20,000 operations");
            assertTrue(bytes < 128L * 20_000, bytes + " bytes on the loop over 20,000 operations");
        }
    }
}
