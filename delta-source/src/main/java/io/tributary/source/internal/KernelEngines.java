package io.tributary.source.internal;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/** Kernel's default engine as Tributary configures it, and table path normalisation. */
public final class KernelEngines {
    private KernelEngines() {
    }

    /** A default engine on a Hadoop configuration whose local file system writes no {@code .crc} side files. */
    public static Engine create() {
        Configuration conf = new Configuration();
        conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
        conf.set("fs.AbstractFileSystem.file.impl", "org.apache.hadoop.fs.local.RawLocalFs");
        conf.setBoolean("fs.file.impl.disable.cache", true);
        return DefaultEngine.create(conf);
    }

    /** A plain local path made absolute (Kernel resolves relative paths against the process folder); URIs unchanged. */
    public static String tablePath(String path) {
        if (path.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*") && !path.matches("^[A-Za-z]:[\\\\/].*")) {
            return path;
        }
        return Path.of(path).toAbsolutePath().normalize().toString();
    }
}
