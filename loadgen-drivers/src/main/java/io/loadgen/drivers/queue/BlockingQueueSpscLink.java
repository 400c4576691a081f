package io.loadgen.drivers.queue;

import java.util.concurrent.BlockingQueue;

/**
 * A link over a {@link BlockingQueue} whose ends use its own {@code put} and {@code take}: the
 * {@code block} wait for {@code ArrayBlockingQueue}, {@code LinkedBlockingQueue} and
 * {@code LinkedTransferQueue}. One sending thread, one receiving thread. A thread blocked in
 * {@code put}/{@code take} leaves only when interrupted, so closing it takes {@link #close} plus an
 * interrupt.
 */
final class BlockingQueueSpscLink extends SpscLink {
    private final BlockingQueue<Message> queue;

    BlockingQueueSpscLink(BlockingQueue<Message> queue) {
        this.queue = queue;
    }

    @Override
    boolean send(Message message) throws InterruptedException {
        if (!isOpen()) {
            return false;
        }
        queue.put(message);
        return true;
    }

    @Override
    Message receive() throws InterruptedException {
        return isOpen() ? queue.take() : queue.poll();
    }
}
