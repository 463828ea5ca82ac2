package io.tributary.compat.spark;

import io.delta.storage.CloseableIterator;
import io.delta.storage.HDFSLogStore;
import io.delta.storage.LogStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Spark's Delta log store for local tables ({@link HDFSLogStore}, Delta's default for {@code file:}),
 * with a hold at the commit point: once {@link #arm armed} for a table's version N, the write of
 * {@code _delta_log/N.json} waits, before anything is written, until the hold is released. Spark's
 * transaction is then open (it read its snapshot, wrote its data and deletion vector files) and has not
 * committed; another writer may commit version N meanwhile, and the released write meets that commit
 * as Delta's own conflict detection meets any concurrent one.
 *
 * <p>Set with {@code spark.delta.logStore.class=io.tributary.compat.spark.HeldCommitLogStore}. The hold is in
 * the JVM that runs Spark (the driver, where Delta commits): one armed version at a time, held once.
 */
public final class HeldCommitLogStore extends LogStore {
    private static final AtomicReference<Hold> ARMED = new AtomicReference<>();

    private final HDFSLogStore store;

    public HeldCommitLogStore(Configuration hadoopConf) {
        super(hadoopConf);
        this.store = new HDFSLogStore(hadoopConf);
    }

    /** Holds the next write of {@code table}'s commit {@code version} ({@code _delta_log/<version>.json}). */
    public static Hold arm(java.nio.file.Path table, long version) {
        Hold hold = new Hold(table.resolve("_delta_log").resolve(String.format("%020d.json", version)));
        if (!ARMED.compareAndSet(null, hold)) {
            throw new IllegalStateException("a commit is already held: " + ARMED.get().commit);
        }
        return hold;
    }

    @Override
    public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration hadoopConf) throws IOException {
        Hold hold = ARMED.get();
        if (hold != null && hold.matches(path) && ARMED.compareAndSet(hold, null)) {
            hold.holdHere();
        }
        store.write(path, actions, overwrite, hadoopConf);
    }

    @Override
    public CloseableIterator<String> read(Path path, Configuration hadoopConf) throws IOException {
        return store.read(path, hadoopConf);
    }

    @Override
    public Iterator<FileStatus> listFrom(Path path, Configuration hadoopConf) throws IOException {
        return store.listFrom(path, hadoopConf);
    }

    @Override
    public Path resolvePathOnPhysicalStorage(Path path, Configuration hadoopConf) throws IOException {
        return store.resolvePathOnPhysicalStorage(path, hadoopConf);
    }

    @Override
    public Boolean isPartialWriteVisible(Path path, Configuration hadoopConf) throws IOException {
        return store.isPartialWriteVisible(path, hadoopConf);
    }

    /** One held commit write: reached when Spark's commit is waiting in it, released by the caller. */
    public static final class Hold {
        private final java.nio.file.Path commit;
        private final CountDownLatch reached = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        private Hold(java.nio.file.Path commit) {
            this.commit = commit.toAbsolutePath().normalize();
        }

        private boolean matches(Path path) {
            if (!commit.getFileName().toString().equals(path.getName())) {
                return false;
            }
            try {
                return Paths.get(path.toUri()).getParent().toRealPath().equals(commit.getParent().toRealPath());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private void holdHere() throws IOException {
            reached.countDown();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while holding the commit " + commit, e);
            }
        }

        /** True once Spark's commit of the armed version waits in the hold, within {@code timeout}. */
        public boolean awaitReached(Duration timeout) throws InterruptedException {
            return reached.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        /** Lets the held commit write go on; disarms the hold if it was never reached. */
        public void release() {
            ARMED.compareAndSet(this, null);
            released.countDown();
        }

        /** The commit file this hold is for. */
        public java.nio.file.Path commit() {
            return commit;
        }
    }
}
