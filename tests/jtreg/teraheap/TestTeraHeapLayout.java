/*
 * @test
 * @summary H2 is mapped over its file directly below H1, preallocated, logged under
 *          -Xlog:gc+init; the file is unlinked or kept as asked, and locked against a second JVM
 *          (what a named file may be: TestTeraHeapFileSafety);
 *          compressed oops stay on while H1 + H2 fit their range.
 * @library /lib /test/lib
 * @run main/othervm/timeout=600 TestTeraHeapLayout
 */

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;

public class TestTeraHeapLayout {
    /** Child: prints the lines of its own memory map that belong to H2's file. */
    public static class ShowH2Mapping {
        public static void main(String[] args) throws Exception {
            for (String line : Files.readAllLines(Paths.get("/proc/self/maps"))) {
                if (line.contains(args[0])) {
                    System.out.println("MAP " + line);
                }
            }
        }
    }

    /** Child: holds the JVM (and its H2 file) until its standard input closes. */
    public static class Hold {
        public static void main(String[] args) throws Exception {
            System.out.println("holding");
            System.out.flush();
            System.in.read();
        }
    }

    static final Pattern H1 = Pattern.compile("TeraHeap H1: \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\) (\\S+) reserved");
    static final Pattern H2 = Pattern.compile(
            "TeraHeap H2: \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\) (\\S+) in (\\d+) regions of (\\S+)");

    public static void main(String[] args) throws Exception {
        Path dir = Files.createDirectories(Paths.get("h2dir")).toAbsolutePath();
        unnamedFile(dir);
        namedFile(dir);
        compressedOops(dir);
        flagOff();
    }

    static void unnamedFile(Path dir) throws Exception {
        OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx256m", "-XX:TeraHeapSize=512m",
                "-XX:TeraHeapRegionSize=16m", "-XX:TeraHeapPath=" + dir, "-Xlog:gc+init",
                ShowH2Mapping.class.getName(), "teraheap-h2-");
        out.shouldHaveExitValue(0);
        Matcher h1 = TeraHeapProcess.find(H1, out);
        Matcher h2 = TeraHeapProcess.find(H2, out);
        long h1Start = TeraHeapProcess.hex(h1.group(1)), h2Start = TeraHeapProcess.hex(h2.group(1)), h2End = TeraHeapProcess.hex(h2.group(2));
        check(h1.group(3).equals("256M"), "H1 reserves -Xmx");
        check(h2.group(3).equals("512M") && h2.group(4).equals("32") && h2.group(5).equals("16M"),
                "H2 is 512M in 32 regions of 16M");
        check(h2End - h2Start == 512L << 20, "H2's range is 512M long");
        check(h2End == h1Start, "H2 sits directly below H1");
        out.shouldMatch("TeraHeap H2 file: " + Pattern.quote(dir.toString()) + "/teraheap-h2-\\w+ \\(unlinked, removed at exit\\)");
        out.shouldContain("TeraHeap compressed oops: on");

        // The child's own memory map: one shared, writable mapping of the (deleted) file over all of H2.
        Matcher map = Pattern.compile("MAP (\\p{XDigit}+)-(\\p{XDigit}+) rw-s 00000000 \\S+ \\d+ +"
                + Pattern.quote(dir.toString()) + "/teraheap-h2-\\w+ \\(deleted\\)").matcher(out.getStdout());
        check(map.find(), "H2's file is mapped shared and writable, and already unlinked");
        check(TeraHeapProcess.hex(map.group(1)) == h2Start && TeraHeapProcess.hex(map.group(2)) == h2End, "the mapping covers exactly H2");
        try (var files = Files.list(dir)) {
            check(files.noneMatch(p -> p.getFileName().toString().startsWith("teraheap-h2-")),
                    "no H2 file is left behind");
        }
    }

    static void namedFile(Path dir) throws Exception {
        File file = dir.resolve("h2.file").toFile();
        String[] args = {"-XX:+EnableTeraHeap", "-Xmx128m", "-XX:TeraHeapSize=256m",
                "-XX:TeraHeapPath=" + file, "-Xlog:gc+init", ShowH2Mapping.class.getName(), file.toString()};
        OutputAnalyzer out = TeraHeapProcess.run(args);
        out.shouldHaveExitValue(0);
        out.shouldContain("TeraHeap H2 file: " + file + " (kept after exit)");
        out.shouldMatch("MAP \\p{XDigit}+-\\p{XDigit}+ rw-s 00000000 \\S+ \\d+ +" + Pattern.quote(file.toString()) + "\n");
        check(file.length() == (256L << 20) + 4096, "the named file is kept, 256M long and a page of mark");
        check(TeraHeapProcess.allocatedBytes(file) >= 256L << 20, "the named file's storage is preallocated");

        // While one JVM holds the file, a second one is refused.
        ProcessBuilder pb = ProcessTools.createLimitedTestJavaProcessBuilder("-XX:+EnableTeraHeap", "-Xmx128m",
                "-XX:TeraHeapSize=256m", "-XX:TeraHeapPath=" + file, Hold.class.getName());
        Process holder = pb.start();
        try {
            byte[] ready = new byte[8];
            check(holder.getInputStream().read(ready) > 0, "the first JVM started");
            TeraHeapProcess.assertStartupError(TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx128m",
                    "-XX:TeraHeapSize=256m", "-XX:TeraHeapPath=" + file, "-version"),
                    "-XX:TeraHeapPath=" + file + " is in use by another JVM");
        } finally {
            holder.getOutputStream().close();
            check(holder.waitFor(60, TimeUnit.SECONDS), "the first JVM exits");
        }
        // Released with its holder: the next JVM gets it.
        TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx128m", "-XX:TeraHeapSize=256m",
                "-XX:TeraHeapPath=" + file, "-version").shouldHaveExitValue(0);
        file.delete();
    }

    static void compressedOops(Path dir) throws Exception {
        // {H1 max, H2 size, extra flag, expected UseCompressedOops}
        String[][] cases = {
            {"-Xmx1g", "-XX:TeraHeapSize=4g", "-XX:ObjectAlignmentInBytes=8", "true"},
            {"-Xmx28g", "-XX:TeraHeapSize=1g", "-XX:ObjectAlignmentInBytes=8", "true"},
            {"-Xmx31g", "-XX:TeraHeapSize=1g", "-XX:ObjectAlignmentInBytes=8", "false"},
            // A larger object alignment widens the range: 40G + 1G fits in 64G.
            {"-Xmx40g", "-XX:TeraHeapSize=1g", "-XX:ObjectAlignmentInBytes=16", "true"},
        };
        for (String[] c : cases) {
            OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", c[0], c[1], c[2],
                    "-XX:TeraHeapPath=" + dir, "-Xlog:gc+init", "-XX:+PrintFlagsFinal", "-version");
            out.shouldHaveExitValue(0);
            out.shouldMatch("bool UseCompressedOops += " + c[3]);
            out.shouldContain("TeraHeap compressed oops: " + (c[3].equals("true") ? "on" : "off"));
        }
    }

    static void flagOff() throws Exception {
        OutputAnalyzer out = TeraHeapProcess.run("-Xlog:gc+init", "-XX:+UseParallelGC", "-version");
        out.shouldHaveExitValue(0);
        out.shouldNotContain("TeraHeap");
    }

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new RuntimeException("failed: " + what);
        }
        System.out.println("ok: " + what);
    }
}
