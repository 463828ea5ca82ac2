package io.tributary.ingest.internal.format;

import java.io.Closeable;
import java.io.IOException;

/**
 * The records of one input file in file order, each a row of the ingest's schema or a bad
 * record: a line of JSON Lines, CSV or text, a whole JSON document, a row of a Parquet file.
 * One implementation per format; the ingest reads every format through this.
 */
public interface RecordReader extends Closeable {
    /** Advances to the next record; false at the end of the file. */
    boolean next() throws IOException;

    /**
     * The current record as a row of the schema.
     *
     * @throws io.tributary.schema.BadRecordException naming the field, when the record is not a row
     */
    Object[] row();

    /** The 1-based line where the current record starts (the row number in a Parquet file). */
    long line();

    /** The current record's text for a dead letter: at most {@code maxBytes} of UTF-8, whole or cut. */
    Text text(int maxBytes);

    /** Said after a bad record's reason, or empty (the file's last line has no line end...). */
    default String note() {
        return "";
    }

    /** The records read so far that give no row and are no bad record: Debezium's tombstones and truncate events. */
    default long skipped() {
        return 0;
    }

    /** A record's text and whether it was cut. */
    record Text(String text, boolean truncated) {
    }

    @Override
    default void close() throws IOException {
    }
}
