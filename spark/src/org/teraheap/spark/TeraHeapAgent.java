package org.teraheap.spark;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import java.lang.instrument.Instrumentation;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.utility.JavaModule;
import org.teraheap.TeraHeap;

/**
 * The Java agent that puts the blocks Spark caches deserialized into H2.
 *
 * <p>Given as {@code -javaagent:teraheap-spark.jar} to the driver and the executors. On a JVM
 * without TeraHeap on it returns at once and changes nothing. Otherwise it weaves advice into
 * three classes of unmodified Spark 3.5 as they load: {@code MemoryStore} tags each cached
 * deserialized RDD block as a root labelled with its RDD id and advises the move;
 * {@code UnifiedMemoryManager} and {@code MemoryManager} count those blocks against H2 rather
 * than H1's storage pool ({@link H2StorageBudget}).
 *
 * <p>Agent options, comma separated after {@code =}: {@code budget=<fraction of H2>} (default
 * 0.9: H2 regions are filled per RDD, so the last region of each is partly empty) and
 * {@code budgetBytes=<bytes>} (an exact budget, for tests).
 */
public final class TeraHeapAgent {
    private static final String MEMORY_STORE = "org.apache.spark.storage.memory.MemoryStore";
    private static final String UNIFIED_MEMORY_MANAGER = "org.apache.spark.memory.UnifiedMemoryManager";
    private static final String MEMORY_MANAGER = "org.apache.spark.memory.MemoryManager";

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

        Set<String> woven = ConcurrentHashMap.newKeySet();
        new AgentBuilder.Default()
            .disableClassFormatChanges()
            .with(new Failures(woven))
            .type(named(MEMORY_STORE))
            .transform((builder, type, loader, module, domain) -> builder
                .visit(Advice.to(MemoryStoreAdvice.PutValues.class)
                    .on(named("putIteratorAsValues").and(takesArguments(4))))
                .visit(Advice.to(MemoryStoreAdvice.Remove.class)
                    .on(named("remove").and(takesArguments(1))))
                .visit(Advice.to(MemoryStoreAdvice.Evictable.class)
                    .on(named("blockIsEvictable$1"))))
            .type(named(UNIFIED_MEMORY_MANAGER))
            .transform((builder, type, loader, module, domain) -> builder
                .visit(Advice.to(MemoryManagerAdvice.AcquireStorage.class)
                    .on(named("acquireStorageMemory").and(takesArguments(3))))
                .visit(Advice.to(MemoryManagerAdvice.AcquireUnroll.class)
                    .on(named("acquireUnrollMemory").and(takesArguments(3)))))
            .type(named(MEMORY_MANAGER))
            .transform((builder, type, loader, module, domain) -> builder
                .visit(Advice.to(MemoryManagerAdvice.ReleaseUnroll.class)
                    .on(named("releaseUnrollMemory").and(takesArguments(2))))
                .visit(Advice.to(MemoryManagerAdvice.ReleaseStorage.class)
                    .on(named("releaseStorageMemory").and(takesArguments(2))))
                .visit(Advice.to(MemoryManagerAdvice.ReleaseAll.class)
                    .on(named("releaseAllStorageMemory"))))
            .installOn(instrumentation);
    }

    static long budgetBytes(String options, long capacity) {
        double fraction = 0.9;
        long bytes = -1;
        if (options != null && !options.isEmpty()) {
            for (String option : options.split(",")) {
                String[] kv = option.split("=", 2);
                try {
                    if (kv.length == 2 && kv[0].equals("budget")) {
                        fraction = Double.parseDouble(kv[1]);
                        if (fraction <= 0 || fraction > 1) {
                            throw new NumberFormatException();
                        }
                        continue;
                    }
                    if (kv.length == 2 && kv[0].equals("budgetBytes")) {
                        bytes = Long.parseLong(kv[1]);
                        continue;
                    }
                } catch (NumberFormatException e) {
                    // falls through to the error below
                }
                throw new IllegalArgumentException("teraheap-spark: bad agent option '" + option
                    + "'; use budget=<fraction of H2, 0 to 1> or budgetBytes=<bytes>");
            }
        }
        return bytes >= 0 ? Math.min(bytes, capacity) : (long) (capacity * fraction);
    }

    /** Reports a Spark class that could not be woven: the jar does not fit this Spark version. */
    private static final class Failures extends AgentBuilder.Listener.Adapter {
        private final Set<String> woven;

        Failures(Set<String> woven) {
            this.woven = woven;
        }

        @Override
        public void onTransformation(TypeDescription type, ClassLoader loader, JavaModule module,
                                     boolean loaded, DynamicType dynamicType) {
            woven.add(type.getName());
        }

        @Override
        public void onError(String name, ClassLoader loader, JavaModule module, boolean loaded,
                            Throwable error) {
            System.err.println("[teraheap-spark] cannot adapt " + name + " (" + error
                + "); this jar supports Spark 3.5");
        }
    }
}
