package org.teraheap.spark;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.util.Properties;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The Spark release on the application class path, read without loading any of Spark's classes,
 * and whether an agent knows that release's internals. Shared by the agents (spark/common).
 */
public final class SparkRelease {
    /** The class the version is read beside: spark-core's jar. */
    private static final String CORE_CLASS = "org/apache/spark/storage/memory/MemoryStore.class";

    private final String version;

    private SparkRelease(String version) {
        this.version = version;
    }

    /** The release {@code loader} sees, or null if Spark's core is not there. */
    public static SparkRelease on(ClassLoader loader) {
        URL core = loader.getResource(CORE_CLASS);
        if (core == null) {
            return null;
        }
        String version = fromPom(loader, "2.13");
        if (version == null) {
            version = fromPom(loader, "2.12");
        }
        if (version == null) {
            version = fromManifest(core);
        }
        return new SparkRelease(version == null ? "unknown" : version);
    }

    public String version() {
        return version;
    }

    /** Whether the release belongs to one of the lines ("3.5", "4.0") an agent was written and tested for. */
    public boolean in(String... lines) {
        for (String line : lines) {
            if (version.startsWith(line + ".")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Spark Core's manifest names its version, for a jar without Maven's record; not another
     * jar's (an application's uber-jar that holds Spark).
     */
    private static String fromManifest(URL core) {
        try {
            URLConnection connection = core.openConnection();
            if (!(connection instanceof JarURLConnection)) {
                return null;
            }
            connection.setUseCaches(false);
            try (JarFile jar = ((JarURLConnection) connection).getJarFile()) {
                Manifest manifest = jar.getManifest();
                if (manifest == null
                        || !"Spark Project Core".equals(manifest.getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_TITLE))) {
                    return null;
                }
                return manifest.getMainAttributes().getValue(Attributes.Name.IMPLEMENTATION_VERSION);
            }
        } catch (IOException e) {
            return null;
        }
    }

    /** Maven's record of the artifact, in spark-core's jar. */
    private static String fromPom(ClassLoader loader, String scala) {
        String pom = "META-INF/maven/org.apache.spark/spark-core_" + scala + "/pom.properties";
        try (InputStream in = loader.getResourceAsStream(pom)) {
            if (in == null) {
                return null;
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            return null;
        }
    }
}
