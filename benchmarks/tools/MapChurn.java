// Map lookups and small allocations, timed: a control for the JVM-cost runs of docs/results/giraph.md.
import java.util.*;

public class MapChurn {
  public static void main(String[] a) {
    long t0 = System.nanoTime(); long sum = 0;
    for (int round = 0; round < 12; round++) {
      HashMap<Long, long[]> m = new HashMap<>();
      Random r = new Random(round);
      for (int i = 0; i < 3_000_000; i++) {
        long k = r.nextInt(1_000_000);
        long[] v = m.get(k);
        if (v == null) { v = new long[4]; m.put(k, v); }
        v[i & 3] += i;
        if ((i & 7) == 0) { byte[] junk = new byte[64]; sum += junk.length; }
      }
      for (long[] v : m.values()) sum += v[0];
    }
    System.out.printf("%.2f s %d%n", (System.nanoTime() - t0) / 1e9, sum);
  }
}
