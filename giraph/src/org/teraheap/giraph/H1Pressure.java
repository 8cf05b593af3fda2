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
 * How full H1 is: the old generation's use after the latest collection that measures it, as a
 * percent of its maximum. Under Parallel that is a full collection, which leaves only live data.
 * G1 seldom runs one: its young and mixed pauses measure too. What they leave in the old
 * generation may include data that died since G1's last marking; G1 starts marking once the old
 * generation passes its initiating threshold (45% at first, then adapted to the program's
 * allocation) and its mixed pauses collect what marking found dead, so a high value after a
 * pause mostly says H1 holds data it cannot shed (at worst, data moves a little early). The
 * agent moves data to H2, and sweeps it from Giraph's stores, only when this says H1 cannot
 * hold it.
 */
final class H1Pressure implements NotificationListener {
    private static final String MAJOR_GC = "end of major GC";
    /** G1's young and mixed pauses (its full collections are "end of major GC"). */
    private static final String G1_PAUSES = "G1 Young Generation";

    private final IntConsumer afterMeasuringGc;
    /** -1 until the first collection that measures H1. */
    private volatile int percent = -1;

    private H1Pressure(IntConsumer afterMeasuringGc) {
        this.afterMeasuringGc = afterMeasuringGc;
    }

    /** Listens to this JVM's collectors; {@code afterMeasuringGc} gets the percent after each measuring one. */
    static H1Pressure install(IntConsumer afterMeasuringGc) {
        H1Pressure pressure = new H1Pressure(afterMeasuringGc);
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof NotificationEmitter) {
                ((NotificationEmitter) gc).addNotificationListener(pressure, null, null);
            }
        }
        return pressure;
    }

    /** True if G1 collects this JVM: its pauses measure H1 too. */
    static boolean onG1() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
            .anyMatch(gc -> G1_PAUSES.equals(gc.getName()));
    }

    /** The old generation's fill after the latest measuring collection, in percent; -1 before one. */
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
        if (!MAJOR_GC.equals(info.getGcAction()) && !G1_PAUSES.equals(info.getGcName())) {
            return;
        }
        int after = oldGenPercent(info.getGcInfo().getMemoryUsageAfterGc());
        if (after >= 0) {
            percent = after;
            afterMeasuringGc.accept(after);
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
