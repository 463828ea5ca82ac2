package io.tributary.ingest;

import io.tributary.ingest.internal.ReadAhead;

/**
 * The input files read ahead of an ingest ({@link FileIngest#readAhead}), before Kafka is
 * reached. Hand it to the {@link FileIngest#FileIngest(IngestConfig, java.util.Map, FilesReadAhead, Runnable)
 * ingest}, which publishes what it holds and closes it; close it yourself if no ingest takes it.
 */
public final class FilesReadAhead implements AutoCloseable {
    private final ReadAhead reading;

    FilesReadAhead(ReadAhead reading) {
        this.reading = reading;
    }

    ReadAhead reading() {
        return reading;
    }

    /** Stops reading and lets go of what was read. */
    @Override
    public void close() {
        reading.close();
    }
}
