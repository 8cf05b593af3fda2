/*
 * @test
 * @summary G1's concurrent cycles free the H2 regions they do not reach, with no full GC but the
 *          one that moves the groups (TeraHeap on G1 is experimental: -XX:+TeraHeapG1InProgress).
 *          Six groups move to H2; then, under cycles started at nearly every young pause:
 *          a dropped group's region is freed by the cycle that found nothing reaching it, and
 *          the weak reference to it is cleared at that Remark; a group that refers to an old
 *          H1 object which refers back to it, and which nothing else reaches, dies in a cycle too
 *          (its card must not keep that object alive: it did, and H2 filled up); a group that only another
 *          label's group refers to (an H2-to-H2 link, stored after both moved) lives while that
 *          group does and dies in the same cycle as it; a group whose only reference a second
 *          thread keeps moving between a static field, an H1 array and an H2 field while
 *          marking runs (SATB) survives every cycle and reads back the same; the class of a
 *          group's objects, whose loader nothing else holds, stays loaded while the group
 *          lives; once every group is dropped, cycles free all of H2. Plain, interpreted, and
 *          under -XX:+VerifyBeforeGC -XX:+VerifyAfterGC -XX:+VerifyDuringGC (also with 8 GC
 *          threads and with uncompressed oops).
 * @library /lib /test/lib
 * @run main/othervm/timeout=1800 TestTeraHeapG1Reclaim
 */

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.test.lib.process.OutputAnalyzer;

public class TestTeraHeapG1Reclaim {
    static final class Node {
        final long value;
        volatile Object ref;   // another group's root, stored once both are in H2

        Node(long value) {
            this.value = value;
        }
    }

    /** An H1 object that a group in H2 refers to, and that refers back to the group. */
    static final class Back {
        final Object[] group;

        Back(Object[] group) {
            this.group = group;
        }
    }

    /** Loaded by a loader of its own, which only the class of a group's objects holds. */
    public static final class Isolated implements LongSupplier {
        final long value;

        public Isolated(long value) {
            this.value = value;
        }

        @Override
        public long getAsLong() {
            return value * 7 + 3;
        }
    }

    /** Child. */
    public static class Cycles {
        static final int NODES = 20_000;

        static Object[] group(long base) {
            Object[] g = new Object[NODES];
            for (int i = 0; i < NODES; i++) {
                g[i] = new Node(base + i);
            }
            return g;
        }

        static long sum(Object[] g) {
            long s = 0;
            for (Object o : g) {
                s += ((Node) o).value;
            }
            return s;
        }

        static long expected(long base) {
            return NODES * base + (long) NODES * (NODES - 1) / 2;
        }

        static long isolatedSum(Object[] g) {
            long s = 0;
            for (Object o : g) {
                s += ((LongSupplier) o).getAsLong();
            }
            return s;
        }

        static Object[] isolatedGroup() throws Exception {
            Class<?> c = Class.forName(Isolated.class.getName(), true, new TeraHeapProcess.IsolatingLoader(Isolated.class));
            TeraHeapProcess.check(c != Isolated.class, "the class has a loader of its own");
            java.lang.reflect.Constructor<?> k = c.getConstructor(long.class);
            Object[] g = new Object[NODES];
            for (int i = 0; i < NODES; i++) {
                g[i] = k.newInstance((long) i);
            }
            return g;
        }

        static long isolatedExpected() {
            return 7L * NODES * (NODES - 1) / 2 + 3L * NODES;
        }

        // The groups, while the test holds them. In fields, not locals: the interpreter keeps a
        // local's value alive until its slot is reused.
        static Object[] a, b, c, d, e, f, g;
        static WeakReference<Object[]> weakA, weakB, weakC, weakG;
        // D's only reference, wherever the swapper has it, and the H2 field it passes through.
        static volatile Object holder;
        static final Object[] BOX = new Object[1];
        static Node hop;
        static volatile boolean stop;
        static volatile Throwable swapFailure;
        static volatile long swaps;

        static long regionsInUse() {
            return org.teraheap.TeraHeap.stats().regionsInUse();
        }

        /** Young pauses, each of which may start a cycle, until `done` holds (or a bound). */
        static void churnUntil(java.util.function.BooleanSupplier done, Runnable check, String what) {
            for (int round = 0; round < 400 && !done.getAsBoolean(); round++) {
                TeraHeapProcess.churn(24);
                check.run();
            }
            TeraHeapProcess.check(done.getAsBoolean(), what);
        }

        static void moveAll() throws Exception {
            a = group(1_000_000);
            b = group(2_000_000);
            c = group(3_000_000);
            d = group(4_000_000);
            f = group(6_000_000);
            e = isolatedGroup();
            g = group(7_000_000);
            Object[][] all = {a, b, c, d, e, f, g};
            for (int i = 0; i < all.length; i++) {
                org.teraheap.TeraHeap.tagRoot(all[i], i + 1);
                org.teraheap.TeraHeap.move(i + 1);
            }
            System.gc();   // the only full GC: it moves the six groups
            for (Object[] g : all) {
                TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(g) && org.teraheap.TeraHeap.isInH2(g[NODES - 1]),
                        "a group moved");
            }
        }

        static void swap() {
            try {
                while (!stop) {
                    hop.ref = holder;      // an H2 field
                    holder = null;
                    BOX[0] = hop.ref;      // an H1 array
                    hop.ref = null;
                    holder = BOX[0];       // a static field
                    BOX[0] = null;
                    if (++swaps % 4096 == 0) {
                        TeraHeapProcess.check(sum((Object[]) holder) == expected(4_000_000), "D reads back");
                        Thread.yield();   // two cores: let the main thread and the GC's run too
                    }
                }
            } catch (Throwable t) {
                swapFailure = t;
            }
        }

        static void checkRest() {
            TeraHeapProcess.check(swapFailure == null, "the swapper: " + swapFailure);
            TeraHeapProcess.check(isolatedSum(e) == isolatedExpected(), "E's class is loaded");
            TeraHeapProcess.check(sum(f) == expected(6_000_000), "F reads back");
        }

        static void checkAll() {
            checkRest();
            TeraHeapProcess.check(sum(a) == expected(1_000_000), "A reads back");
            Object[] viaA = (Object[]) ((Node) a[0]).ref;
            TeraHeapProcess.check(viaA != null && sum(viaA) == expected(2_000_000), "B, through A, reads back");
        }

        public static void main(String[] args) throws Exception {
            moveAll();
            final long regionsMoved = regionsInUse();
            TeraHeapProcess.check(regionsMoved >= 7, "each label fills a region of its own: " + regionsMoved);

            // B: from now on only A refers to it, from H2.
            ((Node) a[0]).ref = b;
            weakB = new WeakReference<>(b);
            b = null;
            // D: its only reference moves between H1 and H2 while marking runs.
            holder = d;
            d = null;
            hop = (Node) f[1];
            Thread swapper = new Thread(Cycles::swap);
            swapper.start();

            // Cycles while the swapper runs, with every group still held.
            for (int round = 0; round < 120; round++) {
                TeraHeapProcess.churn(24);
                checkAll();
            }
            TeraHeapProcess.check(regionsInUse() == regionsMoved, "no region freed while all are held");

            // C dropped: the cycle that reaches nothing of it frees its region. (refersTo, not
            // get: get() would keep C alive through the cycle under way.)
            weakC = new WeakReference<>(c);
            c = null;
            churnUntil(() -> weakC.refersTo(null), Cycles::checkAll, "a cycle cleared the weak reference to C");
            long afterC = regionsInUse();
            TeraHeapProcess.check(afterC <= regionsMoved - 1, "C's region freed: " + regionsMoved + " then " + afterC);
            TeraHeapProcess.check(!weakB.refersTo(null), "B lives while A refers to it from H2");

            // G refers to an H1 object that refers back to G; dropped, the two die together once
            // that object is old (until then young pauses take H2's cards as roots).
            ((Node) g[2]).ref = new Back(g);
            weakG = new WeakReference<>(g);
            g = null;
            churnUntil(() -> weakG.refersTo(null), Cycles::checkAll,
                    "a cycle cleared the weak reference to G, which only an H1 object it refers to reaches");
            long afterG = regionsInUse();
            TeraHeapProcess.check(afterG <= afterC - 1, "G's region freed: " + afterC + " then " + afterG);
            afterC = afterG;

            // A dropped: B, which only A refers to, dies in the same cycle.
            weakA = new WeakReference<>(a);
            a = null;
            churnUntil(() -> weakA.refersTo(null), Cycles::checkRest, "a cycle cleared the weak reference to A");
            TeraHeapProcess.check(weakB.refersTo(null), "B died in the cycle A died in");
            long afterAB = regionsInUse();
            TeraHeapProcess.check(afterAB <= afterC - 2, "A's and B's regions freed: " + afterC + " then " + afterAB);

            stop = true;
            swapper.join();
            swapper = null;
            TeraHeapProcess.check(swapFailure == null, "the swapper: " + swapFailure);
            TeraHeapProcess.check(swaps > 0, "the swapper ran");
            TeraHeapProcess.check(org.teraheap.TeraHeap.isInH2(holder) && sum((Object[]) holder) == expected(4_000_000),
                    "D survived " + swaps + " moves of its only reference");
            checkRest();

            // Everything dropped: cycles free all of H2.
            holder = null;
            hop = null;
            e = null;
            f = null;
            churnUntil(() -> regionsInUse() == 0, () -> { }, "cycles freed every region: " + regionsInUse() + " left");
            System.out.println("RECLAIM-OK moved=" + regionsMoved + " swaps=" + swaps
                    + " freed=" + org.teraheap.TeraHeap.stats().regionsFreed());
        }
    }

    public static void main(String[] args) throws Exception {
        String[] verify = {"-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC",
            "-XX:+VerifyDuringGC"};
        List<String[]> modes = new ArrayList<>();
        modes.add(new String[] {});
        modes.add(new String[] {"-Xint"});
        modes.add(verify);
        modes.add(concat(verify, "-XX:ParallelGCThreads=8"));
        modes.add(concat(verify, "-XX:-UseCompressedOops"));
        for (String[] mode : modes) {
            List<String> flags = new ArrayList<>(List.of("-XX:+EnableTeraHeap"));
            flags.addAll(List.of(TeraHeapProcess.G1_FLAGS));
            flags.addAll(List.of("-Xms128m", "-Xmx128m", "-XX:TeraHeapSize=512m", "-XX:TeraHeapRegionSize=8m",
                    "-XX:G1HeapRegionSize=1m", "-XX:InitiatingHeapOccupancyPercent=0", "-XX:-G1UseAdaptiveIHOP",
                    "-Xlog:gc,gc+teraheap"));
            flags.addAll(List.of(mode));
            flags.add(Cycles.class.getName());
            OutputAnalyzer out = TeraHeapProcess.run(flags.toArray(new String[0]));
            out.shouldHaveExitValue(0);
            Matcher ok = TeraHeapProcess.find(Pattern.compile("RECLAIM-OK moved=(\\d+) swaps=(\\d+) freed=(\\d+)"), out);
            TeraHeapProcess.check(Long.parseLong(ok.group(3)) == Long.parseLong(ok.group(1)),
                    "every region moved into was freed: " + ok.group());
            TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Full") == 1, "no full GC but the one asked for: " + TeraHeapProcess.count(out, "Pause Full"));
            TeraHeapProcess.check(TeraHeapProcess.count(out, "Pause Remark") >= 3, "cycles ran: " + TeraHeapProcess.count(out, "Pause Remark"));
            Matcher freed = Pattern.compile("Marking freed (\\d+) regions").matcher(out.getStdout());
            int cyclesThatFreed = 0;
            while (freed.find()) {
                cyclesThatFreed += Integer.parseInt(freed.group(1)) > 0 ? 1 : 0;
            }
            TeraHeapProcess.check(cyclesThatFreed >= 3, "three cycles at least freed regions: " + cyclesThatFreed);
        }
    }

    static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
