package io.loadgen.core.run;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.loadgen.core.driver.RunEvents;

import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The harness's own GC pauses, as run events of kind {@code gc} from source {@code harness}: each
 * collection the JVM reports (JMX garbage-collection notifications, delivered on a JMX thread, never a
 * worker's) is recorded with its start and length. Collectors that report concurrent cycles rather
 * than pauses (ZGC's and Shenandoah's "Cycles", G1's "Concurrent GC") are left out: their length is not
 * time the workers stood still. Opened by the run on its own thread before t0, closed after the end.
 */
final class GcPauseEvents implements AutoCloseable {
    static final String KIND = "gc";
    static final String SOURCE = "harness";

    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final NotificationListener listener;

    private GcPauseEvents(RunEvents events) {
        int kind = events.kind(KIND, SOURCE);
        long jvmStartMs = ManagementFactory.getRuntimeMXBean().getStartTime();
        this.listener = (Notification n, Object handback) -> {
            if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
                return;
            }
            GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
            if (isPause(info.getGcName())) {
                events.record(kind, jvmStartMs + info.getGcInfo().getStartTime(),
                        TimeUnit.MILLISECONDS.toNanos(info.getGcInfo().getDuration()));
            }
        };
    }

    /** Listens to every collector that can tell; on a JVM without the notifications, records nothing. */
    static GcPauseEvents listen(RunEvents events) {
        GcPauseEvents gc = new GcPauseEvents(events);
        for (GarbageCollectorMXBean bean : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (bean instanceof NotificationEmitter emitter) {
                emitter.addNotificationListener(gc.listener, null, null);
                gc.emitters.add(emitter);
            }
        }
        return gc;
    }

    /** False for collectors whose notifications are concurrent cycles, not pauses. */
    static boolean isPause(String gcName) {
        String name = gcName.toLowerCase(Locale.ROOT);
        return !name.contains("cycles") && !name.contains("concurrent");
    }

    @Override
    public void close() {
        for (NotificationEmitter emitter : emitters) {
            try {
                emitter.removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // already gone
            }
        }
    }
}
