package org.teraheap.giraph;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Finds the objects that hold Giraph's edge and message data, the ones worth tagging as roots.
 *
 * <p>A tagged root moves to H2 with everything it reaches. Most of Giraph's own objects reach
 * the job's configuration (and through it the whole worker), so tagging an {@code OutEdges} or a
 * message store would drag the worker into H2. This class therefore picks the data below them:
 * byte arrays, the JDK's and fastutil's collections, the byte streams that hold serialized
 * messages, and message objects, none of which may refer to a configuration.
 *
 * <p>It works by reflection on Giraph's field and method names, so that the agent's classes need
 * no link to Giraph's (Giraph may be loaded by a job's class loader the agent cannot see). A store
 * it does not know is reported once and left in H1.
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
    private static final String HADOOP_CONFIGURATION = "org.apache.hadoop.conf.Configuration";
    /** Objects Giraph hands its configuration to as it makes them (WritableUtils.createWritable). */
    private static final String[] CONFIGURED = {
        "org.apache.giraph.conf.GiraphConfigurationSettable", "org.apache.hadoop.conf.Configurable",
        "org.apache.giraph.conf.ImmutableClassesGiraphConfigurable"};

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
     * primitive lists of {@code LongDoubleArrayEdges}). Returns how many it found.
     */
    static int ofEdges(Object outEdges, Consumer<Object> sink) {
        int found = 0;
        for (Field f : EDGE_FIELDS.get(outEdges.getClass())) {
            Object value = read(f, outEdges);
            if (value == null) {
                continue;
            }
            if (isPlainData(value)) {
                sink.accept(value);
                found++;
            } else if (value.getClass().getName().startsWith("org.apache.giraph.types.ops.collections.")) {
                // Giraph's typed lists wrap a fastutil list beside their type's singleton operations.
                for (Field inner : EDGE_FIELDS.get(value.getClass())) {
                    Object data = read(inner, value);
                    if (data != null && isPlainData(data)) {
                        sink.accept(data);
                        found++;
                    }
                }
            }
        }
        return found;
    }

    /**
     * Calls {@code sink} with the data objects of a complete message store: per vertex, its
     * message or the byte streams of its serialized messages; per partition, a fastutil map from
     * primitive ids. Returns false if the store's layout is not one this class knows.
     */
    static boolean ofMessageStore(Object store, Consumer<Object> sink) {
        Object inner = fieldValue(store, "store");   // AsyncMessageStoreWrapper
        if (inner != null && inner != store) {
            return ofMessageStore(inner, sink);
        }
        if (store.getClass().getName().equals(DISK_BACKED)) {
            return false;
        }
        // Pointer-list stores keep the messages' bytes in a shared buffer that thread-locals of
        // the receiving threads also reach; only their per-vertex pointer lists are taken below.
        Object partitions = fieldValue(store, "map");
        if (!(partitions instanceof Map)) {
            return false;
        }
        for (Object perPartition : snapshot(((Map<?, ?>) partitions).values())) {
            if (perPartition != null && !ofPartitionMessages(perPartition, sink)) {
                return false;
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
        if (first == null) {
            return true;
        }
        if (isSubclassOf(first.getClass(), DATA_INPUT_OUTPUT)) {
            // Serialized messages per vertex: the holder refers to the configuration, its streams do not.
            for (Object holder : snapshot(messages.values())) {
                if (holder != null && !ofDataInputOutput(holder, sink)) {
                    return false;
                }
            }
            return true;
        }
        if (!isConfigurationFree(first)) {
            return false;
        }
        if (perPartition.getClass().getName().startsWith("it.unimi.dsi.fastutil.")) {
            sink.accept(messages);   // keyed by primitive ids: the whole map is data
            return true;
        }
        // Keyed by id objects, which Giraph hands on to vertices it creates for messages to
        // missing vertices: only the values (a combined message, a pointer list) are data.
        for (Object value : snapshot(messages.values())) {
            if (value != null) {
                sink.accept(value);
            }
        }
        return true;
    }

    private static boolean ofDataInputOutput(Object holder, Consumer<Object> sink) {
        Set<Object> streams = streamsOf(holder);
        streams.forEach(sink);
        return !streams.isEmpty();
    }

    /**
     * The byte streams of one vertex's serialized messages: an ExtendedDataInputOutput's one
     * stream, or a BigDataOutput's stream being written and the full ones before it (none until
     * the first fills). Empty if the holder has no output.
     */
    private static Set<Object> streamsOf(Object holder) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Object out = fieldValue(holder, "dataOutput");
        if (out != null && !out.getClass().getName().equals(BIG_DATA_OUTPUT)) {
            seen.add(out);
        } else if (out != null) {
            Object streams = fieldValue(out, "dataOutputs");
            if (streams instanceof Collection) {
                seen.addAll(snapshot((Collection<?>) streams));
            }
            seen.add(fieldValue(out, "currentDataOutput"));
            seen.remove(null);
        }
        return seen;
    }

    /**
     * Calls {@code sink} with the byte arrays of a message store that is still being written:
     * each vertex's serialized messages. Each partition is read under the locks its writers take
     * (the partition's map for primitive ids, each vertex's holder otherwise), so every array
     * found is the one the stream writes to now. Returns false for other layouts: combined
     * messages (one per vertex, small) and pointer lists (one shared buffer) are left alone.
     */
    static boolean ofGrowingMessages(Object store, Consumer<Object> sink)
            throws ReflectiveOperationException {
        Object inner = fieldValue(store, "store");   // AsyncMessageStoreWrapper
        if (inner != null && inner != store) {
            return ofGrowingMessages(inner, sink);
        }
        Object partitions = fieldValue(store, "map");
        if (!(partitions instanceof Map) || store.getClass().getName().equals(DISK_BACKED)) {
            return false;
        }
        for (Object perPartition : snapshot(((Map<?, ?>) partitions).values())) {
            if (perPartition == null) {
                continue;
            }
            synchronized (perPartition) {
                Object messages = isSubclassOf(perPartition.getClass(), BASIC_TO_OBJECT_MAP)
                    ? fieldValue(perPartition, "map") : perPartition;
                if (!(messages instanceof Map)) {
                    return false;
                }
                for (Object holder : ((Map<?, ?>) messages).values()) {
                    if (holder == null) {
                        continue;
                    }
                    if (!isSubclassOf(holder.getClass(), DATA_INPUT_OUTPUT)) {
                        return false;
                    }
                    synchronized (holder) {
                        for (Object stream : streamsOf(holder)) {
                            sink.accept(invoke(stream, "getByteArray"));
                        }
                    }
                }
            }
        }
        return true;
    }

    /**
     * Arrays, and the JDK's and fastutil's collections whose elements (sampled) refer to no
     * configuration: their closures are the data alone.
     */
    private static boolean isPlainData(Object value) {
        if (value.getClass().isArray()) {
            return true;
        }
        String name = value.getClass().getName();
        if (name.startsWith("it.unimi.dsi.fastutil.")) {
            Object sample = value instanceof Map ? firstValue((Map<?, ?>) value)
                : value instanceof Collection ? firstElement((Collection<?>) value) : null;
            return sample == null || isConfigurationFree(sample);
        }
        if (name.startsWith("java.util.") && value instanceof Collection) {
            Object sample = firstElement((Collection<?>) value);
            return sample == null || isConfigurationFree(sample);
        }
        if (name.startsWith("java.util.") && value instanceof Map) {
            Map<?, ?> map = (Map<?, ?>) value;
            Object key = map.isEmpty() ? null : map.keySet().iterator().next();
            Object sample = firstValue(map);
            return (key == null || isConfigurationFree(key)) && (sample == null || isConfigurationFree(sample));
        }
        return false;
    }

    /**
     * Whether an object of a user's type (an edge value, a message), and what its fields refer to
     * now, can be free of Giraph's configuration: not a type Giraph configures, and no field that
     * holds a configuration.
     */
    static boolean isConfigurationFree(Object sample) {
        if (!CONFIGURATION_FREE.get(sample.getClass())) {
            return false;
        }
        for (Field f : FIELDS.get(sample.getClass()).values()) {
            if (!f.getType().isPrimitive()) {
                Object v = read(f, sample);
                if (v != null && !CONFIGURATION_FREE.get(v.getClass())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static final ClassValue<Boolean> CONFIGURATION_FREE = new ClassValue<Boolean>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            for (String configured : CONFIGURED) {
                if (implementsInterface(type, configured)) {
                    return false;
                }
            }
            if (isSubclassOf(type, HADOOP_CONFIGURATION)) {
                return false;
            }
            for (Field f : FIELDS.get(type).values()) {
                if (isSubclassOf(f.getType(), HADOOP_CONFIGURATION)) {
                    return false;
                }
            }
            return true;
        }
    };

    /** Whether {@code type} or a supertype implements the interface named {@code name}. */
    static boolean implementsInterface(Class<?> type, String name) {
        return INTERFACES.get(type).contains(name);
    }

    private static final ClassValue<Set<String>> INTERFACES = new ClassValue<Set<String>>() {
        @Override
        protected Set<String> computeValue(Class<?> type) {
            Set<String> names = new HashSet<>();
            List<Class<?>> todo = new ArrayList<>();
            todo.add(type);
            while (!todo.isEmpty()) {
                Class<?> c = todo.remove(todo.size() - 1);
                if (c == null) {
                    continue;
                }
                if (c.isInterface()) {
                    names.add(c.getName());
                }
                todo.add(c.getSuperclass());
                todo.addAll(java.util.Arrays.asList(c.getInterfaces()));
            }
            return names;
        }
    };

    /** Calls the public no-argument method {@code name} of {@code target}. */
    static Object invoke(Object target, String name) throws ReflectiveOperationException {
        Map<String, Method> methods = METHODS.get(target.getClass());
        Method m = methods.get(name);
        if (m == null) {
            m = target.getClass().getMethod(name);
            m.setAccessible(true);   // a public method of a class that is not public
            methods.put(name, m);
        }
        return m.invoke(target);
    }

    private static final ClassValue<Map<String, Method>> METHODS = new ClassValue<Map<String, Method>>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            return new ConcurrentHashMap<>();
        }
    };

    private static Object firstValue(Map<?, ?> map) {
        for (Object v : map.values()) {
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    private static Object firstElement(Collection<?> values) {
        for (Object v : values) {
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

    /** The bytes of a primitive array (an edge buffer); 0 for anything else. */
    static long arrayBytes(Object data) {
        Class<?> element = data.getClass().getComponentType();
        if (element == null || !element.isPrimitive()) {
            return 0;
        }
        int size = element == byte.class || element == boolean.class ? 1
            : element == short.class || element == char.class ? 2
            : element == int.class || element == float.class ? 4 : 8;
        return (long) size * Array.getLength(data);
    }

    /** The value of the instance field {@code name} declared by the object's class or a superclass. */
    static Object fieldValue(Object obj, String name) {
        Field f = FIELDS.get(obj.getClass()).get(name);
        return f == null ? null : read(f, obj);
    }

    private static final ClassValue<Map<String, Field>> FIELDS = new ClassValue<Map<String, Field>>() {
        @Override
        protected Map<String, Field> computeValue(Class<?> type) {
            Map<String, Field> byName = new HashMap<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                if (c.getName().startsWith("java.")) {
                    break;   // the JDK's internals: closed to reflection, and never Giraph's fields
                }
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
