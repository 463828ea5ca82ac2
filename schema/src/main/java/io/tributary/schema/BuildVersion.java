package io.tributary.schema;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Tributary's version, as the build wrote it: what the CLI, the Connect plugins and SQL's {@code version()} report. */
public final class BuildVersion {
    private static final String VERSION = read();

    private BuildVersion() {
    }

    /** The version ({@code 0.1.0-SNAPSHOT}), or {@code unknown} when the build wrote none. */
    public static String get() {
        return VERSION;
    }

    private static String read() {
        try (InputStream in = BuildVersion.class.getResourceAsStream("version.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
