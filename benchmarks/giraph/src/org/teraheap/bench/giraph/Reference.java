package org.teraheap.bench.giraph;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Locale;
import java.util.PriorityQueue;

/**
 * The workloads' results computed in plain Java, without Giraph, by the textbook algorithms
 * (BFS by a queue, SSSP by Dijkstra, WCC by union-find, PR by power iteration, CDLP by
 * synchronous rounds), to check the Giraph results with {@link Compare}. Meant for small graphs
 * (scale 1 and below): everything is in memory.
 *
 * <pre>Reference &lt;workload&gt; &lt;edge file&gt; &lt;out file&gt; [--iterations n] [--source id]</pre>
 *
 * Reads the edge list exactly as the Giraph job does (undirected, self-loops dropped, only
 * vertices with an edge exist) and writes {@code id<TAB>value} lines sorted by id.
 */
public final class Reference {

    private Reference() {
    }

    public static void main(String[] args) {
        if (args.length < 3 || Workload.byId(args[0]) == null) {
            usage("");
        }
        Workload workload = Workload.byId(args[0]);
        int iterations = BenchConf.DEFAULT_ITERATIONS;
        Long source = null;
        for (int i = 3; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                usage("missing value after " + args[i]);
            }
            try {
                if (args[i].equals("--iterations")) {
                    iterations = Integer.parseInt(args[i + 1]);
                } else if (args[i].equals("--source")) {
                    source = Long.parseLong(args[i + 1]);
                } else {
                    usage("unknown option " + args[i]);
                }
            } catch (NumberFormatException e) {
                usage(args[i] + " needs a number, got '" + args[i + 1] + "'");
            }
        }
        try {
            long start = System.nanoTime();
            Graph g = Graph.read(new File(args[1]));
            long[] longs = null;
            double[] doubles = null;
            switch (workload) {
                case PR:
                    doubles = pageRank(g, iterations);
                    break;
                case CDLP:
                    longs = labelPropagation(g, iterations);
                    break;
                case WCC:
                    longs = connectedComponents(g);
                    break;
                case BFS:
                    longs = breadthFirst(g, sourceIndex(g, source));
                    break;
                case SSSP:
                    doubles = dijkstra(g, sourceIndex(g, source));
                    break;
                default:
                    throw new AssertionError(workload);
            }
            write(new File(args[2]), g, longs, doubles);
            double seconds = (System.nanoTime() - start) / 1e9;
            VertexResults written = VertexResults.read(new File(args[2]), workload.doubleValues);
            System.out.println(String.format(Locale.ROOT,
                    "REFERENCE workload=%s seconds=%.3f vertices=%d checksum=%s", workload.id,
                    seconds, g.size(), VertexResults.hex(written.checksum(workload))));
        } catch (IOException e) {
            System.err.println("Reference: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void usage(String problem) {
        if (!problem.isEmpty()) {
            System.err.println("Reference: " + problem);
        }
        System.err.println("usage: Reference <workload> <edge file> <out file> [--iterations n] "
                + "[--source id]   (workloads: " + Workload.names() + ")");
        System.exit(2);
    }

    /** The source's index: the given id (-1 if no such vertex), else the smallest id. */
    private static int sourceIndex(Graph g, Long source) {
        if (source == null) {
            return g.size() > 0 ? 0 : -1;
        }
        int index = Arrays.binarySearch(g.ids, source);
        return index >= 0 ? index : -1;
    }

    static double[] pageRank(Graph g, int iterations) {
        int n = g.size();
        double[] rank = new double[n];
        Arrays.fill(rank, 1.0 / n);
        double[] contribution = new double[n];
        for (int it = 0; it < iterations; it++) {
            double dangling = 0;
            for (int u = 0; u < n; u++) {
                int degree = g.degree(u);
                if (degree == 0) {
                    dangling += rank[u];
                } else {
                    contribution[u] = rank[u] / degree;
                }
            }
            double[] next = new double[n];
            for (int v = 0; v < n; v++) {
                double sum = 0;
                for (int e = g.offsets[v]; e < g.offsets[v + 1]; e++) {
                    sum += contribution[g.neighbours[e]];
                }
                next[v] = PageRank.pageRankStep(sum, dangling, n);
            }
            rank = next;
        }
        return rank;
    }

    static long[] labelPropagation(Graph g, int iterations) {
        int n = g.size();
        long[] label = g.ids.clone();
        long[] scratch = new long[16];
        for (int it = 0; it < iterations; it++) {
            long[] next = new long[n];
            for (int v = 0; v < n; v++) {
                int degree = g.degree(v);
                if (degree == 0) {
                    next[v] = label[v];
                    continue;
                }
                if (scratch.length < degree) {
                    scratch = new long[degree];
                }
                for (int k = 0; k < degree; k++) {
                    scratch[k] = label[g.neighbours[g.offsets[v] + k]];
                }
                next[v] = LabelPropagation.mostFrequent(scratch, degree);
            }
            label = next;
        }
        return label;
    }

    static long[] connectedComponents(Graph g) {
        int n = g.size();
        int[] parent = new int[n];
        for (int v = 0; v < n; v++) {
            parent[v] = v;
        }
        for (int v = 0; v < n; v++) {
            for (int e = g.offsets[v]; e < g.offsets[v + 1]; e++) {
                int a = find(parent, v);
                int b = find(parent, g.neighbours[e]);
                // The smaller index as root: ids are sorted, so the root is the component's
                // smallest id.
                if (a < b) {
                    parent[b] = a;
                } else if (b < a) {
                    parent[a] = b;
                }
            }
        }
        long[] component = new long[n];
        for (int v = 0; v < n; v++) {
            component[v] = g.ids[find(parent, v)];
        }
        return component;
    }

    private static int find(int[] parent, int v) {
        while (parent[v] != v) {
            parent[v] = parent[parent[v]]; // path halving
            v = parent[v];
        }
        return v;
    }

    static long[] breadthFirst(Graph g, int source) {
        long[] depth = new long[g.size()];
        Arrays.fill(depth, BreadthFirstSearch.UNREACHABLE);
        if (source < 0) {
            return depth;
        }
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        depth[source] = 0;
        queue.add(source);
        while (!queue.isEmpty()) {
            int u = queue.poll();
            for (int e = g.offsets[u]; e < g.offsets[u + 1]; e++) {
                int v = g.neighbours[e];
                if (depth[v] == BreadthFirstSearch.UNREACHABLE) {
                    depth[v] = depth[u] + 1;
                    queue.add(v);
                }
            }
        }
        return depth;
    }

    static double[] dijkstra(Graph g, int source) {
        double[] distance = new double[g.size()];
        Arrays.fill(distance, Double.POSITIVE_INFINITY);
        if (source < 0) {
            return distance;
        }
        boolean[] settled = new boolean[g.size()];
        // Lazy deletion: a vertex may be queued more than once; only its first pop counts.
        PriorityQueue<Tentative> queue = new PriorityQueue<>();
        distance[source] = 0;
        queue.add(new Tentative(0, source));
        while (!queue.isEmpty()) {
            int u = queue.poll().vertex;
            if (settled[u]) {
                continue;
            }
            settled[u] = true;
            for (int e = g.offsets[u]; e < g.offsets[u + 1]; e++) {
                int v = g.neighbours[e];
                double d = distance[u] + g.weights[e];
                if (d < distance[v]) {
                    distance[v] = d;
                    queue.add(new Tentative(d, v));
                }
            }
        }
        return distance;
    }

    private static final class Tentative implements Comparable<Tentative> {
        final double distance;
        final int vertex;

        Tentative(double distance, int vertex) {
            this.distance = distance;
            this.vertex = vertex;
        }

        @Override
        public int compareTo(Tentative o) {
            return Double.compare(distance, o.distance);
        }
    }

    private static void write(File out, Graph g, long[] longs, double[] doubles) throws IOException {
        try (Writer w = Files.newBufferedWriter(out.toPath(), StandardCharsets.UTF_8)) {
            for (int v = 0; v < g.size(); v++) {
                w.write(Long.toString(g.ids[v]));
                w.write('\t');
                // The same text as Giraph's LongWritable / DoubleWritable.toString().
                w.write(longs != null ? Long.toString(longs[v]) : Double.toString(doubles[v]));
                w.write('\n');
            }
        }
    }

    /** An undirected graph in compressed sparse rows; vertex v is ids[v], ids ascending. */
    static final class Graph {
        long[] ids;
        int[] offsets;
        int[] neighbours;
        double[] weights;

        int size() {
            return ids.length;
        }

        int degree(int v) {
            return offsets[v + 1] - offsets[v];
        }

        static Graph read(File file) throws IOException {
            long[] src = new long[1024];
            long[] dst = new long[1024];
            double[] weight = new double[1024];
            int m = 0;
            EdgeLine edge = new EdgeLine();
            try (BufferedReader in = Files.newBufferedReader(file.toPath(), StandardCharsets.UTF_8)) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (!edge.parse(line) || edge.source == edge.target) {
                        continue;
                    }
                    if (m == src.length) {
                        src = Arrays.copyOf(src, m * 2);
                        dst = Arrays.copyOf(dst, m * 2);
                        weight = Arrays.copyOf(weight, m * 2);
                    }
                    src[m] = edge.source;
                    dst[m] = edge.target;
                    weight[m] = edge.weight;
                    m++;
                }
            }
            Graph g = new Graph();
            long[] all = new long[2 * m];
            System.arraycopy(src, 0, all, 0, m);
            System.arraycopy(dst, 0, all, m, m);
            Arrays.sort(all);
            int n = 0;
            for (int i = 0; i < all.length; i++) {
                if (i == 0 || all[i] != all[i - 1]) {
                    all[n++] = all[i];
                }
            }
            g.ids = Arrays.copyOf(all, n);
            int[] s = new int[m];
            int[] t = new int[m];
            g.offsets = new int[n + 1];
            for (int e = 0; e < m; e++) {
                s[e] = Arrays.binarySearch(g.ids, src[e]);
                t[e] = Arrays.binarySearch(g.ids, dst[e]);
                g.offsets[s[e] + 1]++;
                g.offsets[t[e] + 1]++;
            }
            for (int v = 0; v < n; v++) {
                g.offsets[v + 1] += g.offsets[v];
            }
            // Each line in both directions, as the Giraph input format gives it.
            int[] fill = Arrays.copyOf(g.offsets, n);
            g.neighbours = new int[2 * m];
            g.weights = new double[2 * m];
            for (int e = 0; e < m; e++) {
                g.neighbours[fill[s[e]]] = t[e];
                g.weights[fill[s[e]]++] = weight[e];
                g.neighbours[fill[t[e]]] = s[e];
                g.weights[fill[t[e]]++] = weight[e];
            }
            return g;
        }
    }
}
