package io.tributary.sink.internal;

import io.tributary.sink.SinkOffsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link KeyedBatch} whose records are collapsed on a thread of its own while the sink's thread
 * still polls and parses the next ones: the reading thread hands the records, in Kafka order, in
 * chunks to one collapsing thread, which adds them to the batch in the same order, so the batch
 * holds what it would have held. {@link #commit} waits until every record is added, then commits
 * the batch; a failure of the collapsing thread fails the next {@link #add} or the commit with the
 * same exception.
 */
final class CollapseAhead implements KeyedBatch {
    private static final int CHUNK = 4096;
    private static final int CHUNKS_IN_FLIGHT = 4;
    private static final Chunk END = new Chunk();

    private final KeyedBatch batch;
    private final BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(CHUNKS_IN_FLIGHT);
    private final Thread thread;
    private Chunk chunk = new Chunk();
    private volatile RuntimeException failure;
    private volatile boolean stopped;

    /** The records of one hand-off, in Kafka order. */
    private static final class Chunk {
        final RecordOrigin[] origins = new RecordOrigin[CHUNK];
        final Object[][] rows = new Object[CHUNK][];
        int size;
    }

    CollapseAhead(KeyedBatch batch, String name) {
        this.batch = batch;
        this.thread = new Thread(this::collapse, "tributary-collapse-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void add(RecordOrigin origin, Object[] row) {
        Chunk c = chunk;
        c.origins[c.size] = origin;
        c.rows[c.size] = row;
        if (++c.size == CHUNK) {
            hand(c);
            chunk = new Chunk();
        }
    }

    @Override
    public CommitResult commit(SinkOffsets next, long sourceRows) {
        finish();
        return batch.commit(next, sourceRows);
    }

    @Override
    public void discard() {
        stopped = true;
        queue.clear();
        queue.offer(END);
        join();
        batch.discard();
    }

    /** Hands the last records and waits until the collapsing thread has added every one. */
    private void finish() {
        if (chunk.size > 0) {
            hand(chunk);
            chunk = new Chunk();
        }
        hand(END);
        join();
        if (failure != null) {
            throw failure;
        }
    }

    private void hand(Chunk c) {
        try {
            while (!queue.offer(c, 100, TimeUnit.MILLISECONDS)) {
                if (failure != null) {
                    throw failure;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading a keyed batch", e);
        }
        if (failure != null) {
            throw failure;
        }
    }

    private void join() {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading a keyed batch", e);
        }
    }

    private void collapse() {
        try {
            while (true) {
                Chunk c = queue.take();
                if (c == END || stopped) {
                    return;
                }
                for (int i = 0; i < c.size; i++) {
                    batch.add(c.origins[i], c.rows[i]);
                }
            }
        } catch (RuntimeException e) {
            failure = e;
            queue.clear(); // the reader's next hand-off finds room, then the failure
        } catch (InterruptedException e) {
            failure = new IllegalStateException("the collapsing thread was interrupted", e);
        }
    }
}
