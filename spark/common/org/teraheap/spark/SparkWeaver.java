package org.teraheap.spark;

import static net.bytebuddy.matcher.ElementMatchers.fieldType;
import static net.bytebuddy.matcher.ElementMatchers.hasDescriptor;
import static net.bytebuddy.matcher.ElementMatchers.isConstructor;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.none;
import static net.bytebuddy.matcher.ElementMatchers.not;

import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.JavaModule;

/**
 * Weaves an agent's advice into unmodified Spark, all or nothing: before Spark starts, the release
 * on the class path and every advised method and read field are checked in Spark's class files;
 * one missing and the agent says which in one line and leaves Spark alone. Spark must be on the
 * application class path, where the agent is: a Spark defined by another class loader is refused
 * in one line and left alone (its classes could not see the agent's, nor the agent its).
 */
public final class SparkWeaver {
    /** One piece of advice: the Spark method it goes into, by class, name and descriptor. */
    public static final class Weave {
        final String type;
        final String method;
        final String descriptor;
        final Class<?> advice;

        public Weave(String type, String method, String descriptor, Class<?> advice) {
            this.type = type;
            this.method = method;
            this.descriptor = descriptor;
            this.advice = advice;
        }

        ElementMatcher<MethodDescription> matcher() {
            // A constructor is named "<init>" in descriptors but not in Byte Buddy's matchers.
            return "<init>".equals(method) ? isConstructor().and(hasDescriptor(descriptor))
                                           : named(method).and(hasDescriptor(descriptor));
        }

        @Override
        public String toString() {
            return type.substring(type.lastIndexOf('.') + 1) + "." + method + descriptor;
        }
    }

    /** A field that advice reads: its class, name and type. */
    public static final class Field {
        final String type;
        final String name;
        final String fieldType;

        public Field(String type, String name, String fieldType) {
            this.type = type;
            this.name = name;
            this.fieldType = fieldType;
        }
    }

    private final String prefix;
    private final String leftAlone;
    private final List<Weave> weaves;
    private final List<Field> fields;
    private final Runnable onWeaveFailure;
    private boolean reportedLoader;

    /**
     * @param prefix         the agent's name on its lines, e.g. "[teraheap-spark]"
     * @param leftAlone      what Spark left alone means to the user, e.g. "cached blocks stay in H1"
     * @param onWeaveFailure run when a class could not be adapted after all
     */
    public SparkWeaver(String prefix, String leftAlone, List<Weave> weaves, List<Field> fields,
                       Runnable onWeaveFailure) {
        this.prefix = prefix;
        this.leftAlone = leftAlone;
        this.weaves = weaves;
        this.fields = fields;
        this.onWeaveFailure = onWeaveFailure;
    }

    public static List<Field> fields(Field... fields) {
        return Arrays.asList(fields);
    }

    /**
     * The Spark release that the agent's class loader sees, if it is one of {@code lines} and has
     * every advised method and field; otherwise null, said in one line.
     */
    public SparkRelease check(String... lines) {
        ClassLoader loader = SparkWeaver.class.getClassLoader();
        SparkRelease release = SparkRelease.on(loader);
        if (release == null) {
            System.err.println(prefix + " no Spark on the application class path, where the agent is:"
                + " nothing to adapt, " + leftAlone + "; put Spark's jars on the class path");
            return null;
        }
        if (!release.in(lines)) {
            System.err.println(prefix + " Spark " + release.version() + " is not a release this jar"
                + " knows (Spark " + String.join(", ", lines) + "): Spark is left alone, " + leftAlone);
            return null;
        }
        List<String> missing = missing(loader);
        if (!missing.isEmpty()) {
            System.err.println(prefix + " Spark " + release.version() + " lacks " + missing
                + " in the form this jar knows: Spark is left alone, " + leftAlone);
            return null;
        }
        return release;
    }

    /** The advised methods and read fields that Spark, as {@code loader} sees it, does not declare as expected. */
    private List<String> missing(ClassLoader loader) {
        TypePool pool = TypePool.Default.of(ClassFileLocator.ForClassLoader.of(loader));
        List<String> missing = new ArrayList<>();
        for (Weave weave : weaves) {
            TypePool.Resolution type = pool.describe(weave.type);
            if (!type.isResolved() || type.resolve().getDeclaredMethods().filter(weave.matcher()).size() != 1) {
                missing.add(weave.toString());
            }
        }
        for (Field field : fields) {
            TypePool.Resolution type = pool.describe(field.type);
            if (!type.isResolved() || type.resolve().getDeclaredFields()
                    .filter(named(field.name).and(fieldType(named(field.fieldType)))).size() != 1) {
                missing.add(field.type.substring(field.type.lastIndexOf('.') + 1) + "." + field.name
                    + " (" + field.fieldType + ")");
            }
        }
        return missing;
    }

    /** Weaves the advice into Spark's classes as they load; nothing else is parsed. */
    public void install(Instrumentation instrumentation) {
        Set<String> types = new LinkedHashSet<>();
        for (Weave weave : weaves) {
            types.add(weave.type);
        }
        ElementMatcher.Junction<TypeDescription> advised = none();
        for (String type : types) {
            advised = advised.or(named(type));
        }
        AgentBuilder agent = new AgentBuilder.Default()
            .disableClassFormatChanges()
            .ignore(not(advised))
            .with(new Failures());
        for (String type : types) {
            agent = agent.type(named(type)).transform((builder, description, typeLoader, module, domain) -> {
                if (!onAgentClassPath(description, typeLoader)) {
                    return builder;
                }
                for (Weave weave : weaves) {
                    if (weave.type.equals(type)) {
                        builder = builder.visit(Advice.to(weave.advice).on(weave.matcher()));
                    }
                }
                return builder;
            });
        }
        agent.installOn(instrumentation);
    }

    /**
     * Whether Spark's {@code type} is defined by the class loader the agent is on: the advice
     * woven into it calls the agent's classes, which name Spark's classes as that loader sees
     * them. A Spark in another loader (a second Spark, or one isolated from the application class
     * path) is left alone, and said so once.
     */
    private boolean onAgentClassPath(TypeDescription type, ClassLoader loader) {
        if (loader == SparkWeaver.class.getClassLoader()) {
            return true;
        }
        synchronized (this) {
            if (!reportedLoader) {
                reportedLoader = true;
                System.err.println(prefix + " " + type.getName() + " is loaded by " + loader
                    + ", not by the application class loader the agent is on: that Spark is left"
                    + " alone, " + leftAlone + "; put Spark's jars on the class path");
            }
        }
        return false;
    }

    /** Reports a Spark class that could not be adapted after all. */
    private final class Failures extends AgentBuilder.Listener.Adapter {
        @Override
        public void onError(String name, ClassLoader loader, JavaModule module, boolean loaded,
                            Throwable error) {
            onWeaveFailure.run();
            System.err.println(prefix + " cannot adapt " + name + " (" + error + "): " + leftAlone
                + " from now on");
        }
    }
}
