package io.tributary.sink.internal;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.NoSuchElementException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Every file under a table's folder, while writers may be adding and removing files in it.
 *
 * <p>Hadoop's recursive {@code listFiles} on the local file system reads each file's permissions
 * by running {@code ls} on it, and fails the whole listing when a file is gone by then: a commit's
 * temporary {@code .crc} file another writer renamed away was enough to stop a sink from starting.
 * On the local file system the folders are listed one by one instead ({@code listStatus} leaves out
 * a file deleted between the folder's names and its stat, and a folder gone before it is listed is
 * passed over); elsewhere (object storage) the file system's own recursive listing is used, one
 * flat listing from the store.
 */
public final class FolderListing {
    private FolderListing() {
    }

    /** The files under {@code root} (its folders left out), in no particular order. */
    public static RemoteIterator<FileStatus> files(FileSystem fs, Path root) throws IOException {
        if (!"file".equals(fs.getUri().getScheme())) {
            RemoteIterator<? extends FileStatus> it = fs.listFiles(root, true);
            return new RemoteIterator<>() {
                @Override
                public boolean hasNext() throws IOException {
                    return it.hasNext();
                }

                @Override
                public FileStatus next() throws IOException {
                    return it.next();
                }
            };
        }
        return new LocalWalk(fs, root);
    }

    private static final class LocalWalk implements RemoteIterator<FileStatus> {
        private final FileSystem fs;
        private final Deque<Path> folders = new ArrayDeque<>();
        private FileStatus[] entries = new FileStatus[0];
        private int nextEntry;
        private FileStatus next;

        LocalWalk(FileSystem fs, Path root) throws IOException {
            this.fs = fs;
            entries = fs.listStatus(root);
        }

        @Override
        public boolean hasNext() throws IOException {
            while (next == null) {
                if (nextEntry < entries.length) {
                    FileStatus entry = entries[nextEntry++];
                    if (entry.isDirectory()) {
                        folders.push(entry.getPath());
                    } else {
                        next = entry;
                    }
                } else if (folders.isEmpty()) {
                    return false;
                } else {
                    nextEntry = 0;
                    Path folder = folders.pop();
                    try {
                        entries = fs.listStatus(folder);
                    } catch (IOException e) {
                        // a folder gone between its parent's listing and its own: FileNotFoundException, or from Hadoop's
                        // FileUtil.list AccessDeniedException or "Invalid directory", depending on when it went
                        if (fs.exists(folder)) {
                            throw e;
                        }
                        entries = new FileStatus[0];
                    }
                }
            }
            return true;
        }

        @Override
        public FileStatus next() throws IOException {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            FileStatus out = next;
            next = null;
            return out;
        }
    }
}
