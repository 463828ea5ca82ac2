package io.tributary.ingest.internal;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Which new files have held still long enough to be read, where files grow in place (a local
 * folder, NFS): a file is settled once two looks at least {@code fileSettleTime} apart saw the
 * same size and modification time. A file still being written ({@code cp} of a big file, a
 * logger, a shell redirect) changes between looks and waits; so does a file created empty and
 * filled a moment later. On a file system that shares our clock, a file whose modification time is
 * {@code fileSettleTime} old or older has held still that long and is taken at the first look; on a
 * network file system (an NFS server's clock may differ) only the two looks count. A file moved or
 * renamed in after it was written whole (its change time past its modification time: {@code mv},
 * {@code rsync}, {@code cp -p}, a producer that writes aside and renames) is taken at the first look.
 */
final class Settling {
    /** A file's size and modification time, and when a look first saw them. */
    private record Seen(long size, long mtimeMs, long sinceMs) {
    }

    private final long settleMs;
    private final boolean sharesOurClock;
    /** Whether a file was moved in after its last write ({@link FileDiscovery#movedInAfterWritten}). */
    private final Predicate<FileStat> movedIn;
    private final Map<String, Seen> seen = new HashMap<>();

    Settling(long settleMs, boolean sharesOurClock, Predicate<FileStat> movedIn) {
        this.settleMs = settleMs;
        this.sharesOurClock = sharesOurClock;
        this.movedIn = movedIn;
    }

    /** Takes a look at {@code f} at {@code nowMs}: true when it held still since a look at least {@code fileSettleTime} ago. */
    boolean settled(FileStat f, long nowMs) {
        if (sharesOurClock && nowMs - f.mtimeMs() >= settleMs) {
            return true;
        }
        Seen s = seen.get(f.relPath());
        if (s == null && movedIn.test(f)) {
            return true;
        }
        if (s == null || s.size() != f.size() || s.mtimeMs() != f.mtimeMs()) {
            seen.put(f.relPath(), new Seen(f.size(), f.mtimeMs(), nowMs));
            return false;
        }
        return nowMs - s.sinceMs() >= settleMs;
    }

    /** How long from {@code nowMs} until {@code f}, unchanged, is settled (0 when it is). */
    long waitMs(FileStat f, long nowMs) {
        Seen s = seen.get(f.relPath());
        return s == null ? settleMs : Math.max(0, s.sinceMs() + settleMs - nowMs);
    }

    /** Forgets every file but {@code waiting} (the new files listed): the others were ingested, or are gone. */
    void retain(Set<String> waiting) {
        seen.keySet().retainAll(waiting);
    }
}
