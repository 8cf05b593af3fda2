package org.teraheap.spark;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

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
 * without TeraHeap on it returns at once and changes nothing. Otherwise it weaves advice into two
 * classes of unmodified Spark 3.5 as they load: {@code MemoryStore} offers each deserialized RDD
 * block it stores to {@link H2StorageBudget}, which counts it against H2 instead of H1's storage
 * pool and tags it for the move; H1's evictions skip such blocks; {@code MemoryManager} returns
 * their budget when they are removed. If any piece of advice does not fit the Spark version, the
 * agent says so and leaves Spark entirely alone.
 *
 * <p>Agent options, comma separated after {@code =}: {@code budget=<fraction of H2>} (default
 * 1: the room that H2's regions leave unused, a partly filled last region per RDD, is counted
 * when a block is admitted) or {@code budgetBytes=<bytes>} (an exact budget).
 */
public final class TeraHeapAgent {
    private static final String MEMORY_STORE = "org.apache.spark.storage.memory.MemoryStore";
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

        new AgentBuilder.Default()
            .disableClassFormatChanges()
            // Only Spark's two classes are looked at; nothing else is parsed.
            .ignore(not(named(MEMORY_STORE).or(named(MEMORY_MANAGER))))
            .with(new Failures())
            .type(named(MEMORY_STORE))
            .transform((builder, type, loader, module, domain) -> {
                builder = weave(builder, type, MemoryStoreAdvice.PutValues.class,
                    named("putIteratorAsValues").and(takesArguments(4)));
                builder = weave(builder, type, MemoryStoreAdvice.Remove.class,
                    named("remove").and(takesArguments(1)));
                return weave(builder, type, MemoryStoreAdvice.Evictable.class,
                    named("blockIsEvictable$1"));
            })
            .type(named(MEMORY_MANAGER))
            .transform((builder, type, loader, module, domain) -> {
                builder = weave(builder, type, MemoryManagerAdvice.ReleaseStorage.class,
                    named("releaseStorageMemory").and(takesArguments(2)));
                return weave(builder, type, MemoryManagerAdvice.ReleaseAll.class,
                    named("releaseAllStorageMemory").and(takesArguments(0)));
            })
            .installOn(instrumentation);
    }

    /** Weaves {@code advice} into the one method of {@code type} that {@code method} names. */
    private static DynamicType.Builder<?> weave(DynamicType.Builder<?> builder, TypeDescription type,
                                               Class<?> advice,
                                               ElementMatcher<? super MethodDescription> method) {
        if (type.getDeclaredMethods().filter(method).size() != 1) {
            H2StorageBudget.adviceMissing();
            System.err.println("[teraheap-spark] " + type.getName() + " lacks the method "
                + advice.getSimpleName() + " adapts; this jar supports Spark 3.5."
                + " Cached blocks stay in H1.");
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
