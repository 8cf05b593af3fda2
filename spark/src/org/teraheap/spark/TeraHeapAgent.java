package org.teraheap.spark;

import static net.bytebuddy.matcher.ElementMatchers.hasDescriptor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.lang.instrument.Instrumentation;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;
import org.teraheap.TeraHeap;

/**
 * The Java agent that puts the blocks Spark caches deserialized into H2.
 *
 * <p>Given as {@code -javaagent:teraheap-spark.jar} to the driver and the executors. On a JVM
 * without TeraHeap on it returns at once and changes nothing. Otherwise it weaves advice into
 * three classes of unmodified Spark 3.5 as they load: {@code MemoryStore} offers each
 * deserialized RDD block it stores to {@link H2StorageBudget}, which counts it against H2 instead
 * of H1's storage pool and tags it for the move; H1's evictions skip such blocks;
 * {@code MemoryManager} returns their budget when they are removed; {@code BlockManagerMaster}
 * registers the executor's storage memory with the driver as H1's pool plus H2's budget. Each
 * advised method must have exactly the signature it has in Spark 3.5; if one does not (another
 * Spark version), the agent says so in one line and leaves Spark entirely alone. Spark must be on the application class path, where the agent is: a Spark
 * that another class loader defines is refused in one line and left alone (its classes could not
 * see the agent's, nor the agent its). Advice never throws into Spark: an error inside it is
 * reported once, and the block concerned takes Spark's usual path.
 *
 * <p>Agent options, comma separated after {@code =}: {@code budget=<fraction of H2>} (default
 * 1: the room that H2's regions leave unused, a partly filled last region per RDD, is counted
 * when a block is admitted) or {@code budgetBytes=<bytes>} (an exact budget).
 */
public final class TeraHeapAgent {
    private static final String MEMORY_STORE = "org.apache.spark.storage.memory.MemoryStore";
    private static final String MEMORY_MANAGER = "org.apache.spark.memory.MemoryManager";
    private static final String BLOCK_MANAGER_MASTER = "org.apache.spark.storage.BlockManagerMaster";

    // The advised methods, as Spark 3.5 compiles them.
    private static final String BLOCK_ID = "Lorg/apache/spark/storage/BlockId;";
    private static final String MEMORY_MODE = "Lorg/apache/spark/memory/MemoryMode;";
    static final String PUT_ITERATOR_AS_VALUES = "(" + BLOCK_ID + "Lscala/collection/Iterator;"
        + MEMORY_MODE + "Lscala/reflect/ClassTag;)Lscala/util/Either;";
    static final String REMOVE = "(" + BLOCK_ID + ")Z";
    static final String BLOCK_IS_EVICTABLE = "(" + BLOCK_ID
        + "Lorg/apache/spark/storage/memory/MemoryEntry;" + MEMORY_MODE + "Lscala/Option;)Z";
    static final String RELEASE_STORAGE_MEMORY = "(J" + MEMORY_MODE + ")V";
    static final String RELEASE_ALL_STORAGE_MEMORY = "()V";
    private static final String BLOCK_MANAGER_ID = "Lorg/apache/spark/storage/BlockManagerId;";
    static final String REGISTER_BLOCK_MANAGER = "(" + BLOCK_MANAGER_ID + "[Ljava/lang/String;JJ"
        + "Lorg/apache/spark/rpc/RpcEndpointRef;Z)" + BLOCK_MANAGER_ID;

    private static boolean reportedLoader;

    private TeraHeapAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        if (!TeraHeap.isEnabled()) {
            return;   // A stock JVM or TeraHeap off: Spark runs untouched.
        }
        long capacity = TeraHeap.stats().capacityBytes();
        long budget = budgetBytes(options, capacity);
        H2StorageBudget.install(budget);
        System.err.printf("[teraheap-spark] cached deserialized blocks go to H2: budget %d MB of %d MB%n",
            budget >> 20, capacity >> 20);

        new AgentBuilder.Default()
            .disableClassFormatChanges()
            // Only Spark's three classes are looked at; nothing else is parsed.
            .ignore(not(named(MEMORY_STORE).or(named(MEMORY_MANAGER)).or(named(BLOCK_MANAGER_MASTER))))
            .with(new Failures())
            .type(named(MEMORY_STORE))
            .transform((builder, type, loader, module, domain) -> {
                if (!onAgentClassPath(type, loader)) {
                    return builder;
                }
                builder = weave(builder, type, MemoryStoreAdvice.PutValues.class,
                    "putIteratorAsValues", PUT_ITERATOR_AS_VALUES);
                builder = weave(builder, type, MemoryStoreAdvice.Remove.class, "remove", REMOVE);
                return weave(builder, type, MemoryStoreAdvice.Evictable.class,
                    "blockIsEvictable$1", BLOCK_IS_EVICTABLE);
            })
            .type(named(MEMORY_MANAGER))
            .transform((builder, type, loader, module, domain) -> {
                if (!onAgentClassPath(type, loader)) {
                    return builder;
                }
                builder = weave(builder, type, MemoryManagerAdvice.ReleaseStorage.class,
                    "releaseStorageMemory", RELEASE_STORAGE_MEMORY);
                return weave(builder, type, MemoryManagerAdvice.ReleaseAll.class,
                    "releaseAllStorageMemory", RELEASE_ALL_STORAGE_MEMORY);
            })
            .type(named(BLOCK_MANAGER_MASTER))
            .transform((builder, type, loader, module, domain) -> {
                if (!onAgentClassPath(type, loader)) {
                    return builder;
                }
                return weave(builder, type, BlockManagerMasterAdvice.Register.class,
                    "registerBlockManager", REGISTER_BLOCK_MANAGER);
            })
            .installOn(instrumentation);
    }

    /**
     * Whether Spark's {@code type} is defined by the class loader the agent is on: the advice
     * woven into it calls the agent's classes, which name Spark's classes as that loader sees
     * them. A Spark in another loader (a second Spark, or one isolated from the application class
     * path) is left alone, and said so once.
     */
    private static boolean onAgentClassPath(TypeDescription type, ClassLoader loader) {
        if (loader == TeraHeapAgent.class.getClassLoader()) {
            return true;
        }
        synchronized (TeraHeapAgent.class) {
            if (!reportedLoader) {
                reportedLoader = true;
                System.err.println("[teraheap-spark] " + type.getName() + " is loaded by " + loader
                    + ", not by the application class loader the agent is on: that Spark is left"
                    + " alone and its cached blocks stay in H1; put Spark's jars on the class path");
            }
        }
        return false;
    }

    /**
     * Weaves {@code advice} into the method of {@code type} with that name and descriptor: Spark
     * 3.5's. Any other signature (another Spark version) leaves Spark alone.
     */
    private static DynamicType.Builder<?> weave(DynamicType.Builder<?> builder, TypeDescription type,
                                               Class<?> advice, String name, String descriptor) {
        ElementMatcher<MethodDescription> method = named(name).and(hasDescriptor(descriptor));
        if (type.getDeclaredMethods().filter(method).size() != 1) {
            H2StorageBudget.adviceMissing();
            System.err.println("[teraheap-spark] " + type.getName() + " has no method " + name
                + descriptor + " (Spark 3.5's); this jar supports Spark 3.5."
                + " Spark is left alone: cached blocks stay in H1.");
            return builder;
        }
        H2StorageBudget.adviceWoven();
        return builder.visit(Advice.to(advice).on(method));
    }

    static long budgetBytes(String options, long capacity) {
        double fraction = 1.0;
        long bytes = -1;
        if (options != null && !options.isEmpty()) {
            for (String option : options.split(",")) {
                String[] kv = option.split("=", 2);
                try {
                    if (kv.length == 2 && kv[0].equals("budget")) {
                        fraction = Double.parseDouble(kv[1]);
                        if (fraction > 0 && fraction <= 1) {
                            continue;
                        }
                    } else if (kv.length == 2 && kv[0].equals("budgetBytes")) {
                        bytes = Long.parseLong(kv[1]);
                        if (bytes >= 0) {
                            continue;
                        }
                    }
                } catch (NumberFormatException e) {
                    // falls through to the error below
                }
                throw new IllegalArgumentException("teraheap-spark: bad agent option '" + option
                    + "'; use budget=<fraction of H2, above 0, at most 1> or budgetBytes=<bytes>");
            }
        }
        return bytes >= 0 ? Math.min(bytes, capacity) : (long) (capacity * fraction);
    }

    /** Reports a Spark class that could not be adapted: Spark then runs without TeraHeap's help. */
    private static final class Failures extends AgentBuilder.Listener.Adapter {
        @Override
        public void onError(String name, ClassLoader loader, JavaModule module, boolean loaded,
                            Throwable error) {
            H2StorageBudget.adviceMissing();
            System.err.println("[teraheap-spark] cannot adapt " + name + " (" + error
                + "); this jar supports Spark 3.5. Cached blocks stay in H1.");
        }
    }
}
