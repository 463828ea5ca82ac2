package io.tributary.kafka;

import io.tributary.schema.Schema;

/**
 * A record of the topic names a schema with columns the sink's schema lacks
 * ({@link io.tributary.schema.Topics#SCHEMA_HEADER}): the sink stops the batch before the record,
 * grows its schema and reads the batch again.
 */
public final class SchemaChangeException extends RuntimeException {
    private final transient Schema schema;

    public SchemaChangeException(Schema schema) {
        super("the topic's rows have columns the sink's schema lacks: " + schema.toDdl(), null, false, false);
        this.schema = schema;
    }

    public Schema schema() {
        return schema;
    }
}
