package io.tributary.ingest.internal.format;

import java.util.List;

/**
 * A record has fields the schema lacks, under {@code schemaEvolution: addNewColumns}: the batch
 * stops before it is published, and the ingest grows its schema.
 */
public final class NewColumnsException extends RuntimeException {
    private final String file;
    private final long line;
    private final List<String> fields;

    NewColumnsException(String file, long line, List<String> fields) {
        super("file " + file + " line " + line + ": new fields " + fields, null, false, false);
        this.file = file;
        this.line = line;
        this.fields = List.copyOf(fields);
    }

    public String file() {
        return file;
    }

    public long line() {
        return line;
    }

    public List<String> fields() {
        return fields;
    }
}
