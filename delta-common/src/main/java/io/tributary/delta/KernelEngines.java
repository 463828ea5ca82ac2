package io.tributary.delta;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.FileSystemClient;
import io.tributary.delta.internal.LocalLogStore;
import io.tributary.delta.internal.ObjectFileSystem;
import io.tributary.storage.Storage;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Kernel's default engine as Tributary configures it, and table path normalisation. Paths are
 * local or URIs of any Hadoop file system on the class path; {@code s3a://} (and {@code s3://},
 * {@code s3n://}) paths go to Tributary's own S3 file system ({@link ObjectFileSystem}) with the
 * {@link Storage} settings given, which also reach every other file system's configuration.
 */
public final class KernelEngines {
    /** The Hadoop key of the size at which Kernel's default Parquet writer starts a new file (default 128 MiB). */
    private static final String TARGET_FILE_SIZE = "delta.kernel.default.parquet.writer.targetMaxFileSize";

    private KernelEngines() {
    }

    /**
     * A default engine on a Hadoop configuration whose local file system writes no {@code .crc} side
     * files, listing local Delta logs without a stat per file ({@link LocalListingFileSystemClient}).
     */
    public static Engine create() {
        return create(Storage.NONE);
    }

    /** As {@link #create()}, with {@code storage}'s settings for paths on object storage and other file systems. */
    public static Engine create(Storage storage) {
        Configuration conf = configuration(storage);
        return new LocalListing(DefaultEngine.create(conf), conf);
    }

    /** As {@link #create()}, with Kernel's Parquet writer rolling files at about {@code bytes}. */
    public static Engine withTargetFileSize(long bytes) {
        return withTargetFileSize(bytes, Storage.NONE);
    }

    /** As {@link #create(Storage)}, with Kernel's Parquet writer rolling files at about {@code bytes}. */
    public static Engine withTargetFileSize(long bytes, Storage storage) {
        Configuration conf = configuration(storage);
        conf.setLong(TARGET_FILE_SIZE, bytes);
        return new LocalListing(DefaultEngine.create(conf), conf);
    }

    /** Kernel's default engine with {@link LocalListingFileSystemClient} for its file-system client. */
    private static final class LocalListing extends ForwardingEngine {
        private final FileSystemClient files;
        private final Configuration conf;

        LocalListing(Engine engine, Configuration conf) {
            super(engine);
            this.files = new LocalListingFileSystemClient(engine.getFileSystemClient());
            this.conf = conf;
        }

        @Override
        public FileSystemClient getFileSystemClient() {
            return files;
        }
    }

    /** The Hadoop configuration of {@link #create()}, for direct file-system access (listing, deleting files); a copy the caller may change. */
    public static Configuration configuration() {
        return configuration(Storage.NONE);
    }

    /** A copy of the Hadoop configuration {@code engine} was made with (storage settings included), for direct file-system access. */
    public static Configuration configuration(Engine engine) {
        return engine instanceof LocalListing l ? new Configuration(l.conf) : configuration();
    }

    /** As {@link #configuration()}, with {@code storage}'s settings. */
    public static Configuration configuration(Storage storage) {
        Configuration conf = new Configuration(Loaded.CONFIGURATION);
        storage.settings().forEach(conf::set);
        ObjectFileSystem.configure(conf, storage);
        return conf;
    }

    /**
     * Parsed once: a new Hadoop {@code Configuration} parses {@code core-default.xml} (and any
     * {@code core-site.xml}) on first use, which was most of a small table's open with a new engine.
     * Hadoop's user information, which the first file system made initialises (its view file
     * system asks for the current user), is given this one instead of parsing its own.
     */
    private static final class Loaded {
        static final Configuration CONFIGURATION = load();

        private static Configuration load() {
            Configuration conf = new Configuration();
            conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
            conf.set("fs.AbstractFileSystem.file.impl", "org.apache.hadoop.fs.local.RawLocalFs");
            conf.setBoolean("fs.file.impl.disable.cache", true);
            conf.set("io.delta.kernel.logStore.file.impl", LocalLogStore.class.getName());
            UserGroupInformation.setConfiguration(conf);
            return conf;
        }
    }

    /** A plain local path made absolute (Kernel resolves relative paths against the process folder); URIs unchanged. */
    public static String tablePath(String path) {
        if (path.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*") && !path.matches("^[A-Za-z]:[\\\\/].*")) {
            return path;
        }
        return Path.of(path).toAbsolutePath().normalize().toString();
    }

    /** The bytes Tributary's object-storage file system ({@code s3a://}) has taken from the server in this JVM, every stream counted. */
    public static long objectStorageBytesRead() {
        return org.apache.hadoop.fs.FileSystem.getStatistics("s3a", ObjectFileSystem.class).getBytesRead();
    }
}
