package org.teraheap.giraph;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.function.IntConsumer;

import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

import com.sun.management.GarbageCollectionNotificationInfo;

/**
 * How full H1 is: the old generation's use after the latest full collection, as a percent of its
 * maximum. The agent moves data to H2, and sweeps it from Giraph's stores, only when this says H1
 * cannot hold it.
 */
final class H1Pressure implements NotificationListener {
    private static final String MAJOR_GC = "end of major GC";

    private final IntConsumer afterFullGc;
    /** -1 until the first full collection. */
    private volatile int percent = -1;

    private H1Pressure(IntConsumer afterFullGc) {
        this.afterFullGc = afterFullGc;
    }

    /** Listens to this JVM's collectors; {@code afterFullGc} gets the percent after each full one. */
    static H1Pressure install(IntConsumer afterFullGc) {
        H1Pressure pressure = new H1Pressure(afterFullGc);
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter) {
                ((NotificationEmitter) gc).addNotificationListener(pressure, null, null);
            }
        }
        return pressure;
    }

    /** The old generation's fill after the latest full collection, in percent; -1 before the first. */
    int percent() {
        return percent;
    }

    @Override
    public void handleNotification(Notification notification, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(notification.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info =
            GarbageCollectionNotificationInfo.from((CompositeData) notification.getUserData());
        if (!MAJOR_GC.equals(info.getGcAction())) {
            return;
        }
        int after = oldGenPercent(info.getGcInfo().getMemoryUsageAfterGc());
        if (after >= 0) {
            percent = after;
            afterFullGc.accept(after);
        }
    }

    /** The old generation's use after the collection, as a percent of its maximum; -1 if unknown. */
    private static int oldGenPercent(Map<String, MemoryUsage> afterGc) {
        for (Map.Entry<String, MemoryUsage> pool : afterGc.entrySet()) {
            MemoryUsage usage = pool.getValue();
            if (pool.getKey().contains("Old Gen") && usage.getMax() > 0) {
                return (int) (100 * usage.getUsed() / usage.getMax());
            }
        }
        return -1;
    }
}
