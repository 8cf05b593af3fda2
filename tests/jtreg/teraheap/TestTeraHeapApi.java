/*
 * @test
 * @summary org.teraheap.TeraHeap answers on a TeraHeap JVM, and does nothing, cheaply, on a
 *          stock JVM and on a TeraHeap JVM with the flag off.
 * @library /lib /test/lib
 * @run main/othervm/timeout=600 TestTeraHeapApi
 */

import java.util.ArrayList;
import java.util.List;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapApi {
    static void check(boolean ok, String what) {
        if (!ok) {
            throw new RuntimeException("failed: " + what);
        }
        System.out.println("ok: " + what);
    }

    static void expectNpe(Runnable r) {
        try {
            r.run();
        } catch (NullPointerException expected) {
            return;
        }
        throw new RuntimeException("failed: tagRoot(null, ...) throws NullPointerException");
    }

    /** Child: the API where TeraHeap is not on. */
    public static class Disabled {
        public static void main(String[] args) {
            check(!TeraHeap.isEnabled(), "isEnabled() is false");
            Object o = new int[1000];
            TeraHeap.tagRoot(o, 1);
            TeraHeap.move(1);
            System.gc();
            check(!TeraHeap.isInH2(o) && !TeraHeap.isInH2(null), "isInH2 is false");
            H2Stats s = TeraHeap.stats();
            check(s.capacityBytes() == 0 && s.usedBytes() == 0 && s.regionsInUse() == 0
                    && s.regionsFreed() == 0 && s.bytesMoved() == 0 && s.objectsMoved() == 0
                    && s.taggedRoots() == 0 && s.movableLabels() == 0, "stats are all zero: " + s);
            expectNpe(() -> TeraHeap.tagRoot(null, 1));

            // Cheap: a million calls of each cost well under a second even in the interpreter.
            long start = System.nanoTime();
            long hits = 0;
            for (int i = 0; i < 1_000_000; i++) {
                TeraHeap.tagRoot(o, i);
                TeraHeap.move(i);
                hits += TeraHeap.isInH2(o) ? 1 : 0;
                hits += TeraHeap.stats().usedBytes();
            }
            long ms = (System.nanoTime() - start) / 1_000_000;
            check(hits == 0 && ms < 5000, "a million no-op calls take " + ms + " ms");
            System.out.println("DISABLED-OK");
        }
    }

    /** Child: the API with TeraHeap on; args[0] is TeraHeapSize in bytes. */
    public static class Enabled {
        public static void main(String[] args) {
            long size = Long.parseLong(args[0]);
            check(TeraHeap.isEnabled(), "isEnabled() is true");
            H2Stats s = TeraHeap.stats();
            check(s.capacityBytes() == size, "capacity is TeraHeapSize: " + s);
            // Programs size their caches from the heap's maximum (Spark's storage and execution
            // pools do): it is H1's, -Xmx256m, not H1 + H2.
            long max = Runtime.getRuntime().maxMemory();
            long heapMax = java.lang.management.ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax();
            check(max <= 256L << 20 && max > 128L << 20 && heapMax == max,
                    "the heap's maximum leaves H2 out: maxMemory " + max + ", heap usage max " + heapMax);
            check(s.usedBytes() == 0 && s.regionsInUse() == 0 && s.regionsFreed() == 0
                    && s.bytesMoved() == 0 && s.objectsMoved() == 0, "an empty H2 at start: " + s);
            check(s.taggedRoots() == 0 && s.movableLabels() == 0, "nothing tagged at start: " + s);
            check(!TeraHeap.isInH2(new Object()) && !TeraHeap.isInH2(null), "H1 objects are not in H2");
            expectNpe(() -> TeraHeap.tagRoot(null, 1));

            // Tagging records roots without keeping them alive.
            List<Object> kept = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                Object root = new long[100];
                kept.add(root);
                TeraHeap.tagRoot(root, i % 4);
            }
            for (int i = 0; i < 300; i++) {
                TeraHeap.tagRoot(new long[100], 7);   // garbage right away
            }
            TeraHeap.move(2);
            TeraHeap.move(2);
            TeraHeap.move(3);
            check(TeraHeap.stats().movableLabels() == 2, "move() records each label once");
            System.gc();
            H2Stats after = TeraHeap.stats();
            check(after.movableLabels() == 0, "the full GC consumes the hints");
            check(after.taggedRoots() == 50, "roots of labels 0 and 1 are still tagged in H1, those of 2 and 3 "
                    + "moved, dead ones are forgotten: " + after.taggedRoots());
            for (int i = 0; i < kept.size(); i++) {
                check(TeraHeap.isInH2(kept.get(i)) == (i % 4 >= 2), "labels 2 and 3 are in H2, 0 and 1 are not");
            }
            check(after.objectsMoved() == 50 && after.bytesMoved() == 50 * (16 + 100 * 8)
                    && after.usedBytes() == after.bytesMoved() && after.regionsInUse() == 2,
                    "50 arrays of 100 longs moved, into one region per label: " + after);
            kept.clear();
            System.gc();
            check(TeraHeap.stats().taggedRoots() == 0, "tagging does not keep roots alive");
            check(TeraHeap.stats().regionsInUse() == 0 && TeraHeap.stats().regionsFreed() == 2,
                    "the dropped groups' regions are freed: " + TeraHeap.stats());
            System.out.println("ENABLED-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        // In this (jtreg) JVM, started without the flag, the API is off.
        check(!TeraHeap.isEnabled(), "off in a JVM without -XX:+EnableTeraHeap");

        OutputAnalyzer stock = TeraHeapProcess.runStock("-Xint", Disabled.class.getName());
        stock.shouldHaveExitValue(0);
        stock.shouldContain("DISABLED-OK");

        OutputAnalyzer off = TeraHeapProcess.run("-Xint", Disabled.class.getName());
        off.shouldHaveExitValue(0);
        off.shouldContain("DISABLED-OK");

        String path = "-XX:TeraHeapPath=" + new java.io.File(".").getAbsolutePath();
        for (String[] mode : new String[][] {{}, {"-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC"}, {"-Xint"},
                                             {"-Xcomp", "-XX:-TieredCompilation"}}) {
            List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap", "-Xmx256m",
                    "-XX:TeraHeapSize=1g", path));
            cmd.addAll(List.of(mode));
            cmd.add(Enabled.class.getName());
            cmd.add(Long.toString(1L << 30));
            OutputAnalyzer on = TeraHeapProcess.run(cmd.toArray(new String[0]));
            on.shouldHaveExitValue(0);
            on.shouldContain("ENABLED-OK");
        }
    }
}
