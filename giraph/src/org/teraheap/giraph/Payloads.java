package org.teraheap.giraph;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Finds the objects that hold Giraph's edge and message data, the ones worth tagging as roots.
 *
 * <p>A tagged root moves to H2 with everything it reaches. Most of Giraph's own objects reach
 * the job's configuration (and through it the whole worker), so tagging an {@code OutEdges} or a
 * message store would drag the worker into H2. This class therefore picks the data below them:
 * byte arrays, the JDK's and fastutil's collections, and the byte streams that hold serialized
 * messages, whose closures hold nothing but the data.
 *
 * <p>It works by reflection on Giraph's field names, so that the agent's classes need no link to
 * Giraph's (Giraph may be loaded by a job's class loader the agent cannot see). A store it does not
 * know is reported once and left in H1.
 */
final class Payloads {
    private Payloads() {
    }

    private static final String GIRAPH_CONFIGURABLE =
        "org.apache.giraph.conf.DefaultImmutableClassesGiraphConfigurable";
    private static final String DATA_INPUT_OUTPUT = "org.apache.giraph.utils.io.DataInputOutput";
    private static final String BIG_DATA_OUTPUT = "org.apache.giraph.utils.io.BigDataOutput";
    private static final String BASIC_TO_OBJECT_MAP = "org.apache.giraph.types.ops.collections.Basic2ObjectMap";
    private static final String DISK_BACKED = "org.apache.giraph.ooc.data.DiskBackedMessageStore";

    /** The data fields of each {@code OutEdges} class: what {@link #ofEdges} reads. */
    private static final ClassValue<Field[]> EDGE_FIELDS = new ClassValue<Field[]>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                if (c.getName().equals(GIRAPH_CONFIGURABLE)) {
                    break;   // the configuration: never data
                }
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !f.getType().isPrimitive()
                            && accessible(f)) {
                        fields.add(f);
                    }
                }
            }
            return fields.toArray(new Field[0]);
        }
    };

    /**
     * Calls {@code sink} with the data objects of one vertex's {@code OutEdges}: its arrays and
     * collections (a {@code ByteArrayEdges}' byte array, an {@code ArrayListEdges}' list, the
     * primitive lists of {@code LongDoubleArrayEdges}).
     */
    static void ofEdges(Object outEdges, Consumer<Object> sink) {
        for (Field f : EDGE_FIELDS.get(outEdges.getClass())) {
            Object value = read(f, outEdges);
            if (value == null) {
                continue;
            }
            if (isPlainData(value)) {
                sink.accept(value);
            } else if (value.getClass().getName().startsWith("org.apache.giraph.types.ops.collections.")) {
                // Giraph's typed lists wrap a fastutil list beside their type's singleton operations.
                for (Field inner : EDGE_FIELDS.get(value.getClass())) {
                    Object data = read(inner, value);
                    if (data != null && isPlainData(data)) {
                        sink.accept(data);
                    }
                }
            }
        }
    }

    /**
     * Calls {@code sink} with the data objects of a complete message store: per partition, the map
     * of messages when its entries are plain data, or per vertex the byte streams of serialized
     * messages. Returns false if the store's layout is not one this class knows.
     */
    static boolean ofMessageStore(Object store, Consumer<Object> sink) {
        Object inner = fieldValue(store, "store");   // AsyncMessageStoreWrapper
        if (inner != null && inner != store) {
            return ofMessageStore(inner, sink);
        }
        if (store.getClass().getName().equals(DISK_BACKED)) {
            return false;
        }
        Object partitions = fieldValue(store, "map");
        if (!(partitions instanceof Map)) {
            return false;
        }
        for (Object perPartition : snapshot(((Map<?, ?>) partitions).values())) {
            if (perPartition != null && !ofPartitionMessages(perPartition, sink)) {
                return false;
            }
        }
        // Pointer-list stores keep every message in one shared buffer of byte streams.
        Object buffer = fieldValue(store, "bytesBuffer");
        if (buffer != null) {
            Object outputs = fieldValue(buffer, "bytearrayOutputs");
            if (!(outputs instanceof Map)) {
                return false;
            }
            for (Object out : snapshot(((Map<?, ?>) outputs).values())) {
                if (out != null) {
                    sink.accept(out);
                }
            }
        }
        return true;
    }

    private static boolean ofPartitionMessages(Object perPartition, Consumer<Object> sink) {
        if (isSubclassOf(perPartition.getClass(), BASIC_TO_OBJECT_MAP)) {
            perPartition = fieldValue(perPartition, "map");   // beside it: a writer holding the configuration
        }
        if (!(perPartition instanceof Map)) {
            return false;
        }
        Map<?, ?> messages = (Map<?, ?>) perPartition;
        Object first = firstValue(messages);
        if (first == null || !isSubclassOf(first.getClass(), DATA_INPUT_OUTPUT)) {
            // One combined message, a pointer list or a primitive per vertex: the whole map is data.
            if (!messages.isEmpty()) {
                sink.accept(messages);
            }
            return true;
        }
        // Serialized messages per vertex: the holder refers to the configuration, its stream does not.
        for (Object holder : snapshot(messages.values())) {
            if (holder != null && !ofDataInputOutput(holder, sink)) {
                return false;
            }
        }
        return true;
    }

    private static boolean ofDataInputOutput(Object holder, Consumer<Object> sink) {
        Object out = fieldValue(holder, "dataOutput");
        if (out == null) {
            return false;
        }
        if (!out.getClass().getName().equals(BIG_DATA_OUTPUT)) {
            sink.accept(out);   // ExtendedDataInputOutput: one byte stream
            return true;
        }
        Object streams = fieldValue(out, "dataOutputs");   // BigDataOutput: a list of byte streams
        if (!(streams instanceof Collection)) {
            return false;
        }
        for (Object stream : snapshot((Collection<?>) streams)) {
            if (stream != null) {
                sink.accept(stream);
            }
        }
        return true;
    }

    /** Arrays and the JDK's and fastutil's collections: their closures are the data alone. */
    private static boolean isPlainData(Object value) {
        if (value.getClass().isArray()) {
            return true;
        }
        String name = value.getClass().getName();
        return (name.startsWith("java.util.") || name.startsWith("it.unimi.dsi.fastutil."))
            && (value instanceof Collection || value instanceof Map
                || name.startsWith("it.unimi.dsi.fastutil."));
    }

    private static Object firstValue(Map<?, ?> map) {
        for (Object v : map.values()) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static <T> List<T> snapshot(Collection<T> values) {
        return new ArrayList<>(values);
    }

    private static boolean isSubclassOf(Class<?> type, String name) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    /** The value of the instance field {@code name} declared by the object's class or a superclass. */
    static Object fieldValue(Object obj, String name) {
        Field f = FIELDS.get(obj.getClass()).get(name);
        return f == null ? null : read(f, obj);
    }

    private static final ClassValue<Map<String, Field>> FIELDS = new ClassValue<Map<String, Field>>() {
        @Override
        protected Map<String, Field> computeValue(Class<?> type) {
            Map<String, Field> byName = new java.util.HashMap<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (!Modifier.isStatic(f.getModifiers()) && !byName.containsKey(f.getName())
                            && accessible(f)) {
                        byName.put(f.getName(), f);
                    }
                }
            }
            return byName;
        }
    };

    private static boolean accessible(Field f) {
        try {
            f.setAccessible(true);
            return true;
        } catch (RuntimeException inaccessible) {   // a JDK class in a named module
            return false;
        }
    }

    private static Object read(Field f, Object obj) {
        try {
            return f.get(obj);
        } catch (IllegalAccessException e) {
            return null;
        }
    }
}
