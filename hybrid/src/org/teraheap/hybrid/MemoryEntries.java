package org.teraheap.hybrid;

import java.lang.reflect.Array;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.spark.memory.MemoryMode;
import org.apache.spark.storage.BlockId;
import org.apache.spark.storage.memory.DeserializedMemoryEntry;
import org.apache.spark.storage.memory.SerializedMemoryEntry;
import scala.reflect.ClassTag;

/** Reading Spark's memory entries (a block's values or bytes in its memory store) as they are. */
final class MemoryEntries {
    private MemoryEntries() {
    }

    /**
     * The entry of {@code id} in Spark's {@code entries}, or null, without making it recently
     * used (a {@code get} on the access-ordered map would). Holds the map's lock, as Spark does.
     */
    static Object find(LinkedHashMap<BlockId, ?> entries, BlockId id) {
        synchronized (entries) {
            if (!entries.containsKey(id)) {
                return null;
            }
            for (Map.Entry<BlockId, ?> e : entries.entrySet()) {
                if (e.getKey().equals(id)) {
                    return e.getValue();
                }
            }
            return null;
        }
    }

    static boolean onHeap(Object entry) {
        if (entry instanceof DeserializedMemoryEntry) {
            return ((DeserializedMemoryEntry<?>) entry).memoryMode() == MemoryMode.ON_HEAP;
        }
        return entry instanceof SerializedMemoryEntry && ((SerializedMemoryEntry<?>) entry).memoryMode() == MemoryMode.ON_HEAP;
    }

    /** The storage memory the entry holds, as Spark counted it. */
    static long size(Object entry) {
        if (entry instanceof DeserializedMemoryEntry) {
            return ((DeserializedMemoryEntry<?>) entry).size();
        }
        return entry instanceof SerializedMemoryEntry ? ((SerializedMemoryEntry<?>) entry).size() : 0;
    }

    /** The class tag of the block's values, as Spark kept it with the entry. */
    static ClassTag<?> classTag(Object entry) {
        return entry instanceof SerializedMemoryEntry ? ((SerializedMemoryEntry<?>) entry).classTag()
            : ((DeserializedMemoryEntry<?>) entry).classTag();
    }

    /** The elements of a block's array (of objects or of primitives), boxed as Spark's iterator gives them. */
    static Iterator<Object> elements(Object array) {
        int n = Array.getLength(array);
        return new Iterator<Object>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public Object next() {
                return Array.get(array, i++);
            }
        };
    }
}
