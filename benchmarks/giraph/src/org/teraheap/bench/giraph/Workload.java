package org.teraheap.bench.giraph;

import org.apache.giraph.combiner.MessageCombiner;
import org.apache.giraph.graph.Computation;
import org.apache.giraph.master.DefaultMasterCompute;
import org.apache.giraph.master.MasterCompute;

/** The five Graphalytics workloads, and what the runner needs to know to set each one up. */
enum Workload {
    PR("pr", true, PageRank.class, PageRank.Master.class, Combiners.DoubleSum.class),
    CDLP("cdlp", false, LabelPropagation.class, LabelPropagation.Master.class, null),
    WCC("wcc", false, ConnectedComponents.class, DefaultMasterCompute.class, Combiners.LongMin.class),
    BFS("bfs", false, BreadthFirstSearch.class, SourceVertex.Master.class, Combiners.LongMin.class),
    SSSP("sssp", true, ShortestPaths.class, SourceVertex.Master.class, Combiners.DoubleMin.class);

    final String id;
    /** Whether vertex values are doubles (else longs). */
    final boolean doubleValues;
    @SuppressWarnings("rawtypes")
    final Class<? extends Computation> computation;
    final Class<? extends MasterCompute> master;
    /** The {@code --combiner} combiner; null where messages cannot be combined (cdlp). */
    @SuppressWarnings("rawtypes")
    final Class<? extends MessageCombiner> combiner;

    @SuppressWarnings("rawtypes")
    Workload(String id, boolean doubleValues, Class<? extends Computation> computation,
            Class<? extends MasterCompute> master, Class<? extends MessageCombiner> combiner) {
        this.id = id;
        this.doubleValues = doubleValues;
        this.computation = computation;
        this.master = master;
        this.combiner = combiner;
    }

    static Workload byId(String id) {
        for (Workload w : values()) {
            if (w.id.equals(id)) {
                return w;
            }
        }
        return null;
    }

    static String names() {
        StringBuilder sb = new StringBuilder();
        for (Workload w : values()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(w.id);
        }
        return sb.toString();
    }
}
