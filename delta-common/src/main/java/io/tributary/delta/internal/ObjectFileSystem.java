package io.tributary.delta.internal;

import io.tributary.storage.ObjectInfo;
import io.tributary.storage.ObjectLocation;
import io.tributary.storage.ObjectStore;
import io.tributary.storage.Storage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * Hadoop's {@code s3a://} (and {@code s3://}, {@code s3n://}) file system on Tributary's own S3
 * client ({@link ObjectStore}) instead of hadoop-aws and the AWS SDK bundle: what Delta Kernel's
 * default engine, parquet-mr and the table maintenance need of a file system. A bucket has no
 * folders: a folder exists while an object lies under it, {@code mkdirs} creates nothing. Files
 * are written whole when their stream closes (a partly written file is never visible); a rename
 * is a copy and a delete, of files only. The storage settings come from the {@link Storage} the
 * configuration names ({@link #configure}). Its streams count what they read in Hadoop's file system
 * statistics of the scheme ({@code FileSystem.getStatistics}, as {@code s3a} does).
 */
public final class ObjectFileSystem extends FileSystem {
    /** The Hadoop key naming the registered {@link Storage} this file system uses. */
    static final String STORAGE_ID = "tributary.storage.id";
    private static final Map<Storage, String> IDS = new ConcurrentHashMap<>();
    private static final Map<String, Storage> BY_ID = new ConcurrentHashMap<>();
    private static final long BLOCK_SIZE = 32L << 20;

    private URI uri;
    private ObjectStore store;
    private Path workingDir;

    /** Makes {@code conf} open object-store paths with this file system and {@code storage}'s settings. */
    public static void configure(Configuration conf, Storage storage) {
        for (String scheme : List.of("s3a", "s3", "s3n")) {
            conf.set("fs." + scheme + ".impl", ObjectFileSystem.class.getName());
            conf.setBoolean("fs." + scheme + ".impl.disable.cache", true); // one instance per settings, not per bucket
            conf.set("io.delta.kernel.logStore." + scheme + ".impl", ObjectLogStore.class.getName());
        }
        conf.set(STORAGE_ID, IDS.computeIfAbsent(storage, s -> {
            String id = "storage-" + IDS.size();
            BY_ID.put(id, s);
            return id;
        }));
    }

    @Override
    public void initialize(URI name, Configuration conf) throws IOException {
        super.initialize(name, conf);
        setConf(conf);
        this.uri = URI.create(name.getScheme() + "://" + name.getAuthority());
        Storage storage = BY_ID.getOrDefault(conf.get(STORAGE_ID, ""), Storage.NONE);
        this.store = ObjectStore.of(storage);
        this.workingDir = new Path(uri.toString() + "/");
    }

    ObjectStore store() {
        return store;
    }

    @Override
    public String getScheme() {
        return uri.getScheme();
    }

    @Override
    public URI getUri() {
        return uri;
    }

    /** The object or folder a path names. */
    ObjectLocation location(Path path) {
        Path q = makeQualified(path);
        return ObjectLocation.parse(q.toUri().getScheme() + "://" + q.toUri().getAuthority() + q.toUri().getPath());
    }

    private Path pathOf(ObjectLocation bucket, String key) {
        return new Path(uri.getScheme() + "://" + bucket.bucket() + "/" + key);
    }

    FileStatus fileStatus(ObjectLocation where, ObjectInfo o) {
        if (o.key().endsWith("/")) {
            return new FileStatus(0, true, 1, BLOCK_SIZE, 0, pathOf(where, o.key().substring(0, o.key().length() - 1)));
        }
        return new FileStatus(o.size(), false, 1, BLOCK_SIZE, o.mtimeMs(), pathOf(where, o.key()));
    }

    @Override
    public FSDataInputStream open(Path f, int bufferSize) throws IOException {
        return new FSDataInputStream(new ObjectInputStream(store, location(f), statistics));
    }

    @Override
    public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize, short replication,
                                     long blockSize, Progressable progress) throws IOException {
        ObjectLocation where = location(f);
        if (!overwrite && store.head(where) != null) {
            throw new FileAlreadyExistsException(f + " already exists");
        }
        return new FSDataOutputStream(new ObjectOutputStream(store, where, !overwrite), statistics);
    }

    /** Uploads the local file {@code file} as the object {@code f} (in parts when it is large), replacing any. */
    public void upload(java.nio.file.Path file, Path f) throws IOException {
        store.put(location(f), file);
    }

    @Override
    public FSDataOutputStream append(Path f, int bufferSize, Progressable progress) throws IOException {
        throw new IOException("append is not supported on object storage: " + f);
    }

    /** A copy and a delete, of a file only; false when the source is no file or the target exists. */
    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        ObjectLocation from = location(src);
        ObjectLocation to = location(dst);
        ObjectInfo source = store.head(from);
        if (source == null || store.head(to) != null) {
            return false;
        }
        store.copy(from, source.etag(), source.size(), to);
        store.delete(from);
        return true;
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
        ObjectLocation where = location(f);
        if (!where.key().isEmpty()) {
            store.delete(where);
        }
        if (recursive) {
            List<String> keys = new ArrayList<>();
            try {
                store.list(where, true, null).forEachRemaining(o -> keys.add(o.key()));
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            store.deleteAll(where.scheme(), where.bucket(), keys);
        }
        return true;
    }

    @Override
    public FileStatus[] listStatus(Path f) throws IOException {
        ObjectLocation where = location(f);
        List<FileStatus> out = new ArrayList<>();
        try {
            store.list(where, false, null).forEachRemaining(o -> out.add(fileStatus(where, o)));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (out.isEmpty()) {
            ObjectInfo file = where.key().isEmpty() ? null : store.head(where);
            if (file == null) {
                throw new FileNotFoundException(f + ": no such file or folder");
            }
            return new FileStatus[] {fileStatus(where.withKey(""), file)};
        }
        return out.toArray(new FileStatus[0]);
    }

    /** With {@code recursive}, one flat listing of every object under {@code f}, page by page. */
    @Override
    public RemoteIterator<LocatedFileStatus> listFiles(Path f, boolean recursive) throws IOException {
        if (!recursive) {
            return super.listFiles(f, false);
        }
        ObjectLocation where = location(f);
        Iterator<ObjectInfo> it = store.list(where, true, null);
        return new RemoteIterator<>() {
            @Override
            public boolean hasNext() throws IOException {
                try {
                    return it.hasNext();
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
            }

            @Override
            public LocatedFileStatus next() throws IOException {
                try {
                    return new LocatedFileStatus(fileStatus(where, it.next()), null);
                } catch (UncheckedIOException e) {
                    throw e.getCause();
                }
            }
        };
    }

    @Override
    public void setWorkingDirectory(Path dir) {
        workingDir = dir;
    }

    @Override
    public Path getWorkingDirectory() {
        return workingDir;
    }

    /** Folders exist while something lies under them: nothing to create. */
    @Override
    public boolean mkdirs(Path f, FsPermission permission) {
        return true;
    }

    @Override
    public FileStatus getFileStatus(Path f) throws IOException {
        ObjectLocation where = location(f);
        if (where.key().isEmpty()) {
            return new FileStatus(0, true, 1, BLOCK_SIZE, 0, makeQualified(f));
        }
        ObjectInfo o = store.head(where);
        if (o != null) {
            return fileStatus(where.withKey(""), o);
        }
        if (store.folderExists(where)) {
            return new FileStatus(0, true, 1, BLOCK_SIZE, 0, makeQualified(f));
        }
        throw new FileNotFoundException(f + ": no such file or folder");
    }

    @Override
    public long getDefaultBlockSize() {
        return BLOCK_SIZE;
    }
}
