/*
 * @test
 * @summary H2's DRAM metadata (cards, object starts) is committed for the regions in use only and
 *          given back when they free, so a large H2 costs nothing until it is used; of the cards,
 *          DRAM holds only pages written since the collectors last found them clean, and young
 *          objects stored through pages given back are found by minor GCs; with
 *          -XX:-TeraHeapPreallocate H2's file is sparse, takes storage a region at a time, and a
 *          file system that fills is reported while the program goes on with its data in H1;
 *          regions freed between regions in use do not split the tables' mappings; a move of many
 *          small objects that each refer to one H1 object lists a card, not an object, for each
 *          reference its collection dirties after the move, and all of them follow that object.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapMetadata
 */

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.management.ObjectName;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.TeraHeap;

public class TestTeraHeapMetadata {
    static void check(boolean ok, String what) {
        TeraHeapProcess.check(ok, what);
    }

    /** Native Memory Tracking's committed kilobytes for the GC, which H2's tables are counted under. */
    static long gcCommittedKB() throws Exception {
        String summary = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()});
        Matcher m = Pattern.compile("- +GC \\(reserved=(\\d+)KB, committed=(\\d+)KB\\)").matcher(summary);
        check(m.find(), "NMT summary has a GC line:\n" + summary);
        return Long.parseLong(m.group(2));
    }

    /**
     * {@code mb} megabytes of int arrays in groups of just under 4 MB; eight groups share a label,
     * and so fill one 32 MB region.
     */
    static List<int[][]> makeGroups(int mb, int firstLabel) {
        List<int[][]> groups = new ArrayList<>();
        for (int g = 0; g < mb / 4; g++) {
            int[][] group = new int[64][];
            for (int i = 0; i < group.length; i++) {
                group[i] = new int[(64 << 10) / 4 - 8];
                group[i][0] = g;
                group[i][group[i].length - 1] = i;
            }
            TeraHeap.tagRoot(group, firstLabel + g / 8);
            TeraHeap.move(firstLabel + g / 8);
            groups.add(group);
        }
        return groups;
    }

    static void checkGroups(List<int[][]> groups) {
        for (int g = 0; g < groups.size(); g++) {
            int[][] group = groups.get(g);
            for (int i = 0; i < group.length; i++) {
                check(group[i][0] == g && group[i][group[i].length - 1] == i, "group " + g + " array " + i + " intact");
            }
        }
    }

    /** Child: prints NMT's GC figure at start, after a move of the given megabytes, and after they free. */
    public static class Usage {
        public static void main(String[] args) throws Exception {
            int mb = Integer.parseInt(args[0]);
            System.gc();
            System.out.println("GC-COMMITTED start " + gcCommittedKB());
            List<int[][]> groups = makeGroups(mb, 1);
            System.gc();
            check(TeraHeap.isInH2(groups.get(0)) && TeraHeap.stats().usedBytes() >= mb * 1_000_000L, "groups moved");
            checkGroups(groups);
            System.out.println("REGIONS " + TeraHeap.stats().regionsInUse());
            System.out.println("GC-COMMITTED moved " + gcCommittedKB());
            System.gc();   // the moved groups' cards settle: all clean, their pages given back
            System.out.println("PHASE quiet");
            System.gc();
            // Young arrays stored into H2 arrays whose pages of cards were given back: the
            // barrier's store brings a page back, and the minor GCs must find every one.
            for (int g = 0; g < groups.size(); g++) {
                groups.get(g)[1] = new int[] {g, -g};
            }
            for (int round = 0; round < 3; round++) {
                TeraHeapProcess.churn(64);
                for (int g = 0; g < groups.size(); g++) {
                    int[] young = groups.get(g)[1];
                    check(young.length == 2 && young[0] == g && young[1] == -g, "group " + g + "'s young array kept");
                }
            }
            System.out.println("PHASE stored");
            System.gc();
            System.gc();   // compaction moves the stored arrays: H2's references follow them
            for (int g = 0; g < groups.size(); g++) {
                int[] stored = groups.get(g)[1];
                check(stored[0] == g && stored[1] == -g, "group " + g + "'s stored array kept by full GCs");
            }
            long freed = TeraHeap.stats().regionsFreed();
            groups = null;
            System.gc();
            check(TeraHeap.stats().regionsInUse() == 0 && TeraHeap.stats().regionsFreed() > freed, "regions freed");
            System.out.println("GC-COMMITTED freed " + gcCommittedKB());
            System.out.println("USAGE-OK");
        }
    }

    /**
     * Child: an Object[] of exactly two 1 MB regions, its first element left in H1 (a Class) and
     * the rest null, so that its last cards are clean and end where the next, unused, region's
     * page of cards begins: card scans must stop there (that page reads as all dirty).
     */
    public static class ExactRegions {
        public static void main(String[] args) throws Exception {
            int length = ((2 << 20) - sun.misc.Unsafe.ARRAY_OBJECT_BASE_OFFSET) / sun.misc.Unsafe.ARRAY_OBJECT_INDEX_SCALE;
            Object[] big = new Object[length];
            big[0] = String.class;
            TeraHeap.tagRoot(big, 1);
            TeraHeap.move(1);
            System.gc();
            check(TeraHeap.isInH2(big) && TeraHeap.stats().regionsInUse() == 2, "the array moved, alone, in two regions");
            for (int i = 0; i < 4; i++) {
                TeraHeapProcess.churn(16);
                System.gc();
            }
            check(big[0] == String.class && big[length - 1] == null, "the array intact");
            System.out.println("EXACT-OK");
        }
    }

    static int mappings() throws Exception {
        return Files.readAllLines(Paths.get("/proc/self/maps")).size();
    }

    /**
     * Child: 200 regions of 4 MB in use, every other one then freed. Each region has two pages of
     * cards of its own, so freeing it between regions in use must not split the kernel's mapping
     * of the card table: at terabyte scale that splitting approaches vm.max_map_count.
     */
    public static class Interleaved {
        public static void main(String[] args) throws Exception {
            int regions = 200;
            List<int[]> groups = new ArrayList<>();
            for (int label = 1; label <= regions; label++) {
                int[] group = new int[1024];
                group[0] = label;
                TeraHeap.tagRoot(group, label);
                TeraHeap.move(label);
                groups.add(group);
            }
            System.gc();
            check(TeraHeap.stats().regionsInUse() == regions, "a region per label: " + TeraHeap.stats().regionsInUse());
            System.gc();
            int before = mappings();
            for (int i = 0; i < regions; i += 2) {
                groups.set(i, null);
            }
            System.gc();
            System.gc();
            int after = mappings();
            check(TeraHeap.stats().regionsInUse() == regions / 2, "every other region freed: "
                    + TeraHeap.stats().regionsInUse() + " in use");
            for (int i = 1; i < regions; i += 2) {
                check(TeraHeap.isInH2(groups.get(i)) && groups.get(i)[0] == i + 1, "group " + (i + 1) + " intact");
            }
            check(after - before < 40, "freeing 100 interleaved regions split no mappings: "
                    + before + " mappings before, " + after + " after");
            System.out.println("INTERLEAVED-OK");
        }
    }

    /** Child: moves more than H2's file system holds; what does not fit stays in H1, intact. */
    public static class FullFileSystem {
        public static void main(String[] args) throws Exception {
            List<int[][]> groups = makeGroups(Integer.parseInt(args[0]), 1);
            System.gc();
            check(TeraHeap.isInH2(groups.get(0)), "the first groups moved");
            check(!TeraHeap.isInH2(groups.get(groups.size() - 1)), "the last groups found no room");
            checkGroups(groups);
            for (int i = 0; i < 3; i++) {
                TeraHeapProcess.churn(64);
                System.gc();
            }
            checkGroups(groups);
            System.out.println("FULL-OK");
        }
    }

    static final Pattern METADATA = Pattern.compile(
            "H2 metadata in DRAM: cards (\\d+)K committed, (\\d+)K resident; object starts (\\d+)K committed");

    /** The "H2 metadata" log lines' kilobytes (committed cards, object starts, resident cards), in order. */
    static List<long[]> metadataLines(String text) {
        List<long[]> lines = new ArrayList<>();
        Matcher m = METADATA.matcher(text);
        while (m.find()) {
            lines.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(3)), Long.parseLong(m.group(2))});
        }
        return lines;
    }

    static List<long[]> metadataLines(OutputAnalyzer out) {
        return metadataLines(out.getStdout());
    }

    /** The "H2 metadata" lines of the full GC after the child printed PHASE {@code phase}. */
    static long[] metadataAfter(OutputAnalyzer out, String phase) {
        String text = out.getStdout();
        int at = text.indexOf("PHASE " + phase + "\n");
        check(at >= 0, "child reached phase " + phase);
        List<long[]> lines = metadataLines(text.substring(at));
        check(!lines.isEmpty(), "a full GC logged H2's metadata after phase " + phase);
        return lines.get(0);
    }

    static long figure(OutputAnalyzer out, String when) {
        Matcher m = Pattern.compile("GC-COMMITTED " + when + " (\\d+)").matcher(out.getStdout());
        check(m.find(), "child printed its " + when + " figure");
        return Long.parseLong(m.group(1));
    }

    static OutputAnalyzer usage(String h2Size, int mb, String... extra) throws Exception {
        return usage(false, h2Size, mb, extra);
    }

    static OutputAnalyzer usage(boolean noUserfaultfd, String h2Size, int mb, String... extra) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap", "-Xmx512m", "-Xmn64m",
                "-XX:TeraHeapSize=" + h2Size, "-XX:TeraHeapRegionSize=32m", "-XX:-TeraHeapPreallocate",
                "-XX:TeraHeapPath=" + new File(".").getAbsolutePath(), "-XX:NativeMemoryTracking=summary",
                "-Xlog:gc+teraheap=debug"));
        cmd.addAll(List.of(extra));
        cmd.add(Usage.class.getName());
        cmd.add(String.valueOf(mb));
        String[] args = cmd.toArray(new String[0]);
        OutputAnalyzer out = noUserfaultfd ? TeraHeapProcess.runWithoutUserfaultfd(args) : TeraHeapProcess.run(args);
        out.shouldHaveExitValue(0).shouldContain("USAGE-OK");
        return out;
    }

    public static void main(String[] args) throws Exception {
        List<OutputAnalyzer> outputs = new ArrayList<>();
        // The tables, exactly: 64 KB of cards per 32 MB region in use and a 4 KB page of object
        // starts per two regions (2 bytes per 32 KB block), for 256 MB in 8 regions; committed
        // when the regions open, given back when they free.
        // The written pages of cards are learnt from userfaultfd as the kernel maps them in; where
        // userfaultfd is refused (a seccomp filter here), from the kernel's page map at every
        // collection: the same pages either way, and every young array stored through them kept.
        for (String run : List.of("1g", "1t", "1g-no-userfaultfd")) {
            boolean noUserfaultfd = run.endsWith("no-userfaultfd");
            String h2Size = run.substring(0, 2);
            OutputAnalyzer out = usage(noUserfaultfd, h2Size, 256);
            if (noUserfaultfd) {
                out.shouldContain("userfaultfd is not available").shouldNotContain("(userfaultfd)");
            } else {
                out.shouldContain("written pages noted as the kernel maps them in (userfaultfd)");
            }
            Matcher m = Pattern.compile("REGIONS (\\d+)").matcher(out.getStdout());
            check(m.find(), "child printed its regions");
            long regions = Long.parseLong(m.group(1));
            // Eight labels of 32 MB: a region each, and another where GC workers moving a label
            // side by side left the ends of their buffers unused (at most 1 MB per worker).
            check(regions >= 8 && regions <= 16, "256 MB of 8 labels in 8 to 16 regions of 32 MB: " + regions);
            long maxCards = 0;
            long maxStarts = 0;
            for (long[] line : metadataLines(out)) {
                maxCards = Math.max(maxCards, line[0]);
                maxStarts = Math.max(maxStarts, line[1]);
            }
            check(maxCards == regions * 64 && maxStarts == (regions + 1) / 2 * 4, "tables of the regions in use only ("
                    + h2Size + " of H2): " + maxCards + "K of cards, " + maxStarts + "K of object starts");
            // Cards the program does not write take no DRAM: once the moved groups' cards are
            // found clean, their pages go back to the kernel. Stores bring back only their pages
            // (64 groups of 4 MB: one or two pages of 4 KB each, 2 MB of H2 per page; fewer where
            // GC workers moving side by side put several groups' root arrays in one page).
            long quiet = metadataAfter(out, "quiet")[2];
            check(quiet == 0, "no card page resident in a quiet H2 (" + h2Size + "): " + quiet + "K");
            long stored = metadataAfter(out, "stored")[2];
            check(stored >= 64 && stored <= 64 * 2 * 4, "the stored-into pages resident: " + stored + "K");
            List<long[]> lines = metadataLines(out);
            long[] last = lines.get(lines.size() - 1);
            check(last[0] == 0 && last[1] == 0 && last[2] == 0,
                    "freed regions' tables given back: " + last[0] + "K, " + last[1] + "K, " + last[2] + "K resident");
            if (!noUserfaultfd) {
                outputs.add(out);
            }
        }
        // Capacity costs nothing: NMT finds 1 TB of H2 committing what 1 GB does, within the
        // per-region arrays (38 bytes a region); before, H2's tables cost 4 MB per GB of capacity.
        long smallStart = figure(outputs.get(0), "start");
        long hugeStart = figure(outputs.get(1), "start");
        check(hugeStart - smallStart < 4 * 1024, "1 TB of H2 costs under 4 MB more than 1 GB: "
                + smallStart + "K against " + hugeStart + "K");
        for (OutputAnalyzer out : outputs) {
            long grown = figure(out, "moved") - figure(out, "start");
            check(grown >= 8 * 64, "NMT counts the in-use regions' tables: +" + grown + "K");
        }

        // Card scans stay within the cards of the regions in use.
        for (String mode : List.of("-Xint", "-XX:+VerifyBeforeGC")) {
            TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx256m", "-Xmn32m", "-XX:TeraHeapSize=64m",
                    "-XX:TeraHeapRegionSize=1m", "-XX:+UnlockDiagnosticVMOptions", mode,
                    ExactRegions.class.getName()).shouldHaveExitValue(0).shouldContain("EXACT-OK");
        }

        // A group of a million small objects that each refer to an object kept in H1: their cards,
        // on pages of cards nothing backed yet, are dirtied once the movers are done, from a list
        // of one field per card (it held a field per object: 128 MB in Spark's SSSP, where a
        // 1 GB cap killed the JVM). And every reference is adjusted when that object slides down.
        for (String mode : List.of("-XX:-VerifyBeforeGC", "-XX:+VerifyBeforeGC")) {
            OutputAnalyzer shared = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx512m", "-Xmn64m",
                    "-XX:TeraHeapSize=1g", "-XX:+UnlockDiagnosticVMOptions", mode, "-Xlog:gc+teraheap=debug",
                    SharedTarget.class.getName());
            shared.shouldHaveExitValue(0).shouldContain("SHARED-OK");
            Matcher moved = Pattern.compile("Moved (\\d+) objects \\((\\d+)K\\) to H2").matcher(shared.getStdout());
            Matcher listed = Pattern.compile("on card pages nothing backed: (\\d+) listed").matcher(shared.getStdout());
            long objects = 0, cards = 0, listedCards = 0;
            while (moved.find()) {
                objects += Long.parseLong(moved.group(1));
                cards += (Long.parseLong(moved.group(2)) * 1024 + 511) / 512;
            }
            while (listed.find()) {
                listedCards += Long.parseLong(listed.group(1));
            }
            check(objects >= SharedTarget.CELLS, "the cells moved: " + objects + " objects");
            check(listedCards >= SharedTarget.CELLS / 64 && listedCards <= cards,
                    "a listed field per card of what moved (" + cards + " cards), not per object: "
                    + listedCards + " listed (" + mode + ")");
        }

        // Regions freed between regions in use keep the tables' mappings whole.
        TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx256m", "-Xmn32m", "-XX:TeraHeapSize=1g",
                "-XX:TeraHeapRegionSize=4m", "-XX:-TeraHeapPreallocate", Interleaved.class.getName())
                .shouldHaveExitValue(0).shouldContain("INTERLEAVED-OK");

        // A sparse file: 1 TB long, with storage for the regions in use only.
        Path file = Paths.get("h2-sparse").toAbsolutePath();
        OutputAnalyzer sparse = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx512m", "-Xmn64m",
                "-XX:TeraHeapSize=1t", "-XX:TeraHeapRegionSize=32m", "-XX:-TeraHeapPreallocate",
                "-XX:TeraHeapPath=" + file, FileHolder.class.getName(), file.toString());
        sparse.shouldHaveExitValue(0).shouldContain("SPARSE-OK");

        // A file system that fills: reported once, the rest stays in H1, nothing crashes.
        Path dir = Files.createDirectories(Paths.get("mnt")).toAbsolutePath();
        OutputAnalyzer out = TeraHeapProcess.runWithMount("mount -t tmpfs -o size=64m tmpfs " + dir,
                "-XX:+EnableTeraHeap", "-Xmx512m", "-Xmn64m", "-XX:TeraHeapSize=1g", "-XX:TeraHeapRegionSize=16m",
                "-XX:-TeraHeapPreallocate", "-XX:TeraHeapPath=" + dir, "-Xlog:gc+teraheap",
                FullFileSystem.class.getName(), "160");
        if (out != null) {
            out.shouldHaveExitValue(0).shouldContain("FULL-OK");
            out.shouldContain("H2's file system is full (" + dir);
            out.shouldNotContain("H2 is full (");
            check(out.getStdout().split("file system is full", -1).length == 2, "reported once");
        }
    }

    /**
     * Child: a million cells, each referring to the object a static field holds (a singleton: it
     * stays in H1 when they move), allocated after 32 MB that then dies, so that the full GCs after
     * the move can slide it down (the test does not see addresses), and every cell's reference
     * must then be adjusted.
     */
    public static class SharedTarget {
        static final int CELLS = 1 << 20;
        static long[] shared;

        static final class Cell {
            final Object target;
            final long value;

            Cell(Object target, long value) {
                this.target = target;
                this.value = value;
            }
        }

        public static void main(String[] args) throws Exception {
            List<byte[]> below = new ArrayList<>();
            for (int i = 0; i < 2048; i++) {
                below.add(new byte[16 << 10]);
            }
            shared = new long[] {42};
            Cell[] cells = new Cell[CELLS];
            for (int i = 0; i < CELLS; i++) {
                cells[i] = new Cell(shared, i);
            }
            System.gc();   // all of it old, the cells' group still in H1
            TeraHeap.tagRoot(cells, 1);
            TeraHeap.move(1);
            System.gc();
            check(TeraHeap.isInH2(cells[0]) && TeraHeap.isInH2(cells[CELLS - 1]) && !TeraHeap.isInH2(shared),
                    "the cells in H2, the shared object in H1");
            below = null;
            System.gc();
            System.gc();
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < CELLS; i++) {
                    check(cells[i].target == shared && cells[i].value == i, "cell " + i + " intact");
                }
                check(shared[0] == 42, "the shared object intact");
                TeraHeapProcess.churn(64);
                System.gc();
            }
            System.out.println("SHARED-OK");
        }
    }

    /** Child: moves 64 MB into a sparse H2 file and checks the file's storage against its length. */
    public static class FileHolder {
        public static void main(String[] args) throws Exception {
            Path file = Paths.get(args[0]);
            check(Files.size(file) == (1L << 40) + 4096, "the file is H2 and the page of its mark: " + Files.size(file));
            long before = allocatedKB(file);
            check(before < 1024, "a new sparse file holds no storage: " + before + "K");
            List<int[][]> groups = makeGroups(64, 1);
            System.gc();
            checkGroups(groups);
            long after = allocatedKB(file);
            check(after >= 64 * 1024 && after <= 32 * 32 * 1024, "storage for the regions in use: " + after + "K");
            System.out.println("SPARSE-OK");
        }

        static long allocatedKB(Path file) throws Exception {
            Process p = new ProcessBuilder("du", "-k", file.toString()).start();
            String line = new String(p.getInputStream().readAllBytes()).trim();
            check(p.waitFor() == 0, "du ran");
            return Long.parseLong(line.split("\\s+")[0]);
        }
    }
}
