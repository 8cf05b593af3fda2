package org.teraheap.bench.giraph;

import java.io.IOException;
import java.util.Locale;

import org.apache.giraph.counters.GiraphTimers;
import org.apache.giraph.job.DefaultJobObserver;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.CounterGroup;
import org.apache.hadoop.mapreduce.Job;

/**
 * Picks up Giraph's own phase timers when the job ends, for one summary line on stderr. The
 * job's wall time includes a fixed shutdown of several seconds (Netty's event loops each wait
 * out a 2 s quiet period), which these timers show apart. Runs in the client, which is this JVM.
 */
public class TimersObserver extends DefaultJobObserver {
    private static volatile String summary;

    @Override
    public void jobFinished(Job job, boolean passed) {
        try {
            CounterGroup timers = job.getCounters().getGroup(GiraphTimers.GROUP_NAME);
            long input = 0;
            long supersteps = 0;
            long superstepMs = 0;
            for (Counter c : timers) {
                String name = c.getName();
                if (name.startsWith("Input superstep")) {
                    input += c.getValue();
                } else if (name.startsWith("Superstep ")) {
                    supersteps++;
                    superstepMs += c.getValue();
                }
            }
            summary = String.format(Locale.ROOT,
                    "setup_s=%.3f input_s=%.3f supersteps=%d superstep_s=%.3f shutdown_s=%.3f total_s=%.3f",
                    ms(timers, GiraphTimers.SETUP_MS_NAME), input / 1e3, supersteps, superstepMs / 1e3,
                    ms(timers, GiraphTimers.SHUTDOWN_MS_NAME), ms(timers, GiraphTimers.TOTAL_MS_NAME));
        } catch (IOException | RuntimeException e) {
            summary = null; // timers are a nicety; the job's outcome does not depend on them
        }
    }

    private static double ms(CounterGroup group, String name) {
        return group.findCounter(name).getValue() / 1e3;
    }

    /** The summary of the last job that ended, or null. */
    static String summary() {
        return summary;
    }
}
