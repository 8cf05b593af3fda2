package org.teraheap.hybrid;

import java.util.Arrays;
import java.util.Locale;

/**
 * How closely the emulated tier's waits ({@link EmulatedNvm#waitUntil}) hit their target, against
 * {@code Thread.sleep}: the paper's Table 2 check, on this machine. For each target it takes the
 * average of many waits, in rounds, and prints the median round as a Markdown table (ns).
 *
 * <pre>java -cp build/hybrid-spark.jar org.teraheap.hybrid.WaitAccuracy [rounds] [waits per round]</pre>
 */
public final class WaitAccuracy {
    /** The paper's targets: two below a millisecond, two above. */
    private static final long[] TARGETS = {800, 1_600, 2_000_000, 4_000_000};

    private WaitAccuracy() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int waits = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        System.out.println("| target (ns) | emulated tier's wait, average (ns) | Thread.sleep, average (ns) |");
        System.out.println("| --- | --- | --- |");
        for (long target : TARGETS) {
            long[] spun = new long[rounds];
            long[] slept = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                spun[r] = average(target, waits, false);
                slept[r] = average(target, waits, true);
            }
            System.out.printf(Locale.ROOT, "| %d | %d | %d |%n", target, median(spun), median(slept));
        }
    }

    private static long average(long target, int waits, boolean sleep) throws InterruptedException {
        long total = 0;
        for (int i = 0; i < waits; i++) {
            long start = System.nanoTime();
            if (sleep) {
                Thread.sleep(target / 1_000_000, (int) (target % 1_000_000));
            } else {
                EmulatedNvm.waitUntil(start + target);
            }
            total += System.nanoTime() - start;
        }
        return total / waits;
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
