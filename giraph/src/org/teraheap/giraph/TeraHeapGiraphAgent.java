package org.teraheap.giraph;

import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
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
 * The Java agent that puts unmodified Giraph's edges and messages into H2.
 *
 * <p>Given as {@code -javaagent:teraheap-giraph.jar} to the JVM that runs Giraph's workers (on a
 * Hadoop cluster: in the child JVMs' options). On a JVM without TeraHeap on it returns at once and
 * changes nothing. Otherwise it weaves advice into three of Giraph 1.3's classes as they load:
 * {@code DefaultVertex.setEdges} and {@code WritableUtils.reinitializeVertexFromDataInput}, where
 * each vertex's out-edges are tagged as they are set or read back from bytes while the graph
 * loads, and {@code ServerData}, where each superstep's complete incoming messages are tagged; {@link GiraphPlacement} says which
 * objects, with which labels, and when they are advised to move. A Java agent, not a Giraph option
 * class: Giraph has no option that sees both the edges as they load and the message stores as
 * supersteps turn over, and an agent leaves the job's own options alone.
 *
 * <p>Giraph gathers an edge input's edges in its edge store before any vertex has them, and a
 * superstep's messages in its incoming store until the superstep ends; {@link PressureSweep} tags
 * them there if they fill H1 first.
 *
 * <p>Agent options, comma separated after {@code =}: {@code verbose} (one line per superstep on
 * standard error), {@code verify} (also checks samples of the tagged objects for having reached
 * H2; for tests), {@code sweepAt=<percent>} (the old generation's fill after a full GC, or
 * under G1 any pause, from which edges still loading and messages still arriving are tagged;
 * default 80, 0 never) and {@code moveAt=<percent>} (the fill from which the edges and a
 * superstep's complete messages are advised to move; default 80, 0 always).
 */
public final class TeraHeapGiraphAgent {
    private static final String VERTEX = "org.apache.giraph.graph.DefaultVertex";
    private static final String SERVER_DATA = "org.apache.giraph.comm.ServerData";
    private static final String WRITABLE_UTILS = "org.apache.giraph.utils.WritableUtils";

    private static final String SWEEP_AT = "sweepAt=";
    /** The old generation's fill (H1Pressure) from which data still gathering is tagged. */
    private static final int DEFAULT_SWEEP_AT = 80;
    private static final String MOVE_AT = "moveAt=";
    /** The old generation's fill (H1Pressure) from which edges and messages move to H2. */
    private static final int DEFAULT_MOVE_AT = 80;

    private TeraHeapGiraphAgent() {
    }

    public static void premain(String options, Instrumentation instrumentation) {
        if (!TeraHeap.isEnabled()) {
            // A stock JVM or TeraHeap off: Giraph runs untouched, and the user is told.
            System.err.println("[teraheap-giraph] TeraHeap is off in this JVM (" + System.getProperty("java.home")
                + "): Giraph's data stays in H1. Run it with TeraHeap's JDK (<repo>/build/jdk/bin/java)"
                + " and -XX:+EnableTeraHeap -XX:TeraHeapSize=<size> -XX:TeraHeapPath=<dir>");
            return;
        }
        boolean verbose = false;
        boolean verify = false;
        int sweepAt = DEFAULT_SWEEP_AT;
        int moveAt = DEFAULT_MOVE_AT;
        try {
            if (options != null && !options.isEmpty()) {
                for (String option : options.split(",")) {
                    if (option.equals("verbose")) {
                        verbose = true;
                    } else if (option.equals("verify")) {
                        verify = true;
                    } else if (option.startsWith(SWEEP_AT)) {
                        sweepAt = percent(option, SWEEP_AT, "never sweep");
                    } else if (option.startsWith(MOVE_AT)) {
                        moveAt = percent(option, MOVE_AT, "always move them");
                    } else {
                        throw new IllegalArgumentException("teraheap-giraph: unknown agent option '"
                            + option + "'; the options are verbose, verify, sweepAt=<percent> and"
                            + " moveAt=<percent>");
                    }
                }
            }
        } catch (IllegalArgumentException e) {
            // One line and a clean exit: an exception out of premain aborts the JVM with a trace.
            System.err.println(e.getMessage());
            System.exit(1);
            return;
        }
        GiraphPlacement.install(verbose, verify, sweepAt, moveAt);
        GiraphPlacement.log("edges and messages go to H2 (%d MB) %s", TeraHeap.stats().capacityBytes() >> 20,
            moveAt == 0 ? "as soon as they are complete"
                : "once a " + (H1Pressure.onG1() ? "G1 pause" : "full GC") + " leaves the old generation at least "
                    + moveAt + "% full");

        new AgentBuilder.Default()
            .disableClassFormatChanges()
            // Only Giraph's three classes are looked at; nothing else is parsed.
            .ignore(not(named(VERTEX).or(named(SERVER_DATA)).or(named(WRITABLE_UTILS))))
            .with(new Failures())
            .type(named(VERTEX))
            .transform((builder, type, loader, module, domain) -> weave(builder, type,
                GiraphAdvice.SetEdges.class, named("setEdges").and(takesArguments(1))))
            .type(named(WRITABLE_UTILS))
            .transform((builder, type, loader, module, domain) -> weave(builder, type,
                GiraphAdvice.VertexRead.class,
                named("reinitializeVertexFromDataInput").and(takesArguments(3))))
            .type(named(SERVER_DATA))
            .transform((builder, type, loader, module, domain) -> {
                builder = weave(builder, type, GiraphAdvice.WorkerStarted.class, isConstructor());
                return weave(builder, type, GiraphAdvice.PrepareSuperstep.class,
                    named("prepareSuperstep").and(takesArguments(0)));
            })
            .installOn(instrumentation);
    }

    /** The percent after {@code name} in {@code option}; {@code zero} says what 0 means. */
    private static int percent(String option, String name, String zero) {
        String value = option.substring(name.length());
        try {
            int percent = Integer.parseInt(value);
            if (percent >= 0 && percent <= 100) {
                return percent;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("teraheap-giraph: " + option + " is not a percent; give 0 ("
            + zero + ") to 100");
    }

    /** Weaves {@code advice} into the one method of {@code type} that {@code method} names. */
    private static DynamicType.Builder<?> weave(DynamicType.Builder<?> builder, TypeDescription type,
                                               Class<?> advice,
                                               ElementMatcher<? super MethodDescription> method) {
        if (type.getDeclaredMethods().filter(method).size() != 1) {
            GiraphPlacement.log("%s lacks the method %s adapts; this jar supports Giraph 1.3."
                + " That data stays in H1.", type.getName(), advice.getSimpleName());
            return builder;
        }
        return builder.visit(Advice.to(advice).on(method));
    }

    /** Reports a Giraph class that could not be adapted: Giraph then runs without TeraHeap's help. */
    private static final class Failures extends AgentBuilder.Listener.Adapter {
        @Override
        public void onError(String name, ClassLoader loader, JavaModule module, boolean loaded,
                            Throwable error) {
            GiraphPlacement.log("cannot adapt %s (%s); this jar supports Giraph 1.3."
                + " Its data stays in H1.", name, error);
        }
    }
}
