package io.tributary.delta;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** Kernel's default engine as Tributary configures it, and table path normalisation. */
public final class KernelEngines {
    /** The Hadoop key of the size at which Kernel's default Parquet writer starts a new file (default 128 MiB). */
    private static final String TARGET_FILE_SIZE = "delta.kernel.default.parquet.writer.targetMaxFileSize";

    private KernelEngines() {
    }

    /** A default engine on a Hadoop configuration whose local file system writes no {@code .crc} side files. */
    public static Engine create() {
        return DefaultEngine.create(configuration());
    }

    /** As {@link #create()}, with Kernel's Parquet writer rolling files at about {@code bytes}. */
    public static Engine withTargetFileSize(long bytes) {
        Configuration conf = configuration();
        conf.setLong(TARGET_FILE_SIZE, bytes);
        return DefaultEngine.create(conf);
    }

    /** The Hadoop configuration of {@link #create()}, for direct file-system access (listing, deleting files). */
    public static Configuration configuration() {
        Configuration conf = new Configuration();
        conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
        conf.set("fs.AbstractFileSystem.file.impl", "org.apache.hadoop.fs.local.RawLocalFs");
        conf.setBoolean("fs.file.impl.disable.cache", true);
        return conf;
    }

    /** A plain local path made absolute (Kernel resolves relative paths against the process folder); URIs unchanged. */
    public static String tablePath(String path) {
        if (path.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*") && !path.matches("^[A-Za-z]:[\\\\/].*")) {
            return path;
        }
        return Path.of(path).toAbsolutePath().normalize().toString();
    }
}
