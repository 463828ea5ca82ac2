package io.tributary.delta.internal;

import io.delta.storage.CloseableIterator;
import io.delta.storage.LogStore;
import io.tributary.storage.ObjectInfo;
import io.tributary.storage.ObjectLocation;
import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * The Delta log on object storage, for Kernel's default engine ({@code io.delta.kernel.logStore.s3a.impl}):
 * a commit is written with S3's put-if-absent ({@code If-None-Match: *}), so of two writers racing
 * for one version exactly one wins and the other gets {@link java.nio.file.FileAlreadyExistsException},
 * which Kernel turns into a conflict to resolve, as on a local disk. (Delta's own
 * {@code S3SingleDriverLogStore} checks and then writes, which is safe within one JVM only.) A
 * listing starts at the given file's name on the server ({@code start-after}), not at the folder's first.
 */
public final class ObjectLogStore extends LogStore {
    public ObjectLogStore(Configuration conf) {
        super(conf);
    }

    private static ObjectFileSystem fs(Path path, Configuration conf) throws IOException {
        if (!(path.getFileSystem(conf) instanceof ObjectFileSystem fs)) {
            throw new IOException(path + " is not on object storage");
        }
        return fs;
    }

    @Override
    public CloseableIterator<String> read(Path path, Configuration conf) throws IOException {
        ObjectFileSystem fs = fs(path, conf);
        BufferedReader reader = new BufferedReader(new InputStreamReader(fs.store().open(fs.location(path), null, 0), StandardCharsets.UTF_8));
        return new CloseableIterator<>() {
            private String next;

            @Override
            public boolean hasNext() {
                try {
                    if (next == null) {
                        next = reader.readLine();
                    }
                    return next != null;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public String next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                String out = next;
                next = null;
                return out;
            }

            @Override
            public void close() throws IOException {
                reader.close();
            }
        };
    }

    @Override
    public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration conf) throws IOException {
        ObjectFileSystem fs = fs(path, conf);
        StringBuilder text = new StringBuilder();
        while (actions.hasNext()) {
            text.append(actions.next()).append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        if (Boolean.TRUE.equals(overwrite)) {
            fs.store().put(fs.location(path), bytes);
        } else {
            fs.store().putIfAbsent(fs.location(path), bytes);
        }
    }

    /** The files of {@code path}'s folder whose names are {@code >=} its name, sorted; the folder's absence is a {@link FileNotFoundException}. */
    @Override
    public Iterator<FileStatus> listFrom(Path path, Configuration conf) throws IOException {
        ObjectFileSystem fs = fs(path, conf);
        ObjectLocation file = fs.location(path);
        String parentKey = file.key().contains("/") ? file.key().substring(0, file.key().lastIndexOf('/')) : "";
        ObjectLocation folder = file.withKey(parentKey);
        String from = file.name();
        // start-after is exclusive: start just before the name, then keep the names >= it
        String startAfter = from.isEmpty() ? null : folder.prefix() + from.substring(0, from.length() - 1);
        List<FileStatus> out = new ArrayList<>();
        try {
            Iterator<ObjectInfo> it = fs.store().list(folder, false, startAfter);
            while (it.hasNext()) {
                ObjectInfo o = it.next();
                if (!o.key().endsWith("/") && o.name().compareTo(from) >= 0) {
                    out.add(fs.fileStatus(folder.withKey(""), o));
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (out.isEmpty() && !fs.store().folderExists(folder)) {
            throw new FileNotFoundException("No such file or directory: " + fs.makeQualified(path.getParent()));
        }
        return out.iterator();
    }

    @Override
    public Path resolvePathOnPhysicalStorage(Path path, Configuration conf) throws IOException {
        return path.getFileSystem(conf).makeQualified(path);
    }

    /** An object appears whole when its upload ends: no temporary file and rename needed. */
    @Override
    public Boolean isPartialWriteVisible(Path path, Configuration conf) {
        return false;
    }
}
