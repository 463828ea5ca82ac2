package io.tributary.delta;

import io.delta.kernel.engine.FileReadRequest;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.FileStatus;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * Kernel's default file-system client with a cheaper {@code listFrom} for local ({@code file:}) paths.
 *
 * <p>Kernel opens a table by listing {@code _delta_log} from the last checkpoint on. The default
 * engine lists through Hadoop's {@code LogStore}, which on a local file system builds a Hadoop
 * {@code FileStatus} (a stat and several {@code Path}/URI parses) for <em>every</em> file in the
 * folder and only then keeps the names at or after the checkpoint: after 1,000 commits that is
 * 2,100 files for the 20 Kernel needs. Here the folder's names are read without a stat, the names
 * before the start are dropped, and the rest are stat-ed one by one as Kernel iterates (Kernel's
 * log clean-up lists from version 0 and stops at the first file inside the retention).
 * Same contract and answer as the default: the entries of the folder whose names are {@code >=}
 * the given name, sorted by name, paths in the form Hadoop gives them; a missing folder is a
 * {@link FileNotFoundException}; a file deleted between the listing and its stat is left out.
 * Any other scheme goes to the default client unchanged.
 */
final class LocalListingFileSystemClient implements FileSystemClient {
    private final FileSystemClient delegate;

    LocalListingFileSystemClient(FileSystemClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public CloseableIterator<FileStatus> listFrom(String filePath) throws IOException {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(filePath);
        if (!"file".equals(path.toUri().getScheme()) || path.getParent() == null) {
            return delegate.listFrom(filePath);
        }
        File dir = new File(path.getParent().toUri().getPath());
        String parent = path.getParent().toString();
        String from = path.getName();
        List<String> names = new ArrayList<>();
        try (DirectoryStream<java.nio.file.Path> entries = Files.newDirectoryStream(dir.toPath())) {
            for (java.nio.file.Path entry : entries) {
                String name = entry.getFileName().toString();
                if (name.compareTo(from) >= 0) {
                    names.add(name);
                }
            }
        } catch (NoSuchFileException e) {
            throw new FileNotFoundException("No such file or directory: " + path.getParent());
        }
        names.sort(null);
        return new Statuses(dir, parent, names);
    }

    /** Stats each name when Kernel reaches it; a name whose file is gone by then is skipped. */
    private static final class Statuses implements CloseableIterator<FileStatus> {
        private final File dir;
        private final String parent;
        private final List<String> names;
        private int nextName;
        private FileStatus next;

        Statuses(File dir, String parent, List<String> names) {
            this.dir = dir;
            this.parent = parent;
            this.names = names;
        }

        @Override
        public boolean hasNext() {
            while (next == null && nextName < names.size()) {
                String name = names.get(nextName++);
                try {
                    BasicFileAttributes a = Files.readAttributes(new File(dir, name).toPath(), BasicFileAttributes.class);
                    next = FileStatus.of(parent + "/" + name, a.size(), a.lastModifiedTime().toMillis());
                } catch (NoSuchFileException gone) {
                    // deleted since the listing (a concurrent log clean-up), as Hadoop's listStatus skips it
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException("cannot stat " + parent + "/" + name, e);
                }
            }
            return next != null;
        }

        @Override
        public FileStatus next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            FileStatus out = next;
            next = null;
            return out;
        }

        @Override
        public void close() {
        }
    }

    @Override
    public String resolvePath(String path) throws IOException {
        return delegate.resolvePath(path);
    }

    @Override
    public CloseableIterator<ByteArrayInputStream> readFiles(CloseableIterator<FileReadRequest> readRequests) throws IOException {
        return delegate.readFiles(readRequests);
    }

    @Override
    public boolean mkdirs(String path) throws IOException {
        return delegate.mkdirs(path);
    }

    @Override
    public boolean delete(String path) throws IOException {
        return delegate.delete(path);
    }

    @Override
    public FileStatus getFileStatus(String path) throws IOException {
        return delegate.getFileStatus(path);
    }

    @Override
    public void copyFileAtomically(String srcPath, String destPath, boolean overwrite) throws IOException {
        delegate.copyFileAtomically(srcPath, destPath, overwrite);
    }
}
