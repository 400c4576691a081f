package io.loadgen.cli;

import org.apache.logging.log4j.message.Message;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class RedactingMessageFactoryTest {
    private final RedactingMessageFactory factory = new RedactingMessageFactory();

    @Test
    void everyLogMessageIsFormattedWithItsSecretsMasked() {
        assertEquals("cannot reach redis://:***@db:6379 (refused)",
                factory.newMessage("cannot reach {} ({})", "redis://:hunter2@db:6379", "refused").getFormattedMessage());
        assertEquals("redis.password=*** redis.timeout=1s",
                factory.newMessage("redis.password=hunter2 redis.timeout=1s").getFormattedMessage());
        RuntimeException e = new RuntimeException("boom");
        Message m = factory.newMessage("failed: {}", "x", e);
        assertEquals("failed: x", m.getFormattedMessage());
        assertSame(e, m.getThrowable(), "the exception still reaches the layout");
    }
}
