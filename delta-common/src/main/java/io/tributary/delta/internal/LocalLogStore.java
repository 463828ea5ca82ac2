package io.tributary.delta.internal;

import io.delta.storage.HDFSLogStore;
import java.io.BufferedWriter;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Delta log on a local or shared (mounted) folder, for Kernel's default engine
 * ({@code io.delta.kernel.logStore.file.impl}): a commit is written to a temporary file and then
 * hard-linked to its name, which the operating system refuses if the name exists. Of two writers
 * racing for one version, in one process or in several, exactly one wins and the other gets
 * {@link FileAlreadyExistsException}, which Kernel turns into a conflict to resolve. (Delta's own
 * {@code HDFSLogStore} checks for the name and then renames the file over it, which on a local
 * file system replaces a commit another process made in between: a lost commit.) A file written
 * over ({@code _last_checkpoint}) loses the hidden {@code .<name>.crc} checksum that Hadoop's
 * {@code LocalFileSystem} (Spark's) may have left beside it, as it would no longer match. Reading
 * and listing are Delta's.
 */
public final class LocalLogStore extends HDFSLogStore {
    private static final Logger LOG = LoggerFactory.getLogger(LocalLogStore.class);
    private static final AtomicBoolean WARNED = new AtomicBoolean();

    public LocalLogStore(Configuration conf) {
        super(conf);
    }

    @Override
    public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration conf) throws IOException {
        File target = new File(path.toUri().getPath());
        java.nio.file.Path file = target.toPath();
        java.nio.file.Path temp = file.resolveSibling("." + target.getName() + "." + UUID.randomUUID() + ".tmp");
        Files.createDirectories(file.getParent());
        try {
            try (BufferedWriter out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW)) {
                while (actions.hasNext()) {
                    out.write(actions.next());
                    out.write('\n');
                }
            }
            if (Boolean.TRUE.equals(overwrite)) {
                // Hadoop's checksum of the content replaced (another engine wrote it through LocalFileSystem, e.g.
                // Spark's _last_checkpoint) would no longer match: a reader that checks it fails; without one it reads
                Files.deleteIfExists(file.resolveSibling("." + target.getName() + ".crc"));
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                createOnce(file, temp);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** Gives {@code temp}'s content the name {@code file} unless that name exists. */
    private static void createOnce(java.nio.file.Path file, java.nio.file.Path temp) throws IOException {
        try {
            Files.createLink(file, temp);
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(file.toString()); // not the temporary file's name too
        } catch (UnsupportedOperationException | FileSystemException e) {
            // a file system without hard links: check, then move, as Delta does (safe for one writer process only)
            if (WARNED.compareAndSet(false, true)) {
                LOG.warn("{} does not support hard links ({}): Delta commits there are safe for one writing process only",
                        file.getParent(), e.getMessage());
            }
            synchronized (LocalLogStore.class) {
                if (Files.exists(file)) {
                    throw new FileAlreadyExistsException(file.toString());
                }
                Files.move(temp, file);
            }
        }
    }
}
