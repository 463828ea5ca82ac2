package io.tributary.kafka.internal.format;

import io.tributary.schema.Schema;
import io.tributary.kafka.ValueFormat;
import io.tributary.kafka.SchemaChangeException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * Avro values, as Spark's {@code from_avro(value, jsonFormatSchema)}: each value is Avro's binary
 * encoding of the source's schema; or, with a {@link SchemaRegistry}, Confluent's wire format
 * ({@link WireFormat}) whose schema id names the schema it was written with, read as the source's
 * schema by Avro's schema resolution (fields the source's schema lacks are left out, those it adds
 * take their defaults). A schema id the source's schema cannot read stops the run. Safe for several threads.
 */
public final class AvroFormat implements ValueFormat {
    /** The source's schema: every value is read as it; it grows under {@link NewFields#ADD}. */
    private volatile org.apache.avro.Schema schema;
    private volatile Schema columns;
    private final SchemaRegistry registry;
    private final NewFields newFields;
    private final Decoding plain;
    private final Map<Integer, Decoding> byId = new ConcurrentHashMap<>();

    /** A writer's schema read as the source's: the reader, and the source's schema and columns it reads into. */
    private record Decoding(GenericDatumReader<Object> reader, org.apache.avro.Schema schema, Schema columns) {
    }

    /** @param registry null: values are plain Avro binary of {@code schema} */
    public AvroFormat(org.apache.avro.Schema schema, SchemaRegistry registry) {
        this(schema, registry, NewFields.IGNORE);
    }

    /**
     * @param registry null: values are plain Avro binary of {@code schema}
     * @param newFields what a registry's schema with top-level fields {@code schema} lacks does (source.kafka.schemaEvolution)
     */
    public AvroFormat(org.apache.avro.Schema schema, SchemaRegistry registry, NewFields newFields) {
        this.schema = schema;
        this.columns = AvroColumns.of(schema);
        this.registry = registry;
        this.newFields = newFields;
        this.plain = new Decoding(new OrderedReader(schema, schema), schema, columns);
    }

    /** The schema of Avro JSON {@code text}; an {@code org.apache.avro.SchemaParseException} when it is not one. */
    public static org.apache.avro.Schema parse(String text) {
        return new org.apache.avro.Schema.Parser().parse(text);
    }

    @Override
    public Schema columns() {
        return columns;
    }

    @Override
    public Object[] row(String topic, int partition, long offset, byte[] value) {
        Decoding reader = plain;
        int start = 0;
        if (registry != null) {
            WireFormat wire = WireFormat.of(value, false);
            reader = readerOf(wire.schemaId(), "topic " + topic + " partition " + partition + " offset " + offset);
            start = wire.offset();
        }
        Object decoded;
        try {
            BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(value, start, value.length - start, null);
            decoded = reader.reader().read(null, decoder);
            return AvroValues.row(decoded, reader.schema(), reader.columns());
        } catch (IOException | RuntimeException e) {
            throw FormatErrors.undecodable("Avro", e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    private synchronized Decoding readerOf(int id, String where) {
        Decoding known = byId.get(id);
        if (known != null) {
            return known;
        }
        org.apache.avro.Schema writer = writerSchema(registry, id);
        List<org.apache.avro.Schema.Field> added = NewFields.added(schema, writer);
        if (!added.isEmpty() && newFields == NewFields.FAIL) {
            throw FormatErrors.newFields(where, id, registry.url(), added.stream().map(org.apache.avro.Schema.Field::name).toList());
        }
        if (!added.isEmpty() && newFields == NewFields.ADD) {
            schema = NewFields.grown(schema, added);
            columns = AvroColumns.of(schema);
            byId.clear();
            throw new SchemaChangeException(columns); // the sink adds the columns to the table, then reads the batch again
        }
        checkCompatible(where, id, registry.url(), schema, writer);
        Decoding reader = new Decoding(new OrderedReader(writer, schema), schema, columns);
        byId.put(id, reader);
        return reader;
    }

    /** Avro's generic reader, its maps in the order the value wrote their entries, as Spark's from_avro keeps them. */
    private static final class OrderedReader extends GenericDatumReader<Object> {
        OrderedReader(org.apache.avro.Schema writer, org.apache.avro.Schema reader) {
            super(writer, reader);
        }

        @Override
        protected Object newMap(Object old, int size) {
            return new java.util.LinkedHashMap<>(Math.max(16, size * 2));
        }
    }

    /** The Avro schema the registry holds under {@code id}: the one a record's writer used. */
    static org.apache.avro.Schema writerSchema(SchemaRegistry registry, int id) {
        SchemaRegistry.Registered registered = registry.byId(id, false);
        if (registered == null) {
            throw FormatErrors.unknownSchemaId(id, registry.url());
        }
        if (!"AVRO".equalsIgnoreCase(registered.type())) {
            throw FormatErrors.unusableSchema(id, registry.url(), "is a " + registered.type() + " schema, not Avro");
        }
        try {
            return parse(registered.schema());
        } catch (AvroRuntimeException e) { // SchemaParseException among them
            throw FormatErrors.unusableSchema(id, registry.url(), "does not parse as an Avro schema (" + e.getMessage() + ")");
        }
    }

    /** Refuses a writer's schema the reader's cannot read by Avro's schema resolution, naming the differences. */
    static void checkCompatible(String where, int id, String url, org.apache.avro.Schema reader, org.apache.avro.Schema writer) {
        SchemaCompatibility.SchemaPairCompatibility check = SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        if (check.getType() != SchemaCompatibility.SchemaCompatibilityType.COMPATIBLE) {
            throw FormatErrors.incompatibleSchema(where, id, url, check.getResult().getIncompatibilities().stream()
                    .map(i -> i.getType() + " at " + i.getLocation() + ": " + i.getMessage()).collect(java.util.stream.Collectors.joining("; ")));
        }
    }
}
