package io.tributary.ingest.internal;

import io.tributary.ingest.BadRecord;
import io.tributary.ingest.IngestConfig;
import io.tributary.schema.Printable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the input folder's files ahead of the ingest, on a thread of its own: their rows parsed
 * and packed as {@link FilePublisher#read} packs them, held in memory until the ingest publishes
 * the file. It starts with the pipeline, before Kafka is there, so that the files are read while
 * the embedded broker starts and the producer takes its transactional id, and the first batch
 * then only sends; later it reads the next file while the ingest sends the one before.
 *
 * <p>It reads the files listed when it starts, in batch order, and nothing else (files that arrive
 * later are read by the ingest itself). It never holds more than {@code maxBytes} of rows, passes
 * over files bigger than a quarter of that, and forgets the files the ingest log says are done. A
 * file whose size or modification time changed since, a file read for another partition count,
 * and a file whose reading failed (a bad line under {@code onBadRecord: fail}, an I/O error) are
 * read again by the ingest, which then reports what is wrong. Nothing read ahead reaches Kafka
 * but through the ingest's transaction, so exactly-once is the ingest's as before.
 */
public final class ReadAhead implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReadAhead.class);

    /** A file read ahead: its records (rows and kept bad lines) in file order, and what it gave. */
    public record Prepared(FileResult result, int partitions, List<Object> records, long bytes) {
        /** Hands the records to {@code out} in file order, as reading the file hands them. */
        void replay(FilePublisher.Out out) {
            for (Object r : records) {
                if (r instanceof Event e) {
                    out.event(e.partition(), e.timestampMs(), e.value());
                } else {
                    out.deadLetter((BadRecord) r);
                }
            }
        }
    }

    private record Event(int partition, Long timestampMs, byte[] value) {
    }

    private static final class Entry {
        final FileStat file;
        boolean reading;
        /** What was read; null before, after a failed reading, and once taken or forgotten. */
        Prepared prepared;

        Entry(FileStat file) {
            this.file = file;
        }
    }

    private final FilePublisher reader;
    private final int partitions;
    private final long maxBytes;
    /** Files still to read or to take, by name; a file leaves when taken or forgotten. */
    private final Map<String, Entry> entries = new HashMap<>();
    private final List<Entry> order = new ArrayList<>();
    private final Thread thread;
    private long held;
    private boolean closed;

    private ReadAhead(IngestConfig config, int partitions, long maxBytes, FileDiscovery discovery, List<FileStat> files) {
        this.reader = new FilePublisher(config, null, null, discovery);
        this.partitions = partitions;
        this.maxBytes = maxBytes;
        for (FileStat f : files) {
            if (f.size() <= maxBytes / 4) {
                Entry e = new Entry(f);
                entries.put(f.relPath(), e);
                order.add(e);
            }
        }
        this.thread = new Thread(this::readAll, "tributary-read-ahead");
        thread.setDaemon(true);
    }

    /**
     * Starts reading the input folder of {@code config} for an events topic of {@code partitions}
     * partitions, holding at most {@code maxBytes}; null when the folder cannot be listed (the
     * ingest reports that itself).
     */
    public static ReadAhead start(IngestConfig config, int partitions, long maxBytes) {
        List<FileStat> files;
        FileDiscovery discovery;
        try {
            discovery = FileDiscovery.of(config);
            files = discovery.list();
        } catch (RuntimeException e) {
            return null;
        }
        ReadAhead r = new ReadAhead(config, partitions, maxBytes, discovery, files);
        r.thread.start();
        return r;
    }

    private void readAll() {
        for (Entry e : order) {
            synchronized (this) {
                while (!closed && held >= maxBytes && entries.get(e.file.relPath()) == e) {
                    waitHere();
                }
                if (closed) {
                    return;
                }
                if (entries.get(e.file.relPath()) != e) {
                    continue; // taken by the ingest before its turn, or done already
                }
                e.reading = true;
            }
            Prepared p = read(e.file);
            synchronized (this) {
                e.reading = false;
                if (p != null && entries.get(e.file.relPath()) == e) { // not forgotten meanwhile
                    e.prepared = p;
                    held += p.bytes();
                }
                notifyAll();
            }
        }
    }

    private Prepared read(FileStat file) {
        List<Object> records = new ArrayList<>();
        long[] bytes = {0};
        try {
            FileResult result = reader.read(file, partitions, new FilePublisher.Out() {
                @Override
                public void event(int partition, Long timestampMs, byte[] value) {
                    records.add(new Event(partition, timestampMs, value));
                    bytes[0] += value.length;
                }

                @Override
                public void deadLetter(BadRecord record) {
                    records.add(record);
                }
            });
            return new Prepared(result, partitions, records, bytes[0]);
        } catch (Exception e) {
            LOG.debug("read-ahead of {}: {}; the ingest reads it itself", Printable.escape(file.relPath()), e.toString());
            return null;
        }
    }

    /**
     * What was read ahead for {@code file}, if it is still what the folder holds and was read for
     * {@code partitions} partitions; waits while it is being read. Null otherwise, and the file
     * is never read ahead after this call.
     */
    Prepared take(FileStat file, int partitions, byte[] rowsHeader) {
        Prepared p = take(file, partitions);
        return p != null && java.util.Arrays.equals(reader.rowsHeader(), rowsHeader) ? p : null; // packed as the publisher packs
    }

    synchronized Prepared take(FileStat file, int partitions) {
        Entry e = entries.get(file.relPath());
        if (e == null) {
            return null;
        }
        while (e.reading && !closed) {
            waitHere();
        }
        entries.remove(file.relPath());
        if (e.prepared == null || closed) {
            return null;
        }
        held -= e.prepared.bytes();
        notifyAll();
        Prepared p = e.prepared;
        e.prepared = null;
        return p.result().file().sameAs(file) && p.partitions() == partitions ? p : null;
    }

    /** Forgets the files in {@code done} (the ingest log's): they are not read, and what was read of them is dropped. */
    public synchronized void forget(Set<String> done) {
        for (String path : done) {
            Entry e = entries.remove(path);
            if (e != null && e.prepared != null) {
                held -= e.prepared.bytes();
                e.prepared = null;
            }
        }
        notifyAll();
    }

    /** Forgets the files the ingest will not take ({@code notNew}: older than the files it forgot, {@code maxFileAge}). */
    public synchronized void forgetIf(Predicate<FileStat> notNew) {
        forget(entries.values().stream().filter(e -> notNew.test(e.file)).map(e -> e.file.relPath()).collect(Collectors.toSet()));
    }

    private void waitHere() {
        try {
            wait();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    /** The bytes of rows it holds now. */
    public synchronized long heldBytes() {
        return held;
    }

    /** True once {@code relPath} was read and not taken yet (for tests). */
    synchronized boolean isRead(String relPath) {
        Entry e = entries.get(relPath);
        return e != null && e.prepared != null;
    }

    /** True once it has gone through every file it listed, waiting up to {@code waitMs} for that. */
    public boolean finished(long waitMs) throws InterruptedException {
        thread.join(waitMs);
        return !thread.isAlive();
    }

    /** Stops reading and drops what was read. */
    @Override
    public synchronized void close() {
        closed = true;
        entries.clear();
        held = 0;
        notifyAll();
    }
}
