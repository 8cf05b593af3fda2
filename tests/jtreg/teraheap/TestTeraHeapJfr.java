/*
 * @test
 * @summary TeraHeap's JFR events (jdk.TeraHeapMove, RegionsFreed, Full, Evacuation, CardFaults)
 *          are recorded with the default settings, and their figures add up to what the API's
 *          stats() counts: bytes and objects moved per label, regions freed by full GCs and by
 *          evacuations; H2 full is recorded when a group does not fit. Under a DRAM budget,
 *          jdk.TeraHeapH1Resize records each change of H1's target as the resize log gives it.
 *          `jfr summary` shows them. A runtime jlinked from the image's jmods records them too.
 * @library /lib /test/lib
 * @run main/othervm/timeout=900 TestTeraHeapJfr
 */

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import jdk.test.lib.process.OutputAnalyzer;
import jdk.test.lib.process.ProcessTools;
import org.teraheap.H2Stats;
import org.teraheap.TeraHeap;

public class TestTeraHeapJfr {
    static final long DENSE = 1;      // moved, kept whole
    static final long SPARSE = 2;     // moved, then all but one of its groups dropped: evacuated
    static final long DROPPED = 3;    // moved, then dropped whole: its regions freed
    static final long TOO_LARGE = 4;  // larger than what is left of H2: H2 full

    /** Child: the groups' lives, recorded with the default settings. */
    public static class Scenario {
        static Object[] group(int arrays, int longs) {
            Object[] g = new Object[arrays];
            for (int i = 0; i < g.length; i++) {
                g[i] = new long[longs];
            }
            return g;
        }

        static void check(boolean ok, String what) {
            TeraHeapProcess.check(ok, what);
            System.out.println("ok: " + what);
        }

        public static void main(String[] args) throws Exception {
            Recording recording = new Recording(Configuration.getConfiguration("default"));
            recording.start();
            H2Stats before = TeraHeap.stats();

            Object[] dense = group(64, 2048);                  // 1 MB
            List<Object[]> sparse = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                sparse.add(group(32, 2048));                   // 16 x 0.5 MB
            }
            Object[] dropped = group(128, 2048);               // 2 MB
            TeraHeap.tagRoot(dense, DENSE);
            for (Object[] g : sparse) {
                TeraHeap.tagRoot(g, SPARSE);
            }
            TeraHeap.tagRoot(dropped, DROPPED);
            TeraHeap.move(DENSE);
            TeraHeap.move(SPARSE);
            TeraHeap.move(DROPPED);
            TeraHeapProcess.fullGC();
            check(TeraHeap.isInH2(dense) && TeraHeap.isInH2(sparse.get(0)) && TeraHeap.isInH2(dropped),
                "the three labels moved");

            dropped = null;
            while (sparse.size() > 1) {
                sparse.remove(sparse.size() - 1);
            }
            // The dropped label's regions free at the next full GC; the sparse one is traced and
            // evacuated within the orphans' schedule (1, 2, 4 ... full GCs).
            for (int i = 0; i < 8; i++) {
                TeraHeapProcess.fullGC();
            }

            // More than H2 has left: H2 is full, part of it stays in H1.
            Object[] tooLarge = group(512, 16384);             // 64 MB, H2 is 32 MB
            TeraHeap.tagRoot(tooLarge, TOO_LARGE);
            TeraHeap.move(TOO_LARGE);
            TeraHeapProcess.fullGC();

            recording.stop();
            H2Stats after = TeraHeap.stats();
            Path file = Path.of("teraheap.jfr");
            recording.dump(file);

            Map<Long, long[]> moved = new HashMap<>();   // label -> bytes, objects
            long freedByGc = 0;
            long freedByEvacuation = 0;
            int full = 0;
            int evacuations = 0;
            int cardFaultEvents = 0;
            for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
                switch (e.getEventType().getName()) {
                    case "jdk.TeraHeapMove": {
                        long[] m = moved.computeIfAbsent(e.getLong("label"), l -> new long[2]);
                        m[0] += e.getLong("bytes");
                        m[1] += e.getLong("objects");
                        check(e.getInt("workers") >= 1, "a move names its workers: " + e.getInt("workers"));
                        check(!e.getDuration().isNegative(), "a move has a duration");
                        break;
                    }
                    case "jdk.TeraHeapRegionsFreed":
                        freedByGc += e.getLong("regions");
                        check(e.getLong("bytes") == e.getLong("regions") << 20, "freed bytes are regions of 1 MB");
                        check(e.getLong("usedBytes") <= e.getLong("regionsInUse") << 20 && e.getLong("regionsInUse") <= 32,
                              "H2's use after the GC lies in its regions in use: " + e.getLong("usedBytes") + " bytes in "
                              + e.getLong("regionsInUse") + " regions of 32");
                        break;
                    case "jdk.TeraHeapEvacuation":
                        evacuations++;
                        check(e.getLong("label") == SPARSE, "the evacuated label is the sparse one: " + e.getLong("label"));
                        check(e.getLong("liveBytes") > 0 && e.getLong("liveBytes") < 4 << 20,
                            "the evacuation copied the one group left: " + e.getLong("liveBytes"));
                        freedByEvacuation += e.getLong("regionsFreed");
                        break;
                    case "jdk.TeraHeapFull":
                        full++;
                        check(e.getLong("capacity") == 32 << 20, "H2 full names H2's size");
                        check(!e.getBoolean("fileSystemFull"), "H2, not its file system, is full");
                        break;
                    case "jdk.TeraHeapCardFaults":
                        cardFaultEvents++;
                        check(e.getLong("faults") > 0, "card faults are counted");
                        break;
                    default:
                        break;
                }
            }
            long bytes = 0;
            long objects = 0;
            for (long[] m : moved.values()) {
                bytes += m[0];
                objects += m[1];
            }
            System.out.println("moved per label: " + moved.keySet() + "; " + bytes + " bytes, " + objects
                + " objects; stats: " + before + " -> " + after);
            check(moved.containsKey(DENSE) && moved.containsKey(SPARSE) && moved.containsKey(DROPPED)
                && moved.containsKey(TOO_LARGE), "every label's move is recorded: " + moved.keySet());
            check(moved.get(DENSE)[1] == 65, "the dense label moved its 65 objects: " + moved.get(DENSE)[1]);
            check(bytes == after.bytesMoved() - before.bytesMoved(),
                "bytes moved add up to stats(): " + bytes + " against " + (after.bytesMoved() - before.bytesMoved()));
            check(objects == after.objectsMoved() - before.objectsMoved(),
                "objects moved add up to stats(): " + objects + " against " + (after.objectsMoved() - before.objectsMoved()));
            check(evacuations >= 1, "the sparse label was evacuated");
            check(freedByGc > 0, "the dropped label's regions were freed");
            check(freedByGc + freedByEvacuation == after.regionsFreed() - before.regionsFreed(),
                "regions freed add up to stats(): " + freedByGc + " + " + freedByEvacuation + " against "
                + (after.regionsFreed() - before.regionsFreed()));
            check(full >= 1, "H2 full is recorded");
            check(TeraHeap.isInH2(dense) && TeraHeap.isInH2(sparse.get(0)) && tooLarge.length == 512,
                "the groups kept are intact");
            System.out.println("CARD-FAULT-EVENTS " + cardFaultEvents);
            System.out.println("JFR-OK");
        }
    }

    public static void main(String[] args) throws Exception {
        String[][] modes = {{}, {"-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC"}};
        for (String[] mode : modes) {
            List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap",
                "-XX:TeraHeapPath=" + new java.io.File(".").getAbsolutePath(), "-Xlog:gc+teraheap",
                "-Xmx256m", "-Xmn32m", "-XX:TeraHeapSize=32m", "-XX:TeraHeapRegionSize=1m"));
            cmd.addAll(List.of(mode));
            cmd.add(Scenario.class.getName());
            OutputAnalyzer out = TeraHeapProcess.run(cmd.toArray(new String[0]));
            out.shouldHaveExitValue(0);
            out.shouldContain("JFR-OK");
            // Card pages are counted as userfaultfd brings them in; without it (the kernel's
            // page map read instead) there is nothing to count.
            if (!out.getStdout().contains("collections read /proc/self/pagemap")) {
                out.shouldNotContain("CARD-FAULT-EVENTS 0");
            }
        }
        // The events as `jfr summary` counts them, in a -XX:StartFlightRecording run (the last
        // child's working directory is not ours: record again, briefly, here).
        OutputAnalyzer print = ProcessTools.executeProcess(
            System.getProperty("test.jdk") + "/bin/jfr", "summary", lastRecording());
        print.shouldHaveExitValue(0);
        print.shouldMatch("jdk\\.TeraHeapMove +[1-9]");
        resizes();
        jlinked();
    }

    /**
     * A runtime jlinked from the image's jmods (java.base and jdk.jfr alone) is TeraHeap's JVM
     * and records its moves: the jmods hold our libjvm and JFR's event types.
     */
    static void jlinked() throws Exception {
        String jdk = System.getProperty("test.jdk");
        String runtime = new java.io.File("jlinked").getAbsolutePath();
        OutputAnalyzer link = ProcessTools.executeProcess(jdk + "/bin/jlink", "--module-path", jdk + "/jmods",
            "--add-modules", "java.base,jdk.jfr", "--output", runtime);
        link.shouldHaveExitValue(0);
        String file = new java.io.File("jlinked.jfr").getAbsolutePath();
        OutputAnalyzer out = ProcessTools.executeProcess(runtime + "/bin/java", "-XX:+EnableTeraHeap",
            "-XX:TeraHeapSize=32m", "-XX:TeraHeapRegionSize=1m", "-Xmx128m",
            "-XX:StartFlightRecording=filename=" + file, "-cp", System.getProperty("java.class.path"),
            Mover.class.getName());
        out.shouldHaveExitValue(0);
        int moves = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(file))) {
            if (e.getEventType().getName().equals("jdk.TeraHeapMove") && e.getLong("label") == 7) {
                moves++;
            }
        }
        TeraHeapProcess.check(moves == 1, "the jlinked runtime recorded the move: " + moves + " events");
    }

    /**
     * Under a DRAM budget, each decision that changes H1's target is one jdk.TeraHeapH1Resize,
     * in the order, with the sizes and the reason, that -Xlog:gc+teraheap+resize gives.
     */
    static void resizes() throws Exception {
        String file = new java.io.File("resize.jfr").getAbsolutePath();
        OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:TeraHeapDramLimit=1g",
            "-Xlog:gc+teraheap+resize=debug", "-XX:StartFlightRecording=filename=" + file,
            Live.class.getName());
        out.shouldHaveExitValue(0);
        List<String> logged = new ArrayList<>();
        Matcher m = Pattern.compile("H1 (\\w+) (\\d+)M -> (\\d+)M").matcher(out.getStdout());
        while (m.find()) {
            if (!m.group(2).equals(m.group(3))) {
                logged.add(m.group(1) + " " + m.group(2) + " -> " + m.group(3));
            }
        }
        List<RecordedEvent> events = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(file))) {
            if (e.getEventType().getName().equals("jdk.TeraHeapH1Resize")) {
                events.add(e);
            }
        }
        events.sort(Comparator.comparing(RecordedEvent::getStartTime));
        List<String> recorded = new ArrayList<>();
        for (RecordedEvent e : events) {
            long from = e.getLong("previousTarget");
            long to = e.getLong("target");
            TeraHeapProcess.check(from != to, "a resize event changes the target: " + e);
            if (from >> 20 != to >> 20) {
                recorded.add(e.getString("reason") + " " + (from >> 20) + " -> " + (to >> 20));
            }
        }
        System.out.println("resizes logged: " + logged + "; recorded: " + recorded);
        TeraHeapProcess.check(!logged.isEmpty(), "H1 was resized while the program kept 130 MB live");
        TeraHeapProcess.check(recorded.equals(logged), "the resize events are the logged resizes");
    }

    /** Child: keeps many small arrays live for 8 seconds, so that H1's target changes. */
    public static class Live {
        public static void main(String[] args) {
            TestTeraHeapDynamicH1.Phases.live(System.nanoTime() + 8_000_000_000L);
        }
    }

    private static String lastRecording() throws Exception {
        OutputAnalyzer out = TeraHeapProcess.run("-XX:+EnableTeraHeap", "-XX:TeraHeapSize=32m",
            "-XX:TeraHeapRegionSize=1m", "-Xmx128m",
            "-XX:StartFlightRecording=filename=" + new java.io.File("summary.jfr").getAbsolutePath(),
            Mover.class.getName());
        out.shouldHaveExitValue(0);
        return new java.io.File("summary.jfr").getAbsolutePath();
    }

    /** Child: one group moved, under -XX:StartFlightRecording. */
    public static class Mover {
        public static void main(String[] args) {
            Object[] g = Scenario.group(16, 1024);
            TeraHeap.tagRoot(g, 7);
            TeraHeap.move(7);
            System.gc();
            TeraHeapProcess.check(TeraHeap.isInH2(g), "the group moved");
        }
    }
}
