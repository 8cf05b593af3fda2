import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.ObjectName;

import com.sun.management.HotSpotDiagnosticMXBean;

import org.teraheap.TeraHeap;

/**
 * DRAM that H2's metadata takes, from Native Memory Tracking's "GC" category: with H2 empty, then
 * with the given megabytes moved into H2 (groups of 1 MB arrays, 32 MB per label), then after they
 * are dropped and their regions freed. Prints one line per state.
 */
public class H2Metadata {
    static long gcCommittedKB() throws Exception {
        String summary = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()});
        Matcher m = Pattern.compile("- +GC \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)").matcher(summary);
        if (!m.find()) {
            throw new IllegalStateException("no GC line in NMT's summary: run with -XX:NativeMemoryTracking=summary");
        }
        return Long.parseLong(m.group(2));
    }

    public static void main(String[] args) throws Exception {
        int mb = Integer.parseInt(args[0]);
        System.gc();
        long empty = gcCommittedKB();
        List<long[][]> groups = new ArrayList<>();
        for (int g = 0; g < mb; g++) {
            long[][] group = new long[1][];
            group[0] = new long[(1 << 20) / 8 - 16];   // 32 groups, headers included, fill one region
            group[0][0] = g;
            TeraHeap.tagRoot(group, 1 + g / 32);
            TeraHeap.move(1 + g / 32);
            groups.add(group);
            if (g % 512 == 511) {
                System.gc();   // move as we go: H1 need not hold it all at once
            }
        }
        System.gc();
        System.gc();   // the moved groups' cards found clean: their pages go back to the kernel
        System.gc();
        long used = TeraHeap.stats().usedBytes();
        long regions = TeraHeap.stats().regionsInUse();
        long full = gcCommittedKB();
        for (int g = 0; g < groups.size(); g++) {
            if (groups.get(g)[0][0] != g) {
                throw new IllegalStateException("group " + g + " damaged");
            }
        }
        groups = null;
        System.gc();
        long freed = gcCommittedKB();
        long regionMB = Long.parseLong(ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption("TeraHeapRegionSize").getValue()) >> 20;
        System.out.printf("h2Capacity=%dG h2UsedMB=%d regionsInUse=%d gcCommittedKB empty=%d used=%d freed=%d"
                + " metadataPerGBInUseKB=%d%n",
                TeraHeap.stats().capacityBytes() >> 30, used >> 20, regions, empty, full, freed,
                regions == 0 ? 0 : (full - empty) * 1024 / (regions * regionMB));
    }
}
