package org.teraheap.hybrid;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import com.sun.management.HotSpotDiagnosticMXBean;
import org.teraheap.spark.SparkRelease;
import org.teraheap.spark.SparkWeaver;
import org.teraheap.spark.SparkWeaver.Field;
import org.teraheap.spark.SparkWeaver.Weave;

/**
 * The Java agent of the hybrid DRAM/NVM RDD cache (docs/hybrid.md): Spark's cached RDD blocks in
 * two memory tiers, DRAM and a slower NVM (emulated, or a file on a device), with the paper's flat
 * or layered store.
 *
 * <p>Given as {@code -javaagent:hybrid-spark.jar[=options]} to the driver and the executors. It
 * weaves advice into unmodified Spark 3.5's {@code MemoryStore}, all or nothing (a method not in
 * its expected form and Spark is left alone, said in one line). It refuses, in one line, to run
 * beside TeraHeap (its agent, or {@code -XX:+EnableTeraHeap}): both would take the same blocks.
 * A bad option stops the JVM with one line. At exit it prints where the blocks went.
 */
public final class HybridAgent {
    private static final String MEMORY_STORE = "org.apache.spark.storage.memory.MemoryStore";
    private static final String[] KNOWN_LINES = {"3.5"};

    private static final String BLOCK_ID = "Lorg/apache/spark/storage/BlockId;";
    private static final String MEMORY_MODE = "Lorg/apache/spark/memory/MemoryMode;";
    private static final String CLASS_TAG = "Lscala/reflect/ClassTag;";
    private static final String BLOCK_MANAGER = "org.apache.spark.storage.BlockManager";
    private static final String STATUS_LISTENER = "org.apache.spark.status.AppStatusListener";
    private static final String BLOCK_STATUS = "Lorg/apache/spark/storage/BlockStatus;";

    private static final List<Weave> WEAVES = Arrays.asList(
        new Weave(MEMORY_STORE, "<init>", "(Lorg/apache/spark/SparkConf;Lorg/apache/spark/storage/BlockInfoManager;"
            + "Lorg/apache/spark/serializer/SerializerManager;Lorg/apache/spark/memory/MemoryManager;"
            + "Lorg/apache/spark/storage/memory/BlockEvictionHandler;)V", MemoryStoreAdvice.Created.class),
        new Weave(MEMORY_STORE, "reserveUnrollMemoryForThisTask", "(" + BLOCK_ID + "J" + MEMORY_MODE + ")Z",
            MemoryStoreAdvice.ReserveUnroll.class),
        new Weave(MEMORY_STORE, "releaseUnrollMemoryForThisTask", "(" + MEMORY_MODE + "J)V",
            MemoryStoreAdvice.ReleaseUnroll.class),
        new Weave(MEMORY_STORE, "putIterator", "(" + BLOCK_ID + "Lscala/collection/Iterator;" + CLASS_TAG
            + MEMORY_MODE + "Lorg/apache/spark/storage/memory/ValuesHolder;)Lscala/util/Either;",
            MemoryStoreAdvice.PutIterator.class),
        new Weave(MEMORY_STORE, "putBytes", "(" + BLOCK_ID + "J" + MEMORY_MODE + "Lscala/Function0;" + CLASS_TAG + ")Z",
            MemoryStoreAdvice.PutBytes.class),
        new Weave(MEMORY_STORE, "remove", "(" + BLOCK_ID + ")Z", MemoryStoreAdvice.Remove.class),
        new Weave(MEMORY_STORE, "clear", "()V", MemoryStoreAdvice.Clear.class),
        new Weave(MEMORY_STORE, "contains", "(" + BLOCK_ID + ")Z", MemoryStoreAdvice.Contains.class),
        new Weave(MEMORY_STORE, "getValues", "(" + BLOCK_ID + ")Lscala/Option;", MemoryStoreAdvice.GetValues.class),
        new Weave(MEMORY_STORE, "getBytes", "(" + BLOCK_ID + ")Lscala/Option;", MemoryStoreAdvice.GetBytes.class),
        new Weave(MEMORY_STORE, "getSize", "(" + BLOCK_ID + ")J", MemoryStoreAdvice.GetSize.class),
        new Weave("org.apache.spark.storage.BlockManagerMaster", "registerBlockManager",
            "(Lorg/apache/spark/storage/BlockManagerId;[Ljava/lang/String;JJLorg/apache/spark/rpc/RpcEndpointRef;Z)"
            + "Lorg/apache/spark/storage/BlockManagerId;", BlockManagerMasterAdvice.Register.class),
        new Weave(MEMORY_STORE, "evictBlocksToFreeSpace", "(Lscala/Option;J" + MEMORY_MODE + ")J",
            MemoryStoreAdvice.Evict.class),
        new Weave(BLOCK_MANAGER, "org$apache$spark$storage$BlockManager$$getCurrentBlockStatus",
            "(" + BLOCK_ID + "Lorg/apache/spark/storage/BlockInfo;)" + BLOCK_STATUS, BlockStatusAdvice.Current.class),
        new Weave(BLOCK_MANAGER, "reportBlockStatus", "(" + BLOCK_ID + BLOCK_STATUS + "J)V",
            BlockStatusAdvice.Report.class),
        new Weave(STATUS_LISTENER, "onUnpersistRDD", "(Lorg/apache/spark/scheduler/SparkListenerUnpersistRDD;)V",
            UnpersistAdvice.Enter.class),
        new Weave(BLOCK_MANAGER, "dropFromMemory", "(" + BLOCK_ID + "Lscala/Function0;"
            + CLASS_TAG + ")Lorg/apache/spark/storage/StorageLevel;", MemoryStoreAdvice.Drop.class));
    private static final List<Field> FIELDS = SparkWeaver.fields(
        new Field(MEMORY_STORE, "entries", "java.util.LinkedHashMap"),
        new Field(MEMORY_STORE, "memoryManager", "org.apache.spark.memory.MemoryManager"),
        new Field(MEMORY_STORE, "blockInfoManager", "org.apache.spark.storage.BlockInfoManager"),
        new Field(MEMORY_STORE, "serializerManager", "org.apache.spark.serializer.SerializerManager"),
        new Field(MEMORY_STORE, "blockEvictionHandler", "org.apache.spark.storage.memory.BlockEvictionHandler"),
        new Field(STATUS_LISTENER, "liveRDDs", "scala.collection.mutable.HashMap"),
        new Field(STATUS_LISTENER, "liveExecutors", "scala.collection.mutable.HashMap"));

    private static volatile boolean reported;

    private HybridAgent() {
    }

    public static void premain(String text, Instrumentation instrumentation) {
        HybridOptions options;
        try {
            options = HybridOptions.parse(text);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        String teraHeap = teraHeapHere();
        if (teraHeap != null) {
            System.err.println("[hybrid-spark] " + teraHeap + ": the hybrid cache and TeraHeap would take the same"
                + " blocks; Spark is left to TeraHeap. Run one of the two");
            return;
        }
        try {
            SparkWeaver weaver = new SparkWeaver("[hybrid-spark]", "cached blocks stay in Spark's own store", WEAVES,
                FIELDS, () -> reportOnce("a Spark class could not be adapted: blocks cached from now on are not tiered"));
            SparkRelease release = weaver.check(KNOWN_LINES);
            if (release == null) {
                return;
            }
            NvmTier nvm = tier(options);
            HybridStore store = HybridStore.install(options, nvm);
            if (options.mode != HybridOptions.Mode.LAYERED) {
                MigrationMonitor.start(store, options);
            }
            if (store.oe != null) {
                store.oe.start(options.periodNanos);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                if (store.attached()) {
                    System.err.println(store.counters.summary(options, nvm)
                        + (nvm instanceof FileTier ? ((FileTier) nvm).summary() : "")
                        + (store.oe == null ? "" : store.oe.summary()));
                }
            }, "hybrid-spark-summary"));
            System.err.printf(Locale.ROOT, "[hybrid-spark] Spark %s: RDD cache in DRAM and %s: %s%n",
                release.version(), nvm.describe(), options);
            weaver.install(instrumentation);
        } catch (RuntimeException | LinkageError e) {
            System.err.println("[hybrid-spark] cannot read Spark's classes (" + e
                + "): Spark is left alone, cached blocks stay in Spark's own store");
        }
    }

    /** The NVM tier the options ask for; a file that cannot be made stops the JVM with one line. */
    private static NvmTier tier(HybridOptions options) {
        if (options.nvmDirectory == null) {
            return new EmulatedNvm(EmulatedNvm.measureDramBandwidth(), options.bandwidth);
        }
        try {
            return FileTier.install(NvmFile.create(new File(options.nvmDirectory), options.nvmSize));
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(1);
            return null;
        }
    }

    /** What of TeraHeap is in this JVM, or null: its Spark agent, or the JVM's TeraHeap on. */
    private static String teraHeapHere() {
        // Agents load in command-line order: TeraHeap's may come after this one.
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("-javaagent:") && argument.contains("teraheap-spark")) {
                return "teraheap-spark.jar is given too";
            }
        }
        try {
            Class.forName("org.teraheap.spark.TeraHeapAgent", false, ClassLoader.getSystemClassLoader());
            return "teraheap-spark.jar is loaded too";
        } catch (ClassNotFoundException e) {
            // not loaded: look at the JVM
        }
        try {
            HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if ("true".equals(hotspot.getVMOption("EnableTeraHeap").getValue())) {
                return "TeraHeap is on in this JVM (-XX:+EnableTeraHeap)";
            }
        } catch (IllegalArgumentException e) {
            // a JVM without TeraHeap's flag
        }
        return null;
    }

    /** A failure inside the agent, said once: Spark goes on as it would without the agent's help. */
    public static void reportOnce(String what) {
        if (!reported) {
            reported = true;
            System.err.println("[hybrid-spark] " + what);
        }
    }
}
