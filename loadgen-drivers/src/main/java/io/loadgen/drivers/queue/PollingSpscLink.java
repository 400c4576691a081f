package io.loadgen.drivers.queue;

import java.util.Queue;

/**
 * A link whose ends poll the queue ({@code offer}/{@code poll}) and {@link LinkWait#idle() idle}
 * between polls: {@code spin}, {@code yield} or {@code park}. One sending thread, one receiving
 * thread; neither ever blocks, so {@link #close} alone stops them.
 */
final class PollingSpscLink extends SpscLink {
    private final Queue<Message> queue;
    private final LinkWait wait;

    PollingSpscLink(Queue<Message> queue, LinkWait wait) {
        if (wait == LinkWait.BLOCK) {
            throw new IllegalArgumentException("a polling link cannot block");
        }
        this.queue = queue;
        this.wait = wait;
    }

    @Override
    boolean send(Message message) {
        final Queue<Message> q = queue;
        while (!q.offer(message)) {
            if (!isOpen()) {
                return false;
            }
            wait.idle();
        }
        return true;
    }

    @Override
    Message receive() {
        final Queue<Message> q = queue;
        Message m;
        while ((m = q.poll()) == null) {
            if (!isOpen()) {
                return null;
            }
            wait.idle();
        }
        return m;
    }
}
