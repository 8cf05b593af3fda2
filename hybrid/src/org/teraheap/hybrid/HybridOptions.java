package org.teraheap.hybrid;

import java.io.File;
import java.util.Locale;

/**
 * The agent's options, {@code key=value} pairs separated by commas after
 * {@code -javaagent:hybrid-spark.jar=}, with the paper's defaults. A bad one stops the JVM with
 * one line naming it and what it accepts.
 */
final class HybridOptions {
    /** How the two tiers are organized (the paper's §3-4). */
    enum Mode {
        /** One store over both tiers: dynamic unrolling and asynchronous migration. */
        FLAT,
        /** NVM below DRAM, reached only by synchronous migration when DRAM is short. */
        LAYERED,
        /** Layered, with the asynchronous migration of the flat store added (the paper's Fig. 10). */
        LAYERED_AMP;

        String optionName() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    Mode mode = Mode.FLAT;
    /** DRAM's share of Spark's storage pool; NVM is the rest. */
    double dram = 0.125;
    /** The emulated NVM's write bandwidth, as a fraction of DRAM's. */
    double bandwidth = 0.125;
    /** DRAM use (of its share) from which the monitor starts migrations. */
    double threshold = 0.6;
    /** The monitor's period. */
    long periodNanos = 5_000_000L;
    /** Dynamic unrolling: a block DRAM is short for unrolls into NVM. */
    boolean dynamicUnroll = true;
    /** Opportunistic eviction's window multiplier; 0: off. */
    int oe = 0;
    /** The file tier's directory; null: the emulated tier. */
    String nvmDirectory;
    /** The file tier's size; 0: twice the heap. */
    long nvmSize;
    /** Threads migrating at once, and the largest batch multiplier: the cores tasks run on. */
    int waveWidth = Runtime.getRuntime().availableProcessors();

    private boolean unrollGiven;
    private String emulatedOnly;
    private String nvmSizeGiven;

    static HybridOptions parse(String text) {
        HybridOptions o = new HybridOptions();
        if (text != null && !text.trim().isEmpty()) {
            for (String option : text.split(",")) {
                o.set(option.trim());
            }
        }
        if (!o.unrollGiven) {
            o.dynamicUnroll = o.mode == Mode.FLAT;
        }
        if (o.nvmDirectory == null && o.nvmSizeGiven != null) {
            throw bad(o.nvmSizeGiven, "nvm=<directory>,nvmSize=<size>: nvmSize needs the file tier's directory");
        }
        if (o.nvmDirectory != null && o.emulatedOnly != null) {
            throw bad(o.emulatedOnly, "it with the emulated tier only (no nvm=): in the file tier DRAM is all of "
                + "Spark's storage pool and the device sets the bandwidth");
        }
        if (o.nvmDirectory != null && o.nvmSize == 0) {
            o.nvmSize = 2 * Runtime.getRuntime().maxMemory();
        }
        return o;
    }

    private void set(String option) {
        String[] kv = option.split("=", 2);
        String key = kv[0];
        String value = kv.length == 2 ? kv[1].trim() : "";
        switch (key) {
            case "mode":
                mode = null;
                for (Mode m : Mode.values()) {
                    if (m.optionName().equals(value)) {
                        mode = m;
                    }
                }
                require(mode != null, option, "mode=flat, mode=layered or mode=layered-amp");
                break;
            case "dram":
                dram = fraction(option, value, "dram=<DRAM's share of the storage pool, above 0 and below 1>");
                require(dram < 1, option, "dram=<DRAM's share of the storage pool, above 0 and below 1>");
                emulatedOnly = option;
                break;
            case "bandwidth":
                bandwidth = fraction(option, value, "bandwidth=<NVM's write bandwidth as a fraction of DRAM's, above 0, at most 1>");
                emulatedOnly = option;
                break;
            case "nvm":
                File directory = new File(value);
                require(!value.isEmpty() && directory.isDirectory() && directory.canWrite(), option,
                    "nvm=<a writable directory on the device for the NVM tier>");
                nvmDirectory = value;
                break;
            case "nvmSize":
                nvmSize = bytes(option, value, "nvmSize=<the file tier's size, 1m to 1024t, e.g. 2g>");
                require(nvmSize >= 1L << 20 && nvmSize <= 1L << 50, option, "nvmSize=<the file tier's size, 1m to 1024t, e.g. 2g>");
                nvmSizeGiven = option;
                break;
            case "threshold":
                threshold = fraction(option, value, "threshold=<DRAM use that starts migrations, above 0, at most 1>");
                break;
            case "period":
                periodNanos = millis(option, value) * 1_000_000L;
                break;
            case "unroll":
                require(value.equals("dynamic") || value.equals("dram"), option, "unroll=dynamic or unroll=dram");
                dynamicUnroll = value.equals("dynamic");
                unrollGiven = true;
                break;
            case "oe":
                if (!value.equals("off")) {
                    oe = (int) whole(option, value, "oe=off or oe=<window multiplier, 1 to 64>");
                    require(oe <= 64, option, "oe=off or oe=<window multiplier, 1 to 64>");
                }
                break;
            case "cores":
                waveWidth = (int) whole(option, value, "cores=<the cores tasks run on, at least 1>");
                break;
            default:
                throw new IllegalArgumentException("hybrid-spark: unknown agent option '" + option + "'; the options are "
                    + "mode, dram, bandwidth, nvm, nvmSize, threshold, period, unroll, oe and cores (docs/hybrid.md)");
        }
    }

    private static double fraction(String option, String value, String usage) {
        try {
            double d = Double.parseDouble(value);
            require(d > 0 && d <= 1, option, usage);
            return d;
        } catch (NumberFormatException e) {
            throw bad(option, usage);
        }
    }

    private static long whole(String option, String value, String usage) {
        try {
            long n = Long.parseLong(value);
            require(n >= 1, option, usage);
            return n;
        } catch (NumberFormatException e) {
            throw bad(option, usage);
        }
    }

    private static long bytes(String option, String value, String usage) {
        String v = value.toLowerCase(Locale.ROOT);
        int shift = v.endsWith("k") ? 10 : v.endsWith("m") ? 20 : v.endsWith("g") ? 30 : v.endsWith("t") ? 40 : 0;
        long n = whole(option, shift == 0 ? v : v.substring(0, v.length() - 1), usage);
        require(n <= Long.MAX_VALUE >> shift, option, usage);
        return n << shift;
    }

    private static long millis(String option, String value) {
        String usage = "period=<milliseconds, at least 1, e.g. 5ms>";
        return whole(option, value.endsWith("ms") ? value.substring(0, value.length() - 2) : value, usage);
    }

    private static void require(boolean ok, String option, String usage) {
        if (!ok) {
            throw bad(option, usage);
        }
    }

    private static IllegalArgumentException bad(String option, String usage) {
        return new IllegalArgumentException("hybrid-spark: bad agent option '" + option + "'; use " + usage);
    }

    @Override
    public String toString() {
        String ahead = mode == Mode.LAYERED ? "no migrations ahead of need"
            : String.format(Locale.ROOT, "migrations from %.0f%% of DRAM every %d ms on up to %d threads",
                            threshold * 100, periodNanos / 1_000_000L, waveWidth);
        String tiers = nvmDirectory != null ? "DRAM all of the storage pool"
            : String.format(Locale.ROOT, "DRAM %.3f of the storage pool, NVM bandwidth %.3f of DRAM's", dram, bandwidth);
        return String.format(Locale.ROOT, "%s, %s, %s unrolling, %s, %s",
            mode.optionName(), tiers, dynamicUnroll ? "dynamic" : "DRAM-only", ahead,
            oe == 0 ? "no opportunistic eviction" : "opportunistic eviction with a window of " + oe + " evictions");
    }
}
