// Random pointer chasing through the old generation after a full GC: a control for the JVM-cost runs of docs/results/giraph.md.
// usage: java -Xmx1g -XX:+UseParallelGC PointerChase.java [NODES] [PASSES]
import java.util.Random;

public class PointerChase {
  static final class Node {
    Node next;
    long value;
    Node(long value) { this.value = value; }
  }

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    Node[] nodes = new Node[n];
    for (int i = 0; i < n; i++) {
      nodes[i] = new Node(i);
    }
    // One cycle through all nodes in a random order: each step lands somewhere else in the heap.
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    Random random = new Random(42);
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = order[i]; order[i] = order[j]; order[j] = t;
    }
    for (int i = 0; i < n; i++) {
      nodes[order[i]].next = nodes[order[(i + 1) % n]];
    }
    order = null;
    long gcStart = System.nanoTime();
    System.gc();   // the nodes now sit in the old generation, compacted
    long gcNanos = System.nanoTime() - gcStart;
    long best = Long.MAX_VALUE, sum = 0, checksum = 0;
    for (int p = 0; p < passes; p++) {
      long start = System.nanoTime();
      Node x = nodes[0];
      for (int i = 0; i < n; i++) {
        checksum += x.value;
        x = x.next;
      }
      long took = System.nanoTime() - start;
      best = Math.min(best, took);
      sum += took;
      // Young GCs between passes, as in a job.
      Object[] young = new Object[1000];
      for (int k = 0; k < 200_000; k++) {
        young[k % young.length] = new long[8];
      }
    }
    System.out.printf("ns per step: best %.1f, mean %.1f; full GC %.0f ms; checksum %d%n",
                      best / (double) n, sum / (double) passes / n, gcNanos / 1e6, checksum);
  }
}
