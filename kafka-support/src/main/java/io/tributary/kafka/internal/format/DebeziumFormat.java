package io.tributary.kafka.internal.format;

import io.tributary.expressions.JsonTextVariants;
import io.tributary.schema.DebeziumEvents;
import io.tributary.schema.Schema;
import io.tributary.schema.TimeTexts;
import io.tributary.kafka.ValueFormat;
import java.time.ZoneOffset;
import java.util.List;

/**
 * {@code source.kafka.format: debezium-json}: each record's value is one of Debezium's JSON change
 * events, bare or under the JSON converter's schema wrapper, read as the file source reads them
 * ({@link DebeziumEvents}): the schema's columns from {@code after} ({@code before} for a delete),
 * then {@code op} and {@code lsn}; a VARIANT column holding JSON text (Debezium's {@code io.debezium.data.Json}) is the
 * variant {@code parse_json} makes of it ({@link JsonTextVariants}). A tombstone (a null value, or a null {@code payload}) and a
 * truncate event give no row.
 */
final class DebeziumFormat implements ValueFormat {
    private final Schema columns;
    private final DebeziumEvents events;

    /** Events read into the table's columns {@code data}, the sequence made of the {@code source} fields {@code sequence}. */
    DebeziumFormat(Schema data, List<String> sequence, String schemaKey, String sequenceKey) {
        this.columns = DebeziumEvents.rowSchema(data, sequence, schemaKey, sequenceKey);
        // a TIMESTAMP written without an offset is UTC's, as for format json
        this.events = new DebeziumEvents(columns, TimeTexts.of(ZoneOffset.UTC), sequence, JsonTextVariants.INSTANCE);
    }

    @Override
    public Schema columns() {
        return columns;
    }

    @Override
    public Object[] row(String topic, int partition, long offset, byte[] value) {
        DebeziumEvents.Event e = events.parse(value, 0, value.length);
        return e.skip() != null ? null : e.row();
    }
}
