package org.teraheap.bench.giraph;

import org.apache.giraph.worker.DefaultWorkerContext;

/**
 * {@code --gc-each-superstep}: a full collection before every superstep, so that tests know
 * when full collections (and so TeraHeap's moves to H2) happen, and H2's space is compared
 * with the data live in it after each ({@link H2Space}). Not for measurements.
 */
public class GcEachSuperstep extends DefaultWorkerContext {
    @Override
    public void preSuperstep() {
        System.gc();
        H2Space.afterSuperstepCollection(getSuperstep());
    }
}
