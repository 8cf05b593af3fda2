package org.teraheap.hybrid;

import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import com.codahale.metrics.Gauge;
import org.apache.spark.api.plugin.DriverPlugin;
import org.apache.spark.api.plugin.ExecutorPlugin;
import org.apache.spark.api.plugin.PluginContext;
import org.apache.spark.api.plugin.SparkPlugin;

/**
 * The hybrid cache's tiers in Spark's own metrics system:
 * {@code --conf spark.plugins=org.teraheap.hybrid.HybridMetricsPlugin}.
 *
 * <p>Each executor (and, in local mode, the driver that runs the tasks) registers gauges under
 * {@code plugin.org.teraheap.hybrid.HybridMetricsPlugin}, which every configured sink reports
 * (JMX, Prometheus servlet, CSV, console...): the bytes of cached blocks in DRAM and in NVM, the
 * blocks placed in each as they unrolled, the migrations made synchronously and asynchronously,
 * and, with the file tier, the file's capacity and use. Without the agent they read 0.
 */
public final class HybridMetricsPlugin implements SparkPlugin {
    /** Gauge names (under the plugin's namespace), each one of {@link HybridStore#figures()}. */
    public static final List<String> GAUGES = Collections.unmodifiableList(Arrays.asList(
        "dram_bytes", "nvm_bytes", "dram_share_bytes", "blocks", "placed_dram_blocks", "placed_nvm_blocks",
        "sync_blocks", "async_blocks", "file_capacity_bytes", "file_used_bytes", "file_blocks", "file_reads"));

    @Override
    public DriverPlugin driverPlugin() {
        return null;
    }

    @Override
    public ExecutorPlugin executorPlugin() {
        return new ExecutorPlugin() {
            @Override
            public void init(PluginContext context, Map<String, String> extraConf) {
                for (String name : GAUGES) {
                    context.metricRegistry().register(name, (Gauge<Long>) () -> HybridStore.figures().getOrDefault(name, 0L));
                }
            }
        };
    }
}
