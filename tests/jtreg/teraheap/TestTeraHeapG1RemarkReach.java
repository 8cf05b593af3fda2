/*
 * @test
 * @summary An H2 group that a G1 marking cycle reaches only at Remark, through reference
 *          processing (experimental: -XX:+TeraHeapG1InProgress): only a finalizable object, old
 *          and unreachable, refers to it. Remark keeps that object for its finalizer and so
 *          reaches the group's region, whose cards must be read before reference processing
 *          ends: the region and the H1 objects only it refers to survive the cycle, the
 *          finalizer reads the group back and keeps it, and the program reads it back after the
 *          mixed pauses.
 *          Beside it, a group only a soft reference keeps: under a policy that keeps the
 *          reference, marking traces it as a strong one and the group reads back; under one
 *          that clears it, the cycle clears it and frees the group's region. Driven with
 *          WhiteBox; serial reference processing (-XX:-ParallelRefProcEnabled: one marking
 *          task, which does not offer termination), the default, and eight GC threads, each
 *          plain and under -XX:+VerifyBeforeGC -XX:+VerifyAfterGC -XX:+VerifyDuringGC.
 * @library /lib /test/lib
 * @build jdk.test.whitebox.WhiteBox
 * @run driver jdk.test.lib.helpers.ClassFileInstaller jdk.test.whitebox.WhiteBox
 * @run main/othervm/timeout=1200 TestTeraHeapG1RemarkReach
 */

import java.lang.ref.SoftReference;
import java.util.ArrayList;
import java.util.List;

import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.whitebox.WhiteBox;

public class TestTeraHeapG1RemarkReach {
    /** An H1 object only H2 refers to. */
    static final class Payload {
        final long value;
        final long[] data;

        Payload(long value) {
            this.value = value;
            this.data = new long[] {value * 3, value * 5};
        }
    }

    static final class Node {
        final long value;
        Payload payload;   // stored after the group moved: its card is oldgen by the cycle

        Node(long value) {
            this.value = value;
        }
    }

    /** Refers to a group; nothing refers to it once made, so only its finalizer reaches the group. */
    static final class Finalizable {
        final Node[] group;

        Finalizable(Node[] group) {
            this.group = group;
        }

        @Override
        @SuppressWarnings("deprecation")
        protected void finalize() {
            try {
                finalizedSum = sum(group);
                resurrected = group;
            } catch (Throwable t) {
                finalizeFailure = t;   // the finalizer thread ignores what a finalizer throws
            }
            finalized = true;
        }
    }

    static volatile long finalizedSum = -1;
    static volatile boolean finalized;
    static volatile Throwable finalizeFailure;
    static volatile Node[] resurrected;

    static final int NODES = 3000;

    static Node[] group(long base) {
        Node[] g = new Node[NODES];
        for (int i = 0; i < NODES; i++) {
            g[i] = new Node(base + i);
        }
        return g;
    }

    static long sum(Node[] g) {
        long s = 0;
        for (Node n : g) {
            s += n.value;
            if (n.payload != null) {
                s += n.payload.value + n.payload.data[0] + n.payload.data[1];
            }
        }
        return s;
    }

    static long expected(long base) {
        long s = 0;
        for (int i = 0; i < NODES; i++) {
            long v = base + i;
            s += v;
            if (i % 3 == 0) {
                s += v + v * 3 + v * 5;
            }
        }
        return s;
    }

    /** Child: args[0] is "keep" (the soft reference survives) or "clear". */
    public static class Reach {
        static SoftReference<Node[]> soft;
        static Finalizable strongly;

        static long regionsInUse() {
            return org.teraheap.TeraHeap.stats().regionsInUse();
        }

        static void addPayloads(Node[] g) {
            for (int i = 0; i < NODES; i += 3) {
                g[i].payload = new Payload(g[i].value);
            }
        }

        static void cycle(WhiteBox wb) throws InterruptedException {
            TeraHeapProcess.check(wb.g1StartConcMarkCycle(), "a cycle started");
            while (wb.g1InConcurrentMark()) {
                Thread.sleep(10);
            }
        }

        public static void main(String[] args) throws Exception {
            final boolean keep = args[0].equals("keep");
            WhiteBox wb = WhiteBox.getWhiteBox();
            Node[] softly = group(1_000_000);
            Node[] finalizing = group(2_000_000);
            org.teraheap.TeraHeap.tagRoot(softly, 1);
            org.teraheap.TeraHeap.move(1);
            org.teraheap.TeraHeap.tagRoot(finalizing, 2);
            org.teraheap.TeraHeap.move(2);
            System.gc();
            TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(softly) && org.teraheap.TeraHeap.isInH2(finalizing[NODES - 1]),
                    "the groups moved");
            final long movedRegions = regionsInUse();
            TeraHeapProcess.check(movedRegions >= 2, "each group fills a region of its own: " + movedRegions);
            addPayloads(softly);
            addPayloads(finalizing);
            wb.youngGC();   // the payloads are old; H2's cards that refer to them are oldgen
            TeraHeapProcess.check(wb.isObjectInOldGen(softly[0].payload), "the payloads are old");
            // The soft reference and the finalizable object are made old before the cycle: the
            // cycle's marking discovers the references of old objects only (what a pause
            // promotes while it starts the cycle is live for the cycle, and young pauses
            // discover those of young objects).
            soft = new SoftReference<>(softly);
            softly = null;
            strongly = new Finalizable(finalizing);
            finalizing = null;
            wb.youngGC();
            TeraHeapProcess.check(wb.isObjectInOldGen(soft) && wb.isObjectInOldGen(strongly), "the referrers are old");
            strongly = null;
            Thread.sleep(50);   // the soft reference's timestamp is older than the cycle's clock

            cycle(wb);
            // Remark found the finalizable object unreachable and kept it for its finalizer.
            for (int i = 0; i < 500 && !finalized; i++) {
                System.runFinalization();
                Thread.sleep(10);
            }
            TeraHeapProcess.check(finalized, "the finalizer ran after the cycle");
            TeraHeapProcess.check(finalizeFailure == null, "the finalizer read its group: " + finalizeFailure);
            TeraHeapProcess.check(finalizedSum == expected(2_000_000), "the finalizer read its group back: " + finalizedSum);
            for (int i = 0; i < 4; i++) {
                wb.youngGC();   // Prepare Mixed, then mixed pauses
            }
            TeraHeapProcess.check(sum(resurrected) == expected(2_000_000),
                    "the group the finalizer kept reads back after the mixed pauses");
            Node[] g = soft.get();
            if (keep) {
                TeraHeapProcess.check(g != null, "the policy kept the soft reference");
                TeraHeapProcess.check(sum(g) == expected(1_000_000), "the softly reachable group reads back");
                TeraHeapProcess.check(regionsInUse() == movedRegions, "no region freed: " + regionsInUse() + " of " + movedRegions);
            } else {
                TeraHeapProcess.check(g == null, "the policy cleared the soft reference");
                TeraHeapProcess.check(regionsInUse() < movedRegions, "the cycle freed the softly reachable group's region");
            }
            System.out.println("REACH-OK");
        }
    }

    static void run(String policy, String... mode) throws Exception {
        List<String> flags = new ArrayList<>(List.of("-XX:+EnableTeraHeap",
                "-XX:+UnlockExperimentalVMOptions", "-XX:+UseG1GC", "-XX:+TeraHeapG1InProgress", "-Xms128m", "-Xmx128m",
                "-XX:TeraHeapSize=256m", "-XX:TeraHeapRegionSize=1m", "-XX:G1HeapRegionSize=1m",
                "-XX:MaxTenuringThreshold=0", "-XX:G1MixedGCLiveThresholdPercent=100", "-XX:G1HeapWastePercent=0",
                // A soft reference kept for an hour of idleness per free MB, or cleared at once.
                "-XX:SoftRefLRUPolicyMSPerMB=" + (policy.equals("keep") ? "3600000" : "0"),
                "-Xlog:gc,gc+teraheap=debug"));
        flags.addAll(List.of(TeraHeapProcess.whiteBox()));
        flags.addAll(List.of(mode));
        flags.add(Reach.class.getName());
        flags.add(policy);
        OutputAnalyzer out = TeraHeapProcess.run(flags.toArray(new String[0]));
        out.shouldHaveExitValue(0);
        out.shouldContain("REACH-OK");
        TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Remark") == 1, "one cycle");
        TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Full") == 1, "the one full GC asked for");
    }

    public static void main(String[] args) throws Exception {
        String[][] modes = {
            {"-XX:-ParallelRefProcEnabled"},
            {},
            {"-XX:ParallelGCThreads=8"},
        };
        for (String[] mode : modes) {
            List<String> verified = new ArrayList<>(List.of(mode));
            verified.addAll(List.of(TeraHeapProcess.G1_VERIFY));
            for (String[] m : new String[][] {mode, verified.toArray(new String[0])}) {
                run("keep", m);
            }
        }
        run("clear");
        run("clear", TeraHeapProcess.G1_VERIFY);
    }
}
