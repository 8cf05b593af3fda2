package org.teraheap.spark;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.net.URISyntaxException;
import java.util.Arrays;
import java.util.List;

import org.teraheap.TeraHeap;
import org.teraheap.spark.SparkWeaver.Field;
import org.teraheap.spark.SparkWeaver.Weave;

/**
 * The Java agent that puts the blocks Spark caches deserialized into H2.
 *
 * <p>Given as {@code -javaagent:teraheap-spark.jar} to the driver and the executors. On a JVM
 * without TeraHeap on it says so in one line and changes nothing. Otherwise it weaves advice into
 * three classes of unmodified Spark (3.5.x or 4.x) as they load: {@code MemoryStore} offers each
 * deserialized RDD block it stores to {@link H2StorageBudget}, which counts it against H2 instead
 * of H1's storage pool and tags it for the move; H1's evictions skip such blocks;
 * {@code MemoryManager} returns their budget when they are removed; {@code BlockManagerMaster}
 * registers the executor's storage memory with the driver as H1's pool plus H2's budget.
 *
 * <p>All or nothing: before Spark starts, the agent reads the release on the class path and the
 * advised methods' signatures from its class files. A release outside the lines it knows, or one
 * method without its expected signature, and the agent says which in one line and leaves Spark
 * entirely alone. (Spark 4 builds its memory store only after registering the block manager, so
 * the check cannot wait for the classes to load.) Spark must be on the application class path,
 * where the agent is: a Spark that another class loader defines is refused in one line and left
 * alone (its classes could not see the agent's, nor the agent its). Advice never throws into
 * Spark: an error inside it is reported once, and the block concerned takes Spark's usual path.
 *
 * <p>Agent options, comma separated after {@code =}: {@code budget=<fraction of H2>} (default
 * 1: the room that H2's regions leave unused, a partly filled last region per RDD, is counted
 * when a block is admitted) or {@code budgetBytes=<bytes>} (an exact budget), and
 * {@code adopt=stored|evicted} ({@link AgentOptions}).
 */
public final class TeraHeapAgent {
    private static final String MEMORY_STORE = "org.apache.spark.storage.memory.MemoryStore";
    private static final String MEMORY_MANAGER = "org.apache.spark.memory.MemoryManager";
    private static final String BLOCK_MANAGER_MASTER = "org.apache.spark.storage.BlockManagerMaster";
    /** The release lines whose advised methods this agent knows, in form and in meaning. */
    private static final String[] KNOWN_LINES = {"3.5", "4.0", "4.1", "4.2"};

    // The advised methods, as every known release compiles them.
    private static final String BLOCK_ID = "Lorg/apache/spark/storage/BlockId;";
    private static final String MEMORY_MODE = "Lorg/apache/spark/memory/MemoryMode;";
    private static final String BLOCK_MANAGER_ID = "Lorg/apache/spark/storage/BlockManagerId;";

    private static final List<Weave> WEAVES = Arrays.asList(
        new Weave(MEMORY_STORE, "putIteratorAsValues", "(" + BLOCK_ID + "Lscala/collection/Iterator;"
            + MEMORY_MODE + "Lscala/reflect/ClassTag;)Lscala/util/Either;", MemoryStoreAdvice.PutValues.class),
        new Weave(MEMORY_STORE, "remove", "(" + BLOCK_ID + ")Z", MemoryStoreAdvice.Remove.class),
        new Weave(MEMORY_STORE, "evictBlocksToFreeSpace", "(Lscala/Option;J" + MEMORY_MODE + ")J",
            MemoryStoreAdvice.Evict.class),
        new Weave(MEMORY_STORE, "blockIsEvictable$1", "(" + BLOCK_ID
            + "Lorg/apache/spark/storage/memory/MemoryEntry;" + MEMORY_MODE + "Lscala/Option;)Z",
            MemoryStoreAdvice.Evictable.class),
        new Weave(MEMORY_MANAGER, "releaseStorageMemory", "(J" + MEMORY_MODE + ")V",
            MemoryManagerAdvice.ReleaseStorage.class),
        new Weave(MEMORY_MANAGER, "releaseAllStorageMemory", "()V", MemoryManagerAdvice.ReleaseAll.class),
        new Weave(BLOCK_MANAGER_MASTER, "registerBlockManager", "(" + BLOCK_MANAGER_ID
            + "[Ljava/lang/String;JJLorg/apache/spark/rpc/RpcEndpointRef;Z)" + BLOCK_MANAGER_ID,
            BlockManagerMasterAdvice.Register.class));
    // MemoryStoreAdvice.PutValues reads these.
    private static final List<Field> FIELDS = SparkWeaver.fields(
        new Field(MEMORY_STORE, "entries", "java.util.LinkedHashMap"),
        new Field(MEMORY_STORE, "memoryManager", "org.apache.spark.memory.MemoryManager"));

    private TeraHeapAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        if (!TeraHeap.isEnabled()) {
            System.err.println("[teraheap-spark] TeraHeap is off in this JVM (" + System.getProperty("java.home")
                + "): cached blocks stay in H1. Run Spark with TeraHeap's JDK (JAVA_HOME=" + teraHeapJdk()
                + ") and -XX:+EnableTeraHeap -XX:TeraHeapSize=<size> -XX:TeraHeapPath=<dir>");
            return;
        }
        long capacity = TeraHeap.stats().capacityBytes();
        AgentOptions parsed;
        try {
            parsed = AgentOptions.parse(options, capacity);
        } catch (IllegalArgumentException e) {
            // One line and a clean exit: an exception out of premain aborts the JVM with a trace.
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        try {
            install(instrumentation, capacity, parsed);
        } catch (RuntimeException | LinkageError e) {
            System.err.println("[teraheap-spark] cannot read Spark's classes (" + e
                + "): Spark is left alone, cached blocks stay in H1");
        }
    }

    private static void install(Instrumentation instrumentation, long capacity, AgentOptions options) {
        SparkWeaver weaver = new SparkWeaver("[teraheap-spark]", "cached blocks stay in H1", WEAVES, FIELDS,
            H2StorageBudget::adviceMissing);
        SparkRelease release = weaver.check(KNOWN_LINES);
        if (release == null) {
            return;
        }
        H2StorageBudget.install(options.budgetBytes, options.adoptAtEviction);
        System.err.printf("[teraheap-spark] Spark %s: cached deserialized blocks go to H2%s: budget %d MB of %d MB%n",
            release.version(), options.adoptAtEviction ? " when H1's storage pool is full" : "",
            options.budgetBytes >> 20, capacity >> 20);
        weaver.install(instrumentation);
    }

    /** Where TeraHeap's JDK most likely is: beside this jar in the repository's build/. */
    private static String teraHeapJdk() {
        try {
            File jar = new File(TeraHeapAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            File jdk = new File(jar.getParentFile(), "jdk");
            if (new File(jdk, "bin/java").canExecute()) {
                return jdk.getPath();
            }
        } catch (URISyntaxException | RuntimeException e) {
            // falls through to the generic path
        }
        return "<repository>/build/jdk";
    }
}
