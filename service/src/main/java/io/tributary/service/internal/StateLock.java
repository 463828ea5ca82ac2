package io.tributary.service.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One process per pipeline state: an exclusive lock on {@code <state>/tributary.lock}, held while
 * the process runs. A second process on the same state (two services started by mistake, or
 * {@code checkpoint show} while the embedded broker runs) is refused before it touches anything:
 * two brokers on one log folder corrupt it. The lock goes with the process, even a killed one.
 */
public final class StateLock implements AutoCloseable {
    /** The lock's file, in the state folder. */
    static final String FILE = "tributary.lock";
    private final FileChannel channel;
    private final FileLock lock;

    private StateLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    public static StateLock acquire(Path stateDir, String pipeline) {
        Path file = stateDir.resolve(FILE);
        try {
            Files.createDirectories(stateDir);
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.READ);
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                String holder = new String(Files.readAllBytes(file), StandardCharsets.UTF_8).strip();
                ch.close();
                throw ServiceErrors.alreadyRunning(pipeline, stateDir, holder);
            }
            StateLock held = new StateLock(ch, lock);
            held.describe("");
            return held;
        } catch (IOException e) {
            throw ServiceErrors.cannotLockState(stateDir, e.getMessage(), e);
        }
    }

    /**
     * What a second process is told about this one, after its pid: e.g. {@code ", http://127.0.0.1:8080/"},
     * where its endpoints show where it stands.
     */
    public void describe(String more) {
        try {
            channel.truncate(0);
            channel.write(java.nio.ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + more).getBytes(StandardCharsets.UTF_8)), 0);
        } catch (IOException e) {
            // only a courtesy to the next process: the lock itself holds
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException ignored) {
            // the lock goes with the process anyway
        }
    }
}
