package io.tributary.kafka.internal.format;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.kafka.ValueFormat;
import io.tributary.schema.DebeziumEvents;
import io.tributary.schema.Schema;
import io.tributary.schema.TimeTexts;
import java.io.IOException;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DecoderFactory;

/**
 * {@code source.kafka.format: debezium-avro}: each record's value is one of Debezium's change events
 * written by Confluent's Avro converter, in the registry's wire format ({@link WireFormat}): the
 * envelope record ({@code before} and {@code after}, nullable records of the table's row,
 * {@code source}, {@code op}, {@code ts_ms}) read as the envelope of the subject's latest version
 * when the run starts (Avro's schema resolution), then into rows as {@code debezium-json} reads its
 * events ({@link DebeziumEvents}): the row's columns from {@code after} ({@code before} for a
 * delete), typed as the Avro format types them ({@link AvroColumns}), then {@code op} and {@code lsn}
 * from the {@code source} fields the sequence names. A truncate event gives no row; the sink skips tombstones.
 */
final class DebeziumAvroFormat implements ValueFormat {
    private final org.apache.avro.Schema envelope;
    private final org.apache.avro.Schema value;
    private final Schema data;
    private final Schema columns;
    private final DebeziumEvents events;
    private final SchemaRegistry registry;
    private final Map<Integer, GenericDatumReader<Object>> byId = new ConcurrentHashMap<>();

    /**
     * @param envelope the envelope's Avro schema every event is read as
     * @throws io.tributary.schema.TributaryException when it is not Debezium's envelope
     */
    DebeziumAvroFormat(org.apache.avro.Schema envelope, SchemaRegistry registry, List<String> sequence, String schemaKey,
                       String sequenceKey) {
        this.envelope = envelope;
        this.value = valueRecord(envelope);
        this.data = AvroColumns.of(value);
        this.columns = DebeziumEvents.rowSchema(data, sequence, schemaKey, sequenceKey);
        this.events = new DebeziumEvents(columns, TimeTexts.of(ZoneOffset.UTC), sequence);
        this.registry = registry;
    }

    /** The row's record: the non-null branch of the envelope's {@code after} (or {@code before}). */
    private static org.apache.avro.Schema valueRecord(org.apache.avro.Schema envelope) {
        if (envelope.getType() == org.apache.avro.Schema.Type.RECORD) {
            for (String image : List.of("after", "before")) {
                org.apache.avro.Schema.Field f = envelope.getField(image);
                if (f == null) {
                    continue;
                }
                org.apache.avro.Schema s = f.schema();
                if (s.getType() == org.apache.avro.Schema.Type.UNION) {
                    s = s.getTypes().stream().filter(b -> b.getType() != org.apache.avro.Schema.Type.NULL).findFirst().orElse(s);
                }
                if (s.getType() == org.apache.avro.Schema.Type.RECORD && envelope.getField("op") != null) {
                    return s;
                }
            }
        }
        throw FormatErrors.badSetting("the Avro schema " + envelope.getFullName() + " is not Debezium's change event envelope (a"
                + " record with op and after, or before, a nullable record of the table's columns)", null);
    }

    @Override
    public Schema columns() {
        return columns;
    }

    @Override
    public Object[] row(String topic, int partition, long offset, byte[] bytes) {
        WireFormat wire = WireFormat.of(bytes, false);
        GenericDatumReader<Object> reader = readerOf(wire.schemaId(), "topic " + topic + " partition " + partition + " offset " + offset);
        IndexedRecord env;
        try {
            env = (IndexedRecord) reader.read(null, DecoderFactory.get().binaryDecoder(bytes, wire.offset(), bytes.length - wire.offset(), null));
        } catch (IOException | RuntimeException e) {
            throw FormatErrors.undecodable("Avro", e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
        Object op = field(env, "op");
        DebeziumEvents.Event e = events.event(op == null ? null : op.toString(), image(field(env, "before")),
                image(field(env, "after")), source(field(env, "source")));
        return e.skip() != null ? null : e.row();
    }

    private Object field(IndexedRecord env, String name) {
        org.apache.avro.Schema.Field f = envelope.getField(name);
        return f == null ? null : env.get(f.pos());
    }

    private Object[] image(Object record) {
        return record == null ? null : AvroValues.row(record, value, data);
    }

    /** The source block as JSON, for the sequence: whole numbers as numbers, the rest as text. */
    private static JsonNode source(Object source) {
        if (!(source instanceof IndexedRecord r)) {
            return null;
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        for (org.apache.avro.Schema.Field f : r.getSchema().getFields()) {
            Object v = r.get(f.pos());
            if (v == null) {
                out.putNull(f.name());
            } else if (v instanceof Long || v instanceof Integer) {
                out.put(f.name(), ((Number) v).longValue());
            } else {
                out.put(f.name(), v.toString());
            }
        }
        return out;
    }

    private synchronized GenericDatumReader<Object> readerOf(int id, String where) {
        GenericDatumReader<Object> known = byId.get(id);
        if (known != null) {
            return known;
        }
        org.apache.avro.Schema writer = AvroFormat.writerSchema(registry, id);
        AvroFormat.checkCompatible(where, id, registry.url(), envelope, writer);
        GenericDatumReader<Object> reader = new GenericDatumReader<>(writer, envelope);
        byId.put(id, reader);
        return reader;
    }
}
