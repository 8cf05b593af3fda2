/*
 * @test
 * @summary Stores made through JNI (SetObjectField, SetObjectArrayElement) into H2 objects stay
 *          correct through later minor and full GCs; an array of a tagged group held with
 *          GetPrimitiveArrayCritical across System.gc() neither moves nor loses a write.
 * @library /lib /test/lib
 * @run main/othervm/timeout=900 TestTeraHeapJni
 */

import java.io.File;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import org.teraheap.TeraHeap;

public class TestTeraHeapJni {
    public static class Holder {
        public Object value;
    }

    public static class Child {
        static native void setField(Object holder, Object value);
        static native void setElement(Object[] array, int index, Object value);

        static void check(boolean ok, String what) {
            if (!ok) {
                throw new RuntimeException("failed: " + what);
            }
        }

        public static void main(String[] args) {
            System.load(System.getProperty("teraheap.jnilib"));
            Holder[] holders = new Holder[200];
            Object[] array = new Object[200];
            for (int i = 0; i < holders.length; i++) {
                holders[i] = new Holder();
            }
            Object[] group = {holders, array};
            TeraHeap.tagRoot(group, 1);
            TeraHeap.move(1);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(holders[5]) && TeraHeap.isInH2(array), "moved");
            for (int round = 0; round < 20; round++) {
                for (int i = 0; i < holders.length; i++) {
                    setField(holders[i], "f" + round + ":" + i);
                    setElement(array, i, "e" + round + ":" + i);
                }
                List<byte[]> junk = new ArrayList<>();
                for (int k = 0; k < 24; k++) {
                    junk.add(new byte[1 << 20]);
                    if (junk.size() > 4) {
                        junk.clear();
                    }
                }
                if (round % 5 == 4) {
                    TeraHeapProcess.fullGC();
                }
                for (int i = 0; i < holders.length; i++) {
                    check(("f" + round + ":" + i).equals(holders[i].value), "field " + i);
                    check(("e" + round + ":" + i).equals(array[i]), "element " + i);
                }
            }
            System.out.println("JNI-OK");
        }
    }

    /** A tagged group whose int[] a native thread holds critical while full GCs are asked for. */
    public static class Critical {
        static native void hold(int[] array);
        static native boolean held();
        static native void release();

        public static void main(String[] args) throws Exception {
            System.load(System.getProperty("teraheap.jnilib"));
            int[] data = new int[100_000];
            Object[] group = {data, new StringBuilder("group")};
            TeraHeap.tagRoot(group, 1);
            Thread holder = new Thread(() -> hold(data));
            holder.start();
            while (!held() && holder.isAlive()) {
                Thread.sleep(1);
            }
            // Advised once the array is held: under G1 the next young pause would move the group,
            // and one could come before the hold.
            TeraHeap.move(1);
            // While the GC locker is held, full GCs cannot run, nor move anything. (The holder lets
            // go after two seconds by itself: a thread that must allocate meanwhile waits for it.)
            int whileHeld = 0;
            for (int i = 0; i < 5; i++) {
                boolean before = held();
                System.gc();
                if (before && held()) {
                    whileHeld++;
                    Child.check(!TeraHeap.isInH2(data), "a critical array stays where it is");
                }
            }
            System.out.println("full GCs asked for while the array was held: " + whileHeld);
            Child.check(whileHeld > 0, "some full GC was asked for while the array was held");
            release();
            holder.join();
            System.gc();
            Child.check(TeraHeap.isInH2(group) && TeraHeap.isInH2(data), "the group moves once released");
            for (int i = 0; i < data.length; i++) {
                Child.check(data[i] == i * 7, "value written through the critical pointer: " + i);
            }
            System.gc();
            for (int i = 0; i < data.length; i++) {
                Child.check(data[i] == i * 7, "value after another full GC: " + i);
            }
            System.out.println("CRITICAL-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        String src = Paths.get(System.getProperty("test.src"), "libTeraHeapJni.c").toString();
        String jdk = System.getProperty("test.jdk");
        File lib = new File("libTeraHeapJni.so").getAbsoluteFile();
        Process cc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-I" + jdk + "/include",
                "-I" + jdk + "/include/linux", "-o", lib.toString(), src).inheritIO().start();
        if (cc.waitFor() != 0) {
            throw new RuntimeException("could not compile " + src);
        }
        String[] flags = {"-Xmx128m", "-Xmn16m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m",
                "-Dteraheap.jnilib=" + lib};
        TeraHeapProcess.runInEveryMode(Child.class.getName(), "JNI-OK", flags);
        TeraHeapProcess.runInEveryMode(Critical.class.getName(), "CRITICAL-OK", flags);
    }
}
