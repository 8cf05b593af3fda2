/*
 * @test
 * @summary When the storage behind H2 fails under a running JVM (here: H2's file is truncated,
 *          which the kernel answers with SIGBUS as it does an I/O error), the JVM stops with one
 *          line naming H2's file and device and exit status 1, whether Java code, Java code
 *          through Unsafe (where a SIGBUS would otherwise become an InternalError) or the GC
 *          touched H2, and writes no crash report.
 * @library /lib /test/lib
 * @run main/othervm/timeout=600 TestTeraHeapStorageFault
 */

import java.io.File;
import java.io.RandomAccessFile;
import java.lang.reflect.Field;

import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.TeraHeap;

public class TestTeraHeapStorageFault {
    public static void main(String[] args) throws Exception {
        for (String who : new String[] {"java", "unsafe", "gc"}) {
            File h2 = new File("h2-" + who + ".file").getAbsoluteFile();
            OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-Xmx256m",
                    "-XX:TeraHeapSize=256m", "-XX:TeraHeapPath=" + h2, "-Xlog:gc+teraheap",
                    Child.class.getName(), who, h2.getPath());
            out.shouldContain("CHILD: data in H2, truncating its file");
            out.shouldNotContain("CHILD: still running");
            out.shouldHaveExitValue(1);
            out.shouldMatch("Error: TeraHeap: H2 cannot be read or written at byte [0-9]+ of "
                    + java.util.regex.Pattern.quote(h2.getPath()) + " \\(device [0-9]+:[0-9]+");
            out.shouldContain("check that device, then run the job again");
            TeraHeapProcess.check(out.getStderr().trim().split("\n").length == 1,
                    "one line on stderr, got: " + out.getStderr());
        }
        System.out.println("PASSED");
    }

    /** Child: puts data in H2, cuts H2's file short, then touches H2 from Java code or the GC. */
    public static class Child {
        static long[] values;
        static Object[] holders;

        public static void main(String[] args) throws Exception {
            values = new long[4 << 20];   // 32 MB
            for (int i = 0; i < values.length; i++) {
                values[i] = i * 31L;
            }
            holders = new Object[1 << 16];
            for (int i = 0; i < holders.length; i++) {
                holders[i] = new long[] {i};
            }
            TeraHeap.tagRoot(values, 1);
            TeraHeap.tagRoot(holders, 2);
            TeraHeap.move(1);
            TeraHeap.move(2);
            System.gc();
            TeraHeapProcess.check(TeraHeap.isInH2(values) && TeraHeap.isInH2(holders), "the data is in H2");
            // An H1 object stored into H2: its card is dirty, so the next GC reads the holder in H2.
            holders[7] = new long[] {-7};
            System.out.println("CHILD: data in H2, truncating its file");
            System.out.flush();
            try (RandomAccessFile f = new RandomAccessFile(args[1], "rw")) {
                f.setLength(0);   // the page cache drops H2's pages: the next access cannot be served
            }
            long sum = 0;
            if (args[0].equals("java")) {
                for (int i = 0; i < values.length; i += 512) {
                    sum += values[i];
                }
            } else if (args[0].equals("unsafe")) {
                Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
                f.setAccessible(true);
                sun.misc.Unsafe unsafe = (sun.misc.Unsafe) f.get(null);
                long base = unsafe.arrayBaseOffset(long[].class);
                for (int i = 0; i < values.length; i += 512) {
                    sum += unsafe.getLong(values, base + 8L * i);
                }
            } else {
                System.gc();
            }
            System.out.println("CHILD: still running " + sum);
        }
    }
}
