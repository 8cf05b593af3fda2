/*
 * @test
 * @summary The G1 port's first step (debug builds, -XX:+TeraHeapG1InProgress): H2 is mapped
 *          directly below G1's heap and its cards directly below G1's card array, where G1's
 *          barrier computes them; with no G1 pause knowing H2 yet, nothing moves and a program
 *          runs through young and full collections under heap verification; an H2 region
 *          smaller than G1's is refused in one line. A release build refuses the flag, so
 *          TeraHeap with G1 stays refused there until the port is done.
 * @library /lib /test/lib
 * @run main/othervm/timeout=600 TestTeraHeapG1Layout
 */

import java.math.BigInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.Platform;
import jdk.test.lib.process.OutputAnalyzer;

public class TestTeraHeapG1Layout {
    /** Child: allocates through several young and full collections with TeraHeap's API in use. */
    public static class Churn {
        public static void main(String[] args) throws Exception {
            Object[] keep = new Object[1 << 14];
            for (int i = 0; i < keep.length; i++) {
                keep[i] = new long[16];
                if (i % 1024 == 0) {
                    org.teraheap.TeraHeap.tagRoot(keep[i], 7);
                }
            }
            org.teraheap.TeraHeap.move(7);
            TeraHeapProcess.churn(256);
            System.gc();
            long sum = 0;
            for (Object o : keep) {
                sum += ((long[]) o).length;
            }
            System.out.println("CHURN-OK " + sum + " moved=" + org.teraheap.TeraHeap.stats().bytesMoved());
        }
    }

    static final Pattern H1 = Pattern.compile("TeraHeap H1: \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\)");
    static final Pattern H2 = Pattern.compile("TeraHeap H2: \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\)");
    static final Pattern CARDS = Pattern.compile(
            "TeraHeap card table: H2's \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\), G1's \\[0x(\\p{XDigit}+), 0x(\\p{XDigit}+)\\)");

    static long hex(String s) {
        return new BigInteger(s, 16).longValue();
    }

    static Matcher find(Pattern p, OutputAnalyzer out) {
        Matcher m = p.matcher(out.getStdout());
        if (!m.find()) {
            throw new RuntimeException("no line matching " + p + " in the log");
        }
        return m;
    }

    public static void main(String[] args) throws Exception {
        if (!Platform.isDebugBuild()) {
            OutputAnalyzer release = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+UseG1GC",
                    "-XX:+TeraHeapG1InProgress", "-version");
            release.shouldNotHaveExitValue(0);
            release.shouldContain("TeraHeapG1InProgress");
            TeraHeapProcess.check(!release.getOutput().contains("hs_err"), "no crash report");
            OutputAnalyzer g1 = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+UseG1GC", "-version");
            TeraHeapProcess.assertStartupError(g1, "works with the Parallel collector only", "-XX:+UseG1GC");
            return;
        }
        OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress",
                "-Xmx256m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=16m", "-XX:G1HeapRegionSize=4m",
                "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC", "-Xlog:gc+init=debug", Churn.class.getName());
        out.shouldHaveExitValue(0);
        out.shouldContain("CHURN-OK " + (16L << 14) + " moved=0");
        long h1Start = hex(find(H1, out).group(1));
        Matcher h2 = find(H2, out);
        long h2Start = hex(h2.group(1)), h2End = hex(h2.group(2));
        TeraHeapProcess.check(h2End <= h1Start && h1Start - h2Start == 512L << 20,
                "H2 lies directly below G1's heap, in the same reservation");
        Matcher cards = find(CARDS, out);
        long h2Cards = hex(cards.group(1)), h2CardsEnd = hex(cards.group(2)), g1Cards = hex(cards.group(3));
        TeraHeapProcess.check(h2CardsEnd == g1Cards && h2CardsEnd - h2Cards == (512L << 20) / 512,
                "H2's cards end where G1's begin: a card per 512 bytes of H2's reservation");

        OutputAnalyzer small = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress",
                "-Xmx256m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=2m", "-XX:G1HeapRegionSize=4m",
                "-version");
        TeraHeapProcess.assertStartupError(small, "-XX:TeraHeapRegionSize=2M is smaller than G1's region size (4M)");
    }
}
