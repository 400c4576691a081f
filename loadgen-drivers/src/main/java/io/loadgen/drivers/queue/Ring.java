package io.loadgen.drivers.queue;

import io.loadgen.core.driver.Status;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One worker's ring: {@code chain} links and {@code chain - 1} echo threads, and the burst of
 * messages that travels round it. {@link #roundTrip} is called only by the owning worker thread;
 * {@link #start} and {@link #close} by the thread that opens and closes the driver.
 *
 * <p>Link {@code 0} goes from the worker to echo thread 1, link {@code k} from echo thread {@code k}
 * to echo thread {@code k + 1}, and the last link from the last echo thread back to the worker. So
 * every link has one sender and one receiver, and with chain 2 the ring is ping-pong:
 * <pre><code>
 * worker --links[0]--&gt; echo1 --links[1]--&gt; worker
 * </code></pre>
 */
final class Ring {
    private static final Logger LOG = LogManager.getLogger(Ring.class);

    private final Message[] messages;
    private final SpscLink[] links;
    private final SpscLink toEcho;
    private final SpscLink fromEcho;
    private final Thread[] echoThreads;
    /** Single writer (the worker), published with a release store so {@link #messagesReturned} needs no join. */
    private final AtomicLong messagesReturned = new AtomicLong();
    /** Sequence number of the next message sent; worker thread only. */
    private long nextSequence;

    /**
     * Builds the ring's messages and (unstarted) echo threads over {@code links}, one per hop.
     *
     * @param workerIndex names the echo threads, {@code loadgen-queue-w<workerIndex>-echo<k>}
     */
    Ring(int workerIndex, SpscLink[] links, int burst) {
        if (links.length < 2 || burst < 1) {
            throw new IllegalArgumentException("a ring needs at least 2 links and 1 message");
        }
        this.links = links.clone();
        this.toEcho = links[0];
        this.fromEcho = links[links.length - 1];
        this.messages = new Message[burst];
        for (int i = 0; i < burst; i++) {
            messages[i] = new Message();
        }
        this.echoThreads = new Thread[links.length - 1];
        for (int k = 1; k < links.length; k++) {
            SpscLink in = links[k - 1];
            SpscLink out = links[k];
            Thread t = new Thread(() -> echo(in, out), "loadgen-queue-w" + workerIndex + "-echo" + k);
            t.setDaemon(true);
            echoThreads[k - 1] = t;
        }
    }

    /** Starts the echo threads. */
    void start() {
        for (Thread t : echoThreads) {
            t.start();
        }
    }

    /**
     * Sends the whole burst, then takes it back, checking each message is this ring's and in the
     * order sent. Worker thread only; allocates nothing.
     *
     * @return OK; UNEXPECTED_STATE when a message came back out of order or was not this ring's;
     *         ERROR when the ring was closed (an echo thread failed, or the driver is closing)
     */
    Status roundTrip() throws InterruptedException {
        final Message[] burst = messages;
        final SpscLink out = toEcho;
        final SpscLink in = fromEcho;
        final long first = nextSequence;
        for (int i = 0; i < burst.length; i++) {
            Message m = burst[i];
            m.sequence = first + i;
            if (!out.send(m)) {
                return Status.ERROR;
            }
        }
        boolean inOrder = true;
        for (int i = 0; i < burst.length; i++) {
            Message m = in.receive();
            if (m == null) {
                return Status.ERROR;
            }
            // Take the whole burst back even after a mismatch, so the next round trip starts clean.
            inOrder &= m == burst[i] && m.sequence == first + i;
        }
        nextSequence = first + burst.length;
        messagesReturned.setRelease(messagesReturned.getPlain() + burst.length);
        return inOrder ? Status.OK : Status.UNEXPECTED_STATE;
    }

    /** Messages that completed a round trip so far. Any thread. */
    long messagesReturned() {
        return messagesReturned.getAcquire();
    }

    /** Closes every link, so waiting ends give up, and interrupts the echo threads (for put/take). */
    void stop() {
        for (SpscLink link : links) {
            link.close();
        }
        for (Thread t : echoThreads) {
            t.interrupt();
        }
    }

    /**
     * Waits for the echo threads to end, until {@code deadlineNs} on the {@link System#nanoTime()} timeline.
     *
     * @return how many are still alive
     */
    int join(long deadlineNs) throws InterruptedException {
        int alive = 0;
        for (Thread t : echoThreads) {
            long leftNs = deadlineNs - System.nanoTime();
            if (leftNs > 0) {
                TimeUnit.NANOSECONDS.timedJoin(t, leftNs);
            }
            if (t.isAlive()) {
                alive++;
            }
        }
        return alive;
    }

    /**
     * An echo thread's loop: pass each message from {@code in} to {@code out} until either is closed.
     * A failure closes the ring's links, so the worker's round trip ends with ERROR instead of waiting.
     */
    private void echo(SpscLink in, SpscLink out) {
        try {
            Message m;
            while ((m = in.receive()) != null && out.send(m)) {
                // forwarded
            }
        } catch (InterruptedException e) {
            // closing
        } catch (RuntimeException | Error e) {
            LOG.error("echo thread {} failed; its ring is closed", Thread.currentThread().getName(), e);
            for (SpscLink link : links) {
                link.close();
            }
        }
    }
}
