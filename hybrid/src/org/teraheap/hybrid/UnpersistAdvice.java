package org.teraheap.hybrid;

import net.bytebuddy.asm.Advice;
import org.apache.spark.scheduler.SparkListenerUnpersistRDD;

/**
 * Advice woven into Spark's {@code AppStatusListener} (in the driver): when an RDD is unpersisted,
 * Spark's UI takes its memory off the executors' on-heap figure only, since Spark's own RDDs are
 * all on or all off the heap; the RDD's part in the file tier ({@link FileBlockStatus}) is taken
 * off their off-heap figure. The listener is an Object here: naming the class
 * being adapted in its advice would load it in the middle of its own definition.
 */
final class UnpersistAdvice {
    private UnpersistAdvice() {
    }

    /** {@code onUnpersistRDD(event)}. */
    static final class Enter {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.FieldValue("liveRDDs") Object rdds, @Advice.FieldValue("liveExecutors") Object executors,
                          @Advice.Argument(0) SparkListenerUnpersistRDD event) {
            FileBlockStatus.unpersisting(rdds, executors, event.rddId());
        }
    }
}
