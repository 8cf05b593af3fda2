package org.teraheap.spark;

import static net.bytebuddy.matcher.ElementMatchers.fieldType;
import static net.bytebuddy.matcher.ElementMatchers.hasDescriptor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.io.File;
import java.lang.instrument.Instrumentation;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;
import org.teraheap.TeraHeap;

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
 * when a block is admitted) or {@code budgetBytes=<bytes>} (an exact budget).
 */
public final class TeraHeapAgent {
    private static final String MEMORY_STORE = "org.apache.spark.storage.memory.MemoryStore";
    private static final String MEMORY_MANAGER = "org.apache.spark.memory.MemoryManager";
    private static final String BLOCK_MANAGER_MASTER = "org.apache.spark.storage.BlockManagerMaster";

    // The advised methods, as every known release compiles them.
    private static final String BLOCK_ID = "Lorg/apache/spark/storage/BlockId;";
    private static final String MEMORY_MODE = "Lorg/apache/spark/memory/MemoryMode;";
    private static final String BLOCK_MANAGER_ID = "Lorg/apache/spark/storage/BlockManagerId;";

    /** One piece of advice: the Spark method it goes into, by class, name and descriptor. */
    private static final class Weave {
        final String type;
        final String method;
        final String descriptor;
        final Class<?> advice;

        Weave(String type, String method, String descriptor, Class<?> advice) {
            this.type = type;
            this.method = method;
            this.descriptor = descriptor;
            this.advice = advice;
        }

        ElementMatcher<MethodDescription> matcher() {
            return named(method).and(hasDescriptor(descriptor));
        }

        @Override
        public String toString() {
            return type.substring(type.lastIndexOf('.') + 1) + "." + method + descriptor;
        }
    }

    private static final List<Weave> WEAVES = Arrays.asList(
        new Weave(MEMORY_STORE, "putIteratorAsValues", "(" + BLOCK_ID + "Lscala/collection/Iterator;"
            + MEMORY_MODE + "Lscala/reflect/ClassTag;)Lscala/util/Either;", MemoryStoreAdvice.PutValues.class),
        new Weave(MEMORY_STORE, "remove", "(" + BLOCK_ID + ")Z", MemoryStoreAdvice.Remove.class),
        new Weave(MEMORY_STORE, "blockIsEvictable$1", "(" + BLOCK_ID
            + "Lorg/apache/spark/storage/memory/MemoryEntry;" + MEMORY_MODE + "Lscala/Option;)Z",
            MemoryStoreAdvice.Evictable.class),
        new Weave(MEMORY_MANAGER, "releaseStorageMemory", "(J" + MEMORY_MODE + ")V",
            MemoryManagerAdvice.ReleaseStorage.class),
        new Weave(MEMORY_MANAGER, "releaseAllStorageMemory", "()V", MemoryManagerAdvice.ReleaseAll.class),
        new Weave(BLOCK_MANAGER_MASTER, "registerBlockManager", "(" + BLOCK_MANAGER_ID
            + "[Ljava/lang/String;JJLorg/apache/spark/rpc/RpcEndpointRef;Z)" + BLOCK_MANAGER_ID,
            BlockManagerMasterAdvice.Register.class));

    private static boolean reportedLoader;

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
        long budget = budgetBytes(options, capacity);
        try {
            install(instrumentation, capacity, budget);
        } catch (RuntimeException | LinkageError e) {
            System.err.println("[teraheap-spark] cannot read Spark's classes (" + e
                + "): Spark is left alone, cached blocks stay in H1");
        }
    }

    private static void install(Instrumentation instrumentation, long capacity, long budget) {
        ClassLoader loader = TeraHeapAgent.class.getClassLoader();
        SparkRelease release = SparkRelease.on(loader);
        if (release == null) {
            System.err.println("[teraheap-spark] no Spark on the application class path, where the agent is:"
                + " nothing to adapt, cached blocks stay in H1; put Spark's jars on the class path");
            return;
        }
        if (!release.known()) {
            System.err.println("[teraheap-spark] Spark " + release.version() + " is not a release this jar"
                + " knows (Spark " + SparkRelease.knownLines() + "): Spark is left alone, cached blocks stay in H1");
            return;
        }
        List<String> missing = missing(loader);
        if (!missing.isEmpty()) {
            System.err.println("[teraheap-spark] Spark " + release.version() + " lacks " + missing
                + " in the form this jar knows: Spark is left alone, cached blocks stay in H1");
            return;
        }
        H2StorageBudget.install(budget);
        System.err.printf("[teraheap-spark] Spark %s: cached deserialized blocks go to H2: budget %d MB of %d MB%n",
            release.version(), budget >> 20, capacity >> 20);

        AgentBuilder agent = new AgentBuilder.Default()
            .disableClassFormatChanges()
            // Only Spark's three classes are looked at; nothing else is parsed.
            .ignore(not(named(MEMORY_STORE).or(named(MEMORY_MANAGER)).or(named(BLOCK_MANAGER_MASTER))))
            .with(new Failures());
        for (String type : new String[] {MEMORY_STORE, MEMORY_MANAGER, BLOCK_MANAGER_MASTER}) {
            agent = agent.type(named(type)).transform((builder, description, typeLoader, module, domain) -> {
                if (!onAgentClassPath(description, typeLoader)) {
                    return builder;
                }
                for (Weave weave : WEAVES) {
                    if (weave.type.equals(type)) {
                        builder = builder.visit(Advice.to(weave.advice).on(weave.matcher()));
                    }
                }
                return builder;
            });
        }
        agent.installOn(instrumentation);
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

    /**
     * The advised methods, and the fields the advice reads, that the Spark {@code loader} sees does
     * not declare as expected.
     */
    private static List<String> missing(ClassLoader loader) {
        TypePool pool = TypePool.Default.of(ClassFileLocator.ForClassLoader.of(loader));
        List<String> missing = new ArrayList<>();
        for (Weave weave : WEAVES) {
            TypePool.Resolution type = pool.describe(weave.type);
            if (!type.isResolved() || type.resolve().getDeclaredMethods().filter(weave.matcher()).size() != 1) {
                missing.add(weave.toString());
            }
        }
        // MemoryStoreAdvice.PutValues reads these.
        String[][] fields = {{"entries", "java.util.LinkedHashMap"},
                             {"memoryManager", "org.apache.spark.memory.MemoryManager"}};
        TypePool.Resolution store = pool.describe(MEMORY_STORE);
        for (String[] field : fields) {
            if (!store.isResolved() || store.resolve().getDeclaredFields()
                    .filter(named(field[0]).and(fieldType(named(field[1])))).size() != 1) {
                missing.add("MemoryStore." + field[0] + " (" + field[1] + ")");
            }
        }
        return missing;
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
                + "): blocks cached from now on stay in H1 (those already in H2's budget stay counted there)");
        }
    }
}
