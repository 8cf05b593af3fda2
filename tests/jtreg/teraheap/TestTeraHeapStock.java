/*
 * @test
 * @summary With TeraHeap off the JVM is the stock Debian one: same version output, same
 *          collector choice; with it on, the JVM identifies itself the same way and collects
 *          an ordinary workload correctly under heap verification.
 * @library /lib /test/lib
 * @run main/othervm/timeout=900 TestTeraHeapStock
 */

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import jdk.test.lib.process.OutputAnalyzer;

public class TestTeraHeapStock {
    /** Child: builds, mutates and drops a few hundred MB of linked data, checking every read. */
    public static class Churn {
        public static void main(String[] args) {
            Random random = new Random(42);
            Map<Integer, int[]> live = new HashMap<>();
            List<Object> garbage = new ArrayList<>();
            for (int round = 0; round < 40; round++) {
                for (int i = 0; i < 2000; i++) {
                    int key = random.nextInt(20_000);
                    int[] value = new int[64 + random.nextInt(256)];
                    value[0] = key;
                    value[value.length - 1] = ~key;
                    live.put(key, value);
                    garbage.add(new byte[random.nextInt(4096)]);
                }
                if (garbage.size() > 20_000) {
                    garbage.clear();
                }
                if (round % 10 == 9) {
                    System.gc();
                }
                for (Map.Entry<Integer, int[]> e : live.entrySet()) {
                    int[] v = e.getValue();
                    if (v[0] != e.getKey() || v[v.length - 1] != ~e.getKey()) {
                        throw new RuntimeException("corrupted value for key " + e.getKey());
                    }
                }
            }
            System.out.println("CHURN-OK " + live.size());
        }
    }

    public static void main(String[] args) throws Exception {
        OutputAnalyzer stock = TeraHeapProcess.runStock("-version");
        stock.shouldHaveExitValue(0);
        String stockVersion = stock.getStderr();
        if (!stockVersion.contains("Debian")) {
            throw new RuntimeException("unexpected stock version output: " + stockVersion);
        }
        for (String[] flags : new String[][] {{"-version"}, {"-XX:+EnableTeraHeap", "-XX:TeraHeapSize=64m", "-version"}}) {
            OutputAnalyzer ours = TeraHeapProcess.run(flags);
            ours.shouldHaveExitValue(0);
            // A fastdebug build says so ("fastdebug build"); otherwise the text is Debian's, to the letter.
            if (!ours.getStderr().replace("(fastdebug build ", "(build ").equals(stockVersion)) {
                throw new RuntimeException("java " + String.join(" ", flags) + " differs from stock:\n"
                        + ours.getStderr() + "stock:\n" + stockVersion);
            }
        }
        // Flag off: the same collector as stock (G1 on a server-class machine).
        String ourGc = TeraHeapProcess.run("-XX:+PrintFlagsFinal", "-version").firstMatch("bool (Use\\w+GC) +=\\s+true", 1);
        String stockGc = TeraHeapProcess.runStock("-XX:+PrintFlagsFinal", "-version").firstMatch("bool (Use\\w+GC) +=\\s+true", 1);
        if (!ourGc.equals(stockGc)) {
            throw new RuntimeException("default collector " + ourGc + " differs from stock " + stockGc);
        }

        // Ordinary work, with H2 mapped, collected correctly with and without heap verification.
        String path = "-XX:TeraHeapPath=" + new java.io.File(".").getAbsolutePath();
        for (String[] verify : new String[][] {{}, {"-XX:+UnlockDiagnosticVMOptions", "-XX:+VerifyBeforeGC", "-XX:+VerifyAfterGC"}}) {
            List<String> cmd = new ArrayList<>(List.of("-XX:+EnableTeraHeap", "-Xmx256m", "-XX:TeraHeapSize=256m", path));
            cmd.addAll(List.of(verify));
            cmd.add(Churn.class.getName());
            OutputAnalyzer out = TeraHeapProcess.run(cmd.toArray(new String[0]));
            out.shouldHaveExitValue(0);
            out.shouldContain("CHURN-OK");
        }
    }
}
