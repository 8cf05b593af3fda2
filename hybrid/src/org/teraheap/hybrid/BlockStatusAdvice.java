package org.teraheap.hybrid;

import net.bytebuddy.asm.Advice;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.BlockStatus;

/**
 * Advice woven into Spark's {@code BlockManager}: the status it reports to the driver for a block
 * in the file tier says where the block is ({@link FileBlockStatus}).
 */
final class BlockStatusAdvice {
    private BlockStatusAdvice() {
    }

    /** {@code getCurrentBlockStatus(blockId, info)}, which every report of a stored or removed block reads. */
    static final class Current {
        @Advice.OnMethodExit(suppress = Throwable.class)
        static void exit(@Advice.Argument(0) BlockId block, @Advice.Return(readOnly = false) BlockStatus status) {
            long fileBytes = FileTier.fileBytesOf(block);
            if (fileBytes >= 0 && status != null) {
                status = FileBlockStatus.inFile(status, fileBytes);
            }
        }
    }

    /** {@code reportBlockStatus(blockId, status, droppedMemorySize)}. */
    static final class Report {
        @Advice.OnMethodEnter(suppress = Throwable.class)
        static void enter(@Advice.Argument(0) BlockId block,
                          @Advice.Argument(value = 1, readOnly = false) BlockStatus status) {
            status = FileBlockStatus.toReport(block, status);
        }
    }
}
