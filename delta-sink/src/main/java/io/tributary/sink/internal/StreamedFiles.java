package io.tributary.sink.internal;

import io.delta.kernel.Transaction;
import io.delta.kernel.data.Row;
import io.delta.kernel.utils.DataFileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Rows already in key order, read from local disk as they are asked for ({@link SpilledChanges}), written while they
 * are read: this thread reads them and hands them in chunks of {@value #CHUNK_ROWS} to a writer thread,
 * which writes files of at most {@code rowsPerFile} rows with Tributary's Parquet writer ({@link DirectParquetFiles},
 * a file at a time), so that reading the runs and writing Parquet overlap as {@link SortedFiles} had them overlap.
 *
 * <p>Why: a file's rows gathered before it was written (100,000 rows, two files in flight) lived through young
 * collections while the file before was written and were promoted, so a spilled batch of millions of keys filled the
 * old generation with rows already written. Here at most {@value #CHUNKS_IN_FLIGHT} chunks and the one being written
 * are in memory, and they die young.
 */
final class StreamedFiles {
    private static final int CHUNK_ROWS = 4096;
    private static final int CHUNKS_IN_FLIGHT = 4;
    private static final List<Object[]> END = new ArrayList<>();

    private final DeltaTableWriter writer;
    private final Transaction txn;
    private final int rowsPerFile;
    private final BlockingQueue<List<Object[]>> queue = new ArrayBlockingQueue<>(CHUNKS_IN_FLIGHT);
    private final List<DataFileStatus> written = new ArrayList<>();
    private volatile boolean cancelled;
    private DirectParquetFiles.Rolling file;
    private long rowsInFile;

    private StreamedFiles(DeltaTableWriter writer, Transaction txn, int rowsPerFile) {
        this.writer = writer;
        this.txn = txn;
        this.rowsPerFile = rowsPerFile;
    }

    /**
     * Writes {@code rows} (in the order to write them) in files of at most {@code rowsPerFile} rows; their add actions, in
     * order. Empty, having read nothing, where Tributary's Parquet writer does not write the table's files (a partitioned
     * table, column mapping, Kernel's writer asked for): the caller writes them otherwise.
     */
    static Optional<List<Row>> write(DeltaTableWriter writer, Transaction txn, Iterable<Object[]> rows, int rowsPerFile) {
        Optional<DirectParquetFiles.Rolling> first = writer.directFiles(txn);
        if (first.isEmpty()) {
            return Optional.empty();
        }
        StreamedFiles s = new StreamedFiles(writer, txn, rowsPerFile);
        s.file = first.get();
        return Optional.of(s.run(rows.iterator()));
    }

    private List<Row> run(Iterator<Object[]> rows) {
        CompletableFuture<Void> writing = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                writeChunks();
                writing.complete(null);
            } catch (Throwable t) {
                writing.completeExceptionally(t);
            }
        }, "tributary-parquet-" + writer.tablePath());
        thread.setDaemon(true);
        thread.start();
        try {
            List<Object[]> chunk = new ArrayList<>(CHUNK_ROWS);
            while (rows.hasNext()) {
                chunk.add(rows.next());
                if (chunk.size() == CHUNK_ROWS) {
                    hand(chunk, writing);
                    chunk = new ArrayList<>(CHUNK_ROWS);
                }
            }
            if (!chunk.isEmpty()) {
                hand(chunk, writing);
            }
            hand(END, writing);
            writing.join();
            return writer.files().addActions(txn, written);
        } catch (IOException e) {
            throw new UncheckedIOException("delta table " + writer.tablePath() + ": cannot describe the files written: " + e.getMessage(), e);
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        } finally {
            if (!writing.isDone()) { // this thread failed: the writer stops and deletes the file it had open
                cancelled = true;
                queue.clear();
                queue.offer(END);
                writing.exceptionally(t -> null).join();
            }
        }
    }

    /** Puts {@code chunk} in the queue, waiting for room; throws the writer's failure if it failed meanwhile. */
    private void hand(List<Object[]> chunk, CompletableFuture<Void> writing) {
        try {
            while (!queue.offer(chunk, 100, TimeUnit.MILLISECONDS)) {
                if (writing.isDone()) {
                    writing.join(); // throws its failure
                    throw new IllegalStateException("the Parquet writer of " + writer.tablePath() + " ended before the rows did");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing the files of " + writer.tablePath(), e);
        }
    }

    /** The writer: chunks from the queue into files of at most {@code rowsPerFile} rows, until {@link #END}. */
    private void writeChunks() {
        try {
            while (true) {
                List<Object[]> chunk = queue.take();
                if (chunk == END || cancelled) {
                    break;
                }
                for (Object[] row : chunk) {
                    if (file == null) {
                        file = writer.directFiles(txn).orElseThrow();
                    }
                    file.write(row);
                    if (++rowsInFile == rowsPerFile) {
                        closeFile();
                    }
                }
            }
            if (!cancelled && rowsInFile > 0) {
                closeFile();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("delta table " + writer.tablePath() + ": cannot write Parquet files: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            cancelled = true;
        } finally {
            if (file != null) {
                file.abort();
            }
        }
    }

    private void closeFile() throws IOException {
        written.addAll(file.finish());
        file = null;
        rowsInFile = 0;
    }
}
