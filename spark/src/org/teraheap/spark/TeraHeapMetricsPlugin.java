package org.teraheap.spark;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

/**
 * H2 in Spark's own metrics system: {@code --conf spark.plugins=org.teraheap.spark.TeraHeapMetricsPlugin}.
 *
 * <p>Each executor (and, in local mode, the driver that runs the tasks) registers gauges under
 * the plugin's namespace, {@code plugin.org.teraheap.spark.TeraHeapMetricsPlugin}, which every
 * configured sink reports (JMX, Prometheus servlet, CSV, console...): H2's capacity, the bytes
 * its regions hold, regions in use and freed, bytes moved so far, and the agent's budget (bytes of
 * cached blocks counted in H2, of those still waiting for their move, and of blocks handed back
 * to H1). On a JVM without TeraHeap on, nothing is registered.
 */
public final class TeraHeapMetricsPlugin implements SparkPlugin {
    /** Gauge names, under the plugin's namespace. */
    public static final List<String> GAUGES = Collections.unmodifiableList(Arrays.asList(
        "h2.capacityBytes", "h2.usedBytes", "h2.regionsInUse", "h2.regionsFreed", "h2.bytesMoved",
        "cache.h2Bytes", "cache.pendingBytes", "cache.handedBackBytes"));

    @Override
    public DriverPlugin driverPlugin() {
        return null;
    }

    @Override
    public ExecutorPlugin executorPlugin() {
        return new ExecutorPlugin() {
            @Override
            public void init(PluginContext context, Map<String, String> extraConf) {
                register(context.metricRegistry());
            }
        };
    }

    static void register(MetricRegistry registry) {
        if (!TeraHeap.isEnabled()) {
            return;
        }
        stat(registry, GAUGES.get(0), H2Stats::capacityBytes);
        stat(registry, GAUGES.get(1), H2Stats::usedBytes);
        stat(registry, GAUGES.get(2), H2Stats::regionsInUse);
        stat(registry, GAUGES.get(3), H2Stats::regionsFreed);
        stat(registry, GAUGES.get(4), H2Stats::bytesMoved);
        budget(registry, GAUGES.get(5), H2StorageBudget::usedBytes);
        budget(registry, GAUGES.get(6), H2StorageBudget::pendingBytes);
        budget(registry, GAUGES.get(7), H2StorageBudget::handedBackBytes);
    }

    private static void stat(MetricRegistry registry, String name, ToLongFunction<H2Stats> value) {
        registry.register(name, (Gauge<Long>) () -> value.applyAsLong(TeraHeap.stats()));
    }

    /** 0 while the agent is not active (not given, or Spark left alone). */
    private static void budget(MetricRegistry registry, String name, ToLongFunction<H2StorageBudget> value) {
        registry.register(name, (Gauge<Long>) () -> {
            H2StorageBudget budget = H2StorageBudget.get();
            return budget == null ? 0L : value.applyAsLong(budget);
        });
    }
}
