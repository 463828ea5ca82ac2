package io.tributary.sink.internal;

import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.utils.DataFileStatus;
import io.tributary.schema.TributaryException;
import io.tributary.sink.SinkOffsets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One append batch whose rows are written while the sink still reads them, so that polling and
 * parsing the topic overlap with writing Parquet, and a batch's rows are never all in memory:
 * {@link #add} hands rows in chunks to a writer thread ({@link DirectParquetFiles.Rolling}), and
 * {@link #commit} waits for its files and commits them with the txn and the offsets. Where
 * Tributary's own Parquet writer does not apply (partitioned tables, Kernel's writer, other file
 * systems) the rows are collected and written at {@link #commit}. Closing a stream that was not
 * committed deletes what it wrote.
 */
public final class AppendStream implements AutoCloseable {
    private static final int CHUNK_ROWS = 4096;
    private static final int CHUNKS_IN_FLIGHT = 4;
    private static final List<Object[]> END = new ArrayList<>();

    private final DeltaTableWriter writer;
    private final Transaction txn;
    private final Claim claim;
    private final String appId;
    private final long batchId;
    /** The version holding this batch already (nothing is written), or -1. */
    private final long alreadyIn;
    private final DirectParquetFiles.Rolling direct;
    private final List<Object[]> collected;
    private final BlockingQueue<List<Object[]>> queue = new ArrayBlockingQueue<>(CHUNKS_IN_FLIGHT);
    private final Thread thread;
    private List<Object[]> chunk = new ArrayList<>(CHUNK_ROWS);
    private long rows;
    private volatile boolean cancelled;
    private volatile Throwable failure;
    private List<DataFileStatus> written;
    private boolean done;

    /**
     * The batch a stream writes: batch {@code batchId} of txn appId {@code appId}, its transaction built on
     * {@code base}, expecting the table to hold {@code expectedStart} (see {@link DeltaTableWriter#append}).
     */
    record Claim(String appId, long batchId, java.util.Optional<io.delta.kernel.Snapshot> base, java.util.Map<Integer, Long> expectedStart) {
    }

    private AppendStream(DeltaTableWriter writer, Transaction txn, Claim claim, long alreadyIn,
                         DirectParquetFiles.Rolling direct) {
        this.writer = writer;
        this.txn = txn;
        this.claim = claim;
        this.appId = claim.appId();
        this.batchId = claim.batchId();
        this.alreadyIn = alreadyIn;
        this.direct = direct;
        this.collected = direct == null && alreadyIn < 0 ? new ArrayList<>() : null;
        if (direct != null) {
            this.thread = new Thread(this::writeChunks, "tributary-parquet-" + appId);
            thread.setDaemon(true);
            thread.start();
        } else {
            this.thread = null;
        }
    }

    /** A batch to write in {@code txn}; {@code direct}: Tributary's writer for its files, or null to collect the rows. */
    static AppendStream open(DeltaTableWriter writer, Transaction txn, Claim claim, DirectParquetFiles.Rolling direct) {
        return new AppendStream(writer, txn, claim, -1, direct);
    }

    /** A batch the table holds already (version {@code version}): rows are dropped, {@link #commit} writes nothing. */
    static AppendStream alreadyCommitted(DeltaTableWriter writer, String appId, long batchId, long version) {
        return new AppendStream(writer, null, new Claim(appId, batchId, java.util.Optional.empty(), java.util.Map.of()), version, null);
    }

    /** Adds one row (in input order); throws if the writer thread failed. */
    public void add(Object[] row) {
        rows++;
        if (collected != null) {
            collected.add(row);
        } else if (direct != null) {
            chunk.add(row);
            if (chunk.size() == CHUNK_ROWS) {
                hand(chunk);
                chunk = new ArrayList<>(CHUNK_ROWS);
            }
        }
    }

    /** The rows added so far. */
    public long rows() {
        return rows;
    }

    /** Writes what is left and commits the batch with {@code next} (see {@link DeltaTableWriter#append}). */
    public CommitResult commit(SinkOffsets next) {
        if (done) {
            throw new IllegalStateException("batch " + batchId + " of " + appId + " was committed or closed already");
        }
        done = true;
        if (alreadyIn >= 0) {
            return CommitResult.alreadyCommitted(alreadyIn);
        }
        long t0 = System.nanoTime();
        List<Row> actions = finishFiles();
        return writer.commitAppend(txn, claim, actions, next, rows, System.nanoTime() - t0);
    }

    /**
     * Writes what is left and commits the files with {@code domains} (domain metadata name to
     * configuration) and no {@code txn}: for a stream from {@link DeltaTableWriter#openPartitionAppend}.
     */
    public CommitResult commitWithDomains(Map<String, String> domains) {
        if (done) {
            throw new IllegalStateException("batch of " + appId + " was committed or closed already");
        }
        done = true;
        long t0 = System.nanoTime();
        List<Row> actions = finishFiles();
        return writer.commitPartitions(txn, appId, actions, domains, rows, System.nanoTime() - t0);
    }

    private List<Row> finishFiles() {
        if (collected != null) {
            return writer.writeFiles(txn, writer.toTableRows(collected));
        }
        if (!chunk.isEmpty()) {
            hand(chunk);
        }
        hand(END);
        join();
        if (failure != null) {
            throw failed();
        }
        try {
            return writer.files().addActions(txn, written);
        } catch (IOException e) {
            direct.abort();
            throw new UncheckedIOException("delta table " + writer.tablePath() + ": cannot describe the files of batch " + batchId, e);
        }
    }

    private void hand(List<Object[]> c) {
        try {
            while (!queue.offer(c, 100, TimeUnit.MILLISECONDS)) {
                if (failure != null) {
                    throw failed();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CommitErrors.interruptedWriting(writer.tablePath(), batchId, e);
        }
    }

    private void writeChunks() {
        try {
            while (true) {
                List<Object[]> c = queue.take();
                if (c == END || cancelled) {
                    break;
                }
                for (Object[] row : c) {
                    direct.write(row);
                }
            }
            if (!cancelled) {
                written = direct.finish();
            }
        } catch (Throwable t) {
            failure = t;
        }
        if (failure != null || cancelled) {
            direct.abort();
        }
    }

    private TributaryException failed() {
        return CommitErrors.cannotWriteParquet(writer.tablePath(), batchId, appId, failure);
    }

    private void join() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CommitErrors.interruptedWriting(writer.tablePath(), batchId, e);
        }
    }

    /** Without a {@link #commit}: stops the writer thread and deletes its files. */
    @Override
    public void close() {
        if (done || thread == null) {
            return;
        }
        done = true;
        cancelled = true;
        queue.clear();
        queue.offer(END);
        boolean interrupted = Thread.interrupted();
        try {
            thread.join();
        } catch (InterruptedException e) {
            interrupted = true;
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
