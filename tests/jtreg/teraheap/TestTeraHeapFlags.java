/*
 * @test
 * @summary Every bad TeraHeap flag value or combination stops the JVM at start with one line
 *          naming the flag and the fix, a non-zero exit and no crash report; good ones start.
 *          H2's mapping is advised for huge pages unless -XX:-TeraHeapHugePages.
 * @library /lib /test/lib
 * @run main/othervm/timeout=600 TestTeraHeapFlags
 */

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import jdk.test.lib.process.OutputAnalyzer;

public class TestTeraHeapFlags {
    // Small sizes keep each child JVM quick; H2 sizes are real files in the scratch directory.
    static final String H2_DIR = new File(".").getAbsolutePath();

    static OutputAnalyzer teraheap(String... more) throws Exception {
        String[] args = new String[more.length + 3];
        args[0] = "-XX:+EnableTeraHeap";
        args[1] = "-Xmx128m";
        args[2] = "-XX:TeraHeapPath=" + H2_DIR;
        System.arraycopy(more, 0, args, 3, more.length);
        return TeraHeapProcess.run(args);
    }

    public static void main(String[] args) throws Exception {
        sizes();
        regionSizes();
        thresholds();
        collectors();
        paths();
        incompatibleFlags();
        goodValues();
        flagOffIgnoresTeraHeapValues();
        hugePages();
    }

    static void sizes() throws Exception {
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapSize=0", "-version"),
                "-XX:TeraHeapSize=0", "e.g. -XX:TeraHeapSize=");
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapSize=100m", "-version"),
                "-XX:TeraHeapSize=100M", "not a multiple of -XX:TeraHeapRegionSize=32M", "96M or 128M");
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapSize=8m", "-version"),
                "-XX:TeraHeapSize=8M", "smaller than one region", "-XX:TeraHeapSize=32M");
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapSize=128t", "-version"),
                "-XX:TeraHeapSize=128T", "too large");
        // Larger than the free space of the file system (a 40T file fits no disk of this machine).
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapSize=40t", "-version"),
                "-XX:TeraHeapSize=40T", "does not fit in", "lower -XX:TeraHeapSize");
    }

    static void regionSizes() throws Exception {
        for (String bad : new String[] {"3m", "512k", "2g", "0"}) {
            TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapRegionSize=" + bad, "-version"),
                    "-XX:TeraHeapRegionSize=", "power of two between 1M and 1G");
        }
    }

    static void thresholds() throws Exception {
        TeraHeapProcess.assertStartupError(
                teraheap("-XX:TeraHeapLowThreshold=90", "-XX:TeraHeapHighThreshold=85", "-version"),
                "-XX:TeraHeapLowThreshold=90 must be below -XX:TeraHeapHighThreshold=85");
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapHighThreshold=101", "-version"),
                "-XX:TeraHeapHighThreshold=101", "between 1 and 100");
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapHighThreshold=0", "-version"),
                "-XX:TeraHeapHighThreshold=0", "between 1 and 100");
    }

    static void collectors() throws Exception {
        for (String gc : new String[] {"-XX:+UseG1GC", "-XX:+UseSerialGC", "-XX:+UseZGC",
                                       "-XX:+UseShenandoahGC", "-XX:-UseParallelGC"}) {
            TeraHeapProcess.assertStartupError(teraheap(gc, "-version"),
                    "-XX:+EnableTeraHeap works with the Parallel collector only", "remove " + gc);
        }
        // Named explicitly, Parallel is fine; not named, TeraHeap picks it.
        for (String[] flags : new String[][] {{"-XX:+UseParallelGC"}, {}}) {
            String[] args = new String[flags.length + 2];
            System.arraycopy(flags, 0, args, 0, flags.length);
            args[flags.length] = "-XX:+PrintFlagsFinal";
            args[flags.length + 1] = "-version";
            OutputAnalyzer out = teraheap(args);
            out.shouldHaveExitValue(0);
            out.shouldMatch("bool UseParallelGC +=\\s+true");
            out.shouldMatch("bool UseG1GC +=\\s+false");
        }
    }

    static void paths() throws Exception {
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapPath=/nonexistent-dir/h2", "-version"),
                "-XX:TeraHeapPath=/nonexistent-dir/h2", "directory /nonexistent-dir does not exist");
        TeraHeapProcess.assertStartupError(teraheap("-XX:TeraHeapPath=/dev/null", "-version"),
                "-XX:TeraHeapPath=/dev/null is neither a directory nor a regular file");
        // An empty value is HotSpot's way of saying "the default": the system temp directory.
        TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx128m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapPath=",
                "-Xlog:gc+init", "-version").shouldHaveExitValue(0).shouldContain("TeraHeap H2 file: /tmp/teraheap-h2-");
        Path dir = Files.createDirectories(Paths.get("mnt")).toAbsolutePath();
        // A directory this user cannot write: as root, a read-only file system mounted there.
        OutputAnalyzer out = TeraHeapProcess.runWithMount("mount -t tmpfs -o ro,size=1m tmpfs " + dir,
                "-XX:+EnableTeraHeap", "-Xmx128m", "-XX:TeraHeapPath=" + dir, "-version");
        if (out == null) {
            dir.toFile().setWritable(false, false);
            out = teraheap("-XX:TeraHeapPath=" + dir, "-version");
        }
        TeraHeapProcess.assertStartupError(out, "-XX:TeraHeapPath=" + dir + " is not writable",
                "give a directory or a file path that this user can write");
        // A file system too small for H2: as root, a 64M tmpfs.
        out = TeraHeapProcess.runWithMount("mount -t tmpfs -o size=64m tmpfs " + dir,
                "-XX:+EnableTeraHeap", "-Xmx128m", "-XX:TeraHeapPath=" + dir, "-XX:TeraHeapSize=128m",
                "-version");
        if (out != null) {
            TeraHeapProcess.assertStartupError(out, "-XX:TeraHeapSize=128M does not fit in " + dir + " (64M free)",
                    "lower -XX:TeraHeapSize or point -XX:TeraHeapPath at a larger file system");
        }
    }

    static void incompatibleFlags() throws Exception {
        TeraHeapProcess.assertStartupError(teraheap("-XX:AllocateHeapAt=" + H2_DIR, "-version"),
                "cannot be combined with -XX:AllocateHeapAt", "remove -XX:AllocateHeapAt");
        // Where the machine has no hugetlbfs pages HotSpot turns large pages off itself, first.
        OutputAnalyzer out = teraheap("-XX:+UseLargePages", "-XX:-UseTransparentHugePages", "-version");
        if (out.getOutput().contains("UseLargePages disabled, no large pages configured")) {
            out.shouldHaveExitValue(0);
        } else {
            TeraHeapProcess.assertStartupError(out, "remove -XX:+UseLargePages or use -XX:+UseTransparentHugePages");
        }
        teraheap("-XX:+UseLargePages", "-XX:+UseTransparentHugePages", "-XX:TeraHeapSize=64m", "-version")
                .shouldHaveExitValue(0);
    }

    static void goodValues() throws Exception {
        teraheap("-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m", "-version").shouldHaveExitValue(0);
        teraheap("-XX:TeraHeapSize=1g", "-XX:TeraHeapRegionSize=1g", "-version").shouldHaveExitValue(0);
        teraheap("-XX:TeraHeapSize=96m", "-XX:TeraHeapLowThreshold=0",
                 "-XX:TeraHeapHighThreshold=100", "-version").shouldHaveExitValue(0);
        // The defaults: 8G of H2 in the system temp directory.
        TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx128m", "-version").shouldHaveExitValue(0);
    }

    static void flagOffIgnoresTeraHeapValues() throws Exception {
        // With TeraHeap off the JVM behaves as the stock one: TeraHeap's flags are not even read.
        OutputAnalyzer out = TeraHeapProcess.run("-XX:TeraHeapSize=0", "-XX:TeraHeapPath=/nonexistent",
                "-XX:+UseG1GC", "-version");
        out.shouldHaveExitValue(0);
    }

    static void hugePages() throws Exception {
        // The kernel shows the advice as "hg" among the mapping's VmFlags.
        OutputAnalyzer on = teraheap("-XX:TeraHeapSize=64m", H2Mapping.class.getName());
        on.shouldHaveExitValue(0);
        // A kernel built without transparent huge pages refuses the advice, and the JVM runs on.
        if (Files.isDirectory(Paths.get("/sys/kernel/mm/transparent_hugepage"))) {
            on.shouldMatch("H2 VmFlags:.* hg( |$)");
        } else {
            on.shouldContain("H2 VmFlags:");
        }
        OutputAnalyzer off = teraheap("-XX:TeraHeapSize=64m", "-XX:-TeraHeapHugePages", H2Mapping.class.getName());
        off.shouldHaveExitValue(0);
        off.shouldContain("H2 VmFlags:");
        off.shouldNotMatch("H2 VmFlags:.* hg( |$)");
    }

    /** Prints the VmFlags of the mapping of H2's file, from /proc/self/smaps. */
    public static class H2Mapping {
        public static void main(String[] args) throws Exception {
            boolean inH2 = false;
            for (String line : Files.readAllLines(Paths.get("/proc/self/smaps"))) {
                if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                    inH2 = line.contains("teraheap-h2");
                } else if (inH2 && line.startsWith("VmFlags:")) {
                    System.out.println("H2 VmFlags: " + line.substring("VmFlags:".length()).trim());
                    return;
                }
            }
            throw new AssertionError("no mapping of H2's file in /proc/self/smaps");
        }
    }
}
