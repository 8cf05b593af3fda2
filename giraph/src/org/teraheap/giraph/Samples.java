package org.teraheap.giraph;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.teraheap.TeraHeap;

/**
 * The agent's {@code verify} option: a few tagged objects per label, held weakly, checked later for
 * having reached H2. Tests use its lines to prove that edges and messages really moved.
 */
final class Samples {
    private static final int PER_LABEL = 16;

    private final Map<Long, List<WeakReference<Object>>> byLabel = new HashMap<>();
    private final Map<Long, Integer> offered = new HashMap<>();

    /** Keeps the last objects tagged: a vertex's edges may be tagged, then replaced by a copy. */
    synchronized void offer(long label, Object tagged) {
        List<WeakReference<Object>> list = byLabel.computeIfAbsent(label, l -> new ArrayList<>());
        int n = offered.merge(label, 1, Integer::sum);
        if (list.size() < PER_LABEL) {
            list.add(new WeakReference<>(tagged));
        } else {
            list.set(n % PER_LABEL, new WeakReference<>(tagged));
        }
    }

    synchronized void clear() {
        byLabel.clear();
        offered.clear();
    }

    /**
     * Reports, at the start of {@code superstep}, where the sampled edges are, and where the
     * messages of {@code messagesLabel} (read by the superstep that just ended) went; then forgets
     * those messages.
     */
    synchronized void report(long superstep, long edgesLabel, long messagesLabel) {
        String messages = superstep < 2 ? "none yet"
            : "of superstep " + (superstep - 2) + " " + count(byLabel.remove(messagesLabel));
        offered.remove(messagesLabel);
        GiraphPlacement.log("verify: superstep %d: edges %s; messages %s", superstep,
            count(byLabel.get(edgesLabel)), messages);
    }

    private static String count(List<WeakReference<Object>> refs) {
        if (refs == null) {
            return "none sampled";
        }
        int inH2 = 0;
        int collected = 0;
        for (WeakReference<Object> ref : refs) {
            Object o = ref.get();
            if (o == null) {
                collected++;
            } else if (TeraHeap.isInH2(o)) {
                inH2++;
            }
        }
        return String.format("%d/%d in H2 (%d collected in H1)", inH2, refs.size(), collected);
    }
}
