/*
 * @test
 * @summary Heap dumps and class histograms include the objects in H2, and a dump parses with
 *          every reference resolved; on the Parallel collector and on G1.
 * @library /lib /test/lib
 * @modules jdk.management
 * @run main/othervm/timeout=600 TestTeraHeapHeapWalk
 */

import java.io.File;
import java.lang.management.ManagementFactory;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import com.sun.management.HotSpotDiagnosticMXBean;
import jdk.test.lib.hprof.model.JavaClass;
import jdk.test.lib.hprof.model.Snapshot;
import jdk.test.lib.hprof.parser.Reader;
import jdk.test.lib.process.OutputAnalyzer;
import org.teraheap.TeraHeap;

public class TestTeraHeapHeapWalk {
    public static class Marker {
        final int id;
        Marker next;
        Marker(int id) { this.id = id; }
    }

    public static class Child {
        public static void main(String[] args) throws Exception {
            Marker head = null;
            for (int i = 0; i < 1000; i++) {
                Marker m = new Marker(i);
                m.next = head;
                head = m;
            }
            TeraHeap.tagRoot(head, 1);
            TeraHeap.move(1);
            System.gc();
            if (!TeraHeap.isInH2(head) || !TeraHeap.isInH2(head.next)) {
                throw new RuntimeException("not moved");
            }
            // One walker, then four (the serial and the parallel object iterators).
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            for (String threads : new String[] {"1", "4"}) {
                String histogram = (String) server.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                        "gcClassHistogram", new Object[] {new String[] {"-parallel=" + threads}},
                        new String[] {String[].class.getName()});
                for (String line : histogram.split("\n")) {
                    if (line.contains(Marker.class.getName())) {
                        System.out.println("HISTOGRAM(" + threads + ") " + line.trim());
                    }
                }
            }
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).dumpHeap(args[0], true);
            System.out.println("DUMPED " + (head.id == 999));
        }
    }

    public static void main(String[] args) throws Exception {
        walk(new String[0]);
        walk(TeraHeapProcess.G1_FLAGS);
    }

    static void walk(String[] collector) throws Exception {
        File dump = new File("teraheap.hprof").getAbsoluteFile();
        dump.delete();
        OutputAnalyzer out = TeraHeapProcess.run(TeraHeapProcess.concat(collector, "-XX:+EnableTeraHeap",
                "-Xmx128m", "-XX:TeraHeapSize=64m", "-XX:TeraHeapRegionSize=1m",
                "-XX:TeraHeapPath=" + new File(".").getAbsolutePath(), Child.class.getName(), dump.toString()));
        out.shouldHaveExitValue(0);
        out.shouldContain("DUMPED true");
        out.shouldMatch("HISTOGRAM\\(1\\) \\d+: +1000 +\\d+ +TestTeraHeapHeapWalk\\$Marker");
        out.shouldMatch("HISTOGRAM\\(4\\) \\d+: +1000 +\\d+ +TestTeraHeapHeapWalk\\$Marker");
        try (Snapshot snapshot = Reader.readFile(dump.getPath(), false, 0)) {
            snapshot.resolve(true);
            JavaClass marker = snapshot.findClass(Marker.class.getName());
            int count = marker.getInstancesCount(false);
            System.out.println((collector.length == 0 ? "Parallel" : "G1") + ": instances in the dump: " + count);
            if (count != 1000) {
                throw new RuntimeException("the dump holds " + count + " of the 1000 instances in H2");
            }
        }
    }
}
