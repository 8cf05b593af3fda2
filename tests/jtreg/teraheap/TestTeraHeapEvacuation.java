/*
 * @test
 * @summary Sparse labels are evacuated: groups dropped by the program whose regions live on only
 *          because other data (H1 objects, a stack, another label's group in H2) still refers to a
 *          few of their objects, spread over all their regions, have those objects copied to fresh
 *          regions and the rest freed, as GraphX's successive graphs need. The copies keep identity, hash, lock, contents and
 *          every reference to them; weak references to the dropped objects are cleared, to the
 *          kept ones kept; an object with finalize() in a dropped group is finalized with its
 *          data intact. The same holds when H2 runs out of room halfway through a copy
 *          (-XX:+TeraHeapStressEvacuationFailure). With -XX:TeraHeapEvacuationLiveThresholdPercent=0
 *          nothing is freed. Tracing a dropped group's object array of 200,000 elements keeps at
 *          most a few thousand objects waiting at once.
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapEvacuation
 */

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapEvacuation {
    static void check(boolean ok, String what) {
        TeraHeapProcess.check(ok, what);
    }

    static long pattern(int id, int i) {
        return id * 1_000_003L + i * 31L;
    }

    /** A few words of a chunk that outlive it, as GraphX's index arrays outlive their graph. */
    static final class Meta {
        final int id;
        final long[] words = new long[6];
        Meta(int id) {
            this.id = id;
            for (int i = 0; i < words.length; i++) {
                words[i] = pattern(id, -i);
            }
        }
        boolean intact(int expectedId) {
            for (int i = 0; i < words.length; i++) {
                if (words[i] != pattern(id, -i)) {
                    return false;
                }
            }
            return id == expectedId;
        }
    }

    /** Bulk of a group: dropped with it, but for its Meta. */
    static class Chunk {
        final int id;
        final long[] data;
        final Meta meta;
        Chunk(int id, int words) {
            this.id = id;
            data = new long[words];
            for (int i = 0; i < words; i++) {
                data[i] = pattern(id, i);
            }
            meta = new Meta(id);
        }
        boolean intact() {
            for (int i = 0; i < data.length; i++) {
                if (data[i] != pattern(id, i)) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A chunk whose finalizer checks its own data, after its group was dropped. */
    static final class FinalizableChunk extends Chunk {
        static final ConcurrentLinkedQueue<String> finalized = new ConcurrentLinkedQueue<>();
        FinalizableChunk(int id) {
            super(id, 512);
        }
        @Override
        @SuppressWarnings("deprecation")
        protected void finalize() {
            finalized.add(id + (intact() ? " intact" : " CORRUPT"));
        }
    }

    /** The small part of a group that outlives it: referred to from H1, a stack and H2. */
    static final class Shared {
        final int round;
        final long[] data;
        final String name;
        final Shared previous;   // the last round's: a reference into another evacuated label
        int counter;
        Shared(int round, Shared previous) {
            this.round = round;
            this.previous = previous;
            data = new long[2048];
            for (int i = 0; i < data.length; i++) {
                data[i] = pattern(-round, i);
            }
            name = "shared-" + round;
        }
        boolean intact() {
            for (int i = 0; i < data.length; i++) {
                if (data[i] != pattern(-round, i)) {
                    return false;
                }
            }
            return name.equals("shared-" + round) && (round == 0 || previous.round == round - 1);
        }
    }

    /** Child: the scenario, run under whatever flags the parent chose. */
    public static class Scenario {
        static final int rounds = 6;
        static final int chunks = 48;   // of 64 KB: 3 MB per group, 3 regions of 1 MB and more

        static void checkMetas(List<Meta> metas) {
            for (int k = 0; k < metas.size(); k++) {
                Meta m = metas.get(k);
                int id = (k / (chunks / 4)) * 1000 + (k % (chunks / 4)) * 4;
                check(TeraHeap.isInH2(m) && m.intact(id), "meta " + id + " intact in H2");
            }
        }

        public static void main(String[] args) throws Exception {
            check(TeraHeap.isEnabled(), "TeraHeap is on");
            final boolean evacuating = !Boolean.getBoolean("test.off");
            // A group that stays, in H2, referring to every round's shared object: a reference
            // from another label's region, kept in its card.
            Object[] holder = new Object[rounds];
            TeraHeap.tagRoot(holder, 1);
            TeraHeap.move(1);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(holder), "holder moved");
            // Enough tags that the tag table sweeps out the holder's entry, now that it is in H2:
            // the holder's label must still count as rooted (its root is reached), never orphaned.
            for (int i = 0; i < 100; i++) {
                TeraHeap.tagRoot(new Object(), 5000 + i);
            }

            List<Shared> kept = new ArrayList<>();     // H1 references
            List<Meta> metas = new ArrayList<>();      // one of every 4 chunks', in every region
            List<Integer> hashes = new ArrayList<>();
            List<WeakReference<Object>> weakDropped = new ArrayList<>();
            List<WeakReference<Shared>> weakKept = new ArrayList<>();
            Shared previous = null;
            long movedBefore = 0;
            for (int round = 0; round < rounds; round++) {
                Object[] group = new Object[chunks + 2];
                for (int i = 0; i < chunks; i++) {
                    group[i] = new Chunk(round * 1000 + i, 8192);
                }
                group[chunks] = new FinalizableChunk(round * 1000 + chunks);
                Shared shared = new Shared(round, previous);
                group[chunks + 1] = shared;
                TeraHeap.tagRoot(group, 100 + round);
                TeraHeap.move(100 + round);
                TeraHeapProcess.fullGC();
                check(TeraHeap.isInH2(group) && TeraHeap.isInH2(shared) && TeraHeap.isInH2(group[0]),
                      "round " + round + ": group moved");
                holder[round] = shared;
                kept.add(shared);
                for (int i = 0; i < chunks; i += 4) {
                    metas.add(((Chunk) group[i]).meta);
                }
                hashes.add(System.identityHashCode(shared));
                weakDropped.add(new WeakReference<>(group[1]));
                weakKept.add(new WeakReference<>(shared));
                synchronized (shared) {
                    shared.counter++;
                }
                previous = shared;
                group = null;   // dropped: only `shared` (and what it reaches) stays reachable
                Shared onStack = shared;
                shared = null;
                // Orphaned at the first, traced and evacuated at the second.
                for (int gc = 0; gc < 3; gc++) {
                    TeraHeapProcess.fullGC();
                    TeraHeapProcess.churn(8);   // minor GCs scan the copies' cards
                }
                check(onStack == kept.get(round) && onStack == holder[round] && onStack.intact(),
                      "round " + round + ": stack, H1 and H2 references agree on an intact object");
            }

            // A young object refers to every kept one once they have moved again.
            Object[] young = kept.toArray();
            for (int round = 0; round < rounds; round++) {
                Shared s = kept.get(round);
                check(TeraHeap.isInH2(s), "round " + round + ": kept object still in H2");
                check(s.intact(), "round " + round + ": kept object intact");
                check(holder[round] == s && young[round] == s && weakKept.get(round).get() == s,
                      "round " + round + ": H2, H1, young and weak references reach the same copy");
                check(System.identityHashCode(s) == hashes.get(round), "round " + round + ": identity hash kept");
                synchronized (s) {
                    check(s.counter == 1, "round " + round + ": field written before the move kept");
                    s.counter++;
                }
                if (round > 0) {
                    check(s.previous == kept.get(round - 1), "round " + round + ": reference between kept objects");
                }
                check(!evacuating || weakDropped.get(round).get() == null,
                      "round " + round + ": weak reference to a dropped chunk cleared");
            }
            checkMetas(metas);
            System.runFinalization();
            for (int i = 0; i < 100 && FinalizableChunk.finalized.size() < rounds && evacuating; i++) {
                TeraHeapProcess.fullGC();
                checkMetas(metas);
                System.runFinalization();
            }
            if (evacuating) {
                check(FinalizableChunk.finalized.size() == rounds,
                      "every dropped finalizable chunk finalized: " + FinalizableChunk.finalized);
            }
            for (String f : FinalizableChunk.finalized) {
                check(f.endsWith(" intact"), "finalized with its data intact: " + f);
            }

            H2Stats stats = TeraHeap.stats();
            long groupBytes = (long) rounds * chunks * 8192 * 8;
            if (evacuating) {
                check(stats.usedBytes() < groupBytes / 8,
                      "H2 holds " + stats.usedBytes() + " bytes after the groups were dropped, of "
                      + groupBytes + " moved: the dropped part was not freed");
                System.out.println("EVACUATION-OK used=" + stats.usedBytes() + " freed=" + stats.regionsFreed());
            } else {
                check(stats.usedBytes() > groupBytes * 3 / 4,
                      "without evacuation the regions that the metas keep stay: " + stats);
                System.out.println("EVACUATION-OFF-OK used=" + stats.usedBytes());
            }
        }
    }

    /**
     * Child: a dropped group whose object array (200,000 elements, in one region) stays reachable
     * from H1. The group's root is gone, so its label is traced, and the trace reaches the array:
     * it must follow the elements a chunk at a time, not push all of them at once.
     */
    public static class WideArray {
        static final class Box {
            final Object[] items;
            Box(Object[] items) {
                this.items = items;
            }
        }

        public static void main(String[] args) throws Exception {
            final int n = 200_000;
            Object[] items = new Object[n];
            for (int i = 0; i < n; i++) {
                items[i] = new long[] {pattern(7, i)};
            }
            Box box = new Box(items);
            TeraHeap.tagRoot(box, 300);
            TeraHeap.move(300);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(box) && TeraHeap.isInH2(items) && TeraHeap.isInH2(items[n - 1]),
                  "wide group moved");
            box = null;   // the root is dropped; the array is still referred to from this frame
            for (int gc = 0; gc < 3; gc++) {
                TeraHeapProcess.fullGC();
                TeraHeapProcess.churn(4);
            }
            for (int i = 0; i < n; i++) {
                long[] item = (long[]) items[i];
                check(item.length == 1 && item[0] == pattern(7, i), "element " + i + " intact");
            }
            System.out.println("WIDE-ARRAY-OK");
        }
    }

    static final String[][] PLAIN_AND_VERIFIED = {{}, {"-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC"}};

    /** Runs `main` with TeraHeap on, `common`, `mode` and `flags`; it must exit with 0. */
    static OutputAnalyzer run(Class<?> main, String[] common, String[] mode, String... flags) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap", "-XX:TeraHeapPath=.",
                "-XX:+UnlockDiagnosticVMOptions"));
        cmd.addAll(List.of(flags));
        cmd.addAll(List.of(common));
        cmd.addAll(List.of(mode));
        cmd.add(main.getName());
        OutputAnalyzer out = TeraHeapProcess.run(cmd.toArray(new String[0]));
        out.shouldHaveExitValue(0);
        return out;
    }

    public static void main(String[] args) throws Exception {
        String[] common = {"-Xmx256m", "-Xmn32m", "-XX:TeraHeapSize=256m", "-XX:TeraHeapRegionSize=1m",
                "-Xlog:gc+teraheap=debug"};
        for (OutputAnalyzer out : TeraHeapProcess.runInEveryMode(Scenario.class.getName(), "EVACUATION-OK", common)) {
            out.shouldContain("Evacuated ");
            out.shouldContain("Label 100: ");       // a dropped group, traced
            // The holder's group, rooted all along, is traced only because the program writes
            // into it, and is all live.
            out.shouldNotContain("Tracing label 1 (a root");
            out.shouldNotMatch("Label 1: [^\\n]*, evacuated");
        }
        // H2 running out in the middle of a copy, in every other evacuation: what was not copied
        // stays in the label's old regions, beside the old copies of what was, and a later full
        // GC finishes the evacuation. Plain and under heap verification.
        for (String[] mode : PLAIN_AND_VERIFIED) {
            OutputAnalyzer out = run(Scenario.class, common, mode, "-XX:+TeraHeapStressEvacuationFailure");
            out.shouldContain("EVACUATION-OK");
            // A label stopped halfway is traced again and, with room then, evacuated.
            String log = out.getOutput();
            java.util.regex.Matcher stopped =
                    java.util.regex.Pattern.compile("H2 had no room to evacuate label (10[0-5]): its regions stay").matcher(log);
            check(stopped.find(), "an evacuation ran out of room halfway");
            String after = log.substring(stopped.end());
            check(after.matches("(?s).*Label " + stopped.group(1) + ": [^\\n]*, evacuated\\n.*?Evacuated .*"),
                  "label " + stopped.group(1) + " evacuated at a later full GC");
        }
        // A traced object array costs the trace's stack a chunk of its elements, not one entry
        // per element (the trace pushed all 200,000 at once before), plain and under verification.
        for (String[] mode : PLAIN_AND_VERIFIED) {
            OutputAnalyzer out = run(WideArray.class, common, mode);
            out.shouldContain("WIDE-ARRAY-OK");
            out.shouldMatch("Label 300: [^\\n]*, dense: kept");   // traced, and found live
            java.util.regex.Matcher depth = java.util.regex.Pattern
                    .compile("Tracing had at most (\\d+) objects waiting at once").matcher(out.getOutput());
            int deepest = -1;
            while (depth.find()) {
                deepest = Math.max(deepest, Integer.parseInt(depth.group(1)));
            }
            check(deepest >= 512 && deepest <= 4096,
                  "the trace had at most " + deepest + " objects waiting at once (a chunk of 512 elements"
                  + " and what waits below it; 200,000 if the array is pushed whole)");
        }
        // The same program without evacuation: the dropped groups' regions stay.
        List<String> off = new ArrayList<>(List.of("-XX:+EnableTeraHeap", "-XX:TeraHeapPath=.", "-Xlog:gc+teraheap",
                "-XX:TeraHeapEvacuationLiveThresholdPercent=0", "-Dtest.off=true"));
        off.addAll(List.of(common));
        off.add(Scenario.class.getName());
        OutputAnalyzer out = TeraHeapProcess.run(off.toArray(new String[0]));
        out.shouldHaveExitValue(0);
        out.shouldContain("EVACUATION-OFF-OK");
        out.shouldNotContain("Evacuated ");
    }
}
