package io.tributary.sink.internal;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowJson;
import io.tributary.schema.RowPack;
import io.tributary.schema.Schema;
import io.tributary.schema.Topics;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import io.tributary.sink.KafkaSubscription;
import org.apache.kafka.common.header.Header;

/**
 * The rows of a topic's records ({@link RowPack}: one or more per record) parsed with the sink's
 * schema, which holds the table's constraints (NOT NULL), then checked against the table's CHECK
 * constraints and invariants ({@link TableConstraints}); a row that does not fit goes to {@link BadRows}.
 */
final class RecordRows implements AutoCloseable {
    private final String topic;
    private final BadRows bad;
    private RowJson rowJson;
    /** The last schema header seen that the sink's schema covers (see {@link #parse}). */
    private byte[] coveredSchema;
    /** A Kafka source's records (someone else's topics), or null for the pipeline's own topic. */
    private final KafkaSubscription source;
    /** The table's CHECK constraints, checked on each row parsed ({@link #constraints(TableConstraints)}). */
    private TableConstraints constraints = TableConstraints.NONE;

    RecordRows(String topic, RowJson rowJson, BadRows bad) {
        this(topic, rowJson, bad, null);
    }

    /**
     * With a {@code source}, records are read as its format says (json with {@code rowJson}, whose
     * schema is then the value's columns; string; bytes), Spark's Kafka columns added as it asks.
     */
    RecordRows(String topic, RowJson rowJson, BadRows bad, KafkaSubscription source) {
        this.topic = topic;
        this.source = source;
        this.rowJson = source != null && source.valueSchema() != null ? new RowJson(source.valueSchema()) : rowJson;
        this.bad = bad;
    }

    /** Reads the rows of later records as {@code json} does (the sink's schema grew). */
    void rowJson(RowJson json) {
        if (source != null) {
            return; // a Kafka source's values keep their schema
        }
        this.rowJson = json;
        this.coveredSchema = null;
    }

    /** Checks the rows parsed from now on against {@code c} (the table's constraints at the batch's start). */
    void constraints(TableConstraints c) {
        this.constraints = c;
    }

    /** The constraint {@code row} violates, or null. */
    private BadRecordException violation(Object[] row) {
        return constraints.isEmpty() ? null : constraints.violation(row);
    }

    /**
     * Hands each row of the record's value to {@code sink}; returns how many. A record whose
     * {@link Topics#SCHEMA_HEADER} names columns the sink's schema lacks stops the batch before it is
     * parsed ({@link SchemaChangeException}); a row that does not fit the schema is one of {@link BadRows}.
     */
    int parse(ConsumerRecord<byte[], byte[]> r, Consumer<Object[]> sink) {
        if (source != null) {
            return parseSource(r, sink);
        }
        Header schemaHeader = r.headers().lastHeader(Topics.SCHEMA_HEADER);
        if (schemaHeader != null && !Arrays.equals(schemaHeader.value(), coveredSchema)) {
            Schema named = Schema.parse(new String(schemaHeader.value(), StandardCharsets.UTF_8));
            if (!SchemaMerge.covers(rowJson.schema(), named)) {
                throw new SchemaChangeException(named);
            }
            coveredSchema = schemaHeader.value();
        }
        if (r.value() == null) {
            throw SinkErrors.noValue(topic, r.partition(), r.offset());
        }
        int[] index = {0};
        int[] rejected = {0};
        int rows = RowPack.forEachRow(r.value(), (bytes, offset, length) -> {
            index[0]++;
            Object[] row;
            try {
                row = rowJson.parse(bytes, offset, length);
            } catch (BadRecordException e) {
                bad.reject(topic, r.partition(), r.offset(), index[0], bytes, offset, length, rowJson.schema().toDdl(), e);
                rejected[0]++;
                return;
            }
            BadRecordException violated = violation(row);
            if (violated != null) {
                bad.reject(topic, r.partition(), r.offset(), index[0], bytes, offset, length, rowJson.schema().toDdl(), violated);
                rejected[0]++;
                return;
            }
            sink.accept(row);
        });
        return rows - rejected[0];
    }

    /** A Kafka source's record: its rows as the source's format says, each with the record's metadata when asked. */
    private int parseSource(ConsumerRecord<byte[], byte[]> r, Consumer<Object[]> sink) {
        switch (source.format()) {
            case "string" -> sink.accept(withMetadata(new Object[] {r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8)}, r));
            case "bytes" -> sink.accept(withMetadata(SourceColumns.bytesRow(r), r));
            case "avro", "protobuf" -> {
                return decoded(r, sink);
            }
            default -> {
                if (r.value() == null) { // Spark's from_json of a null value: every column null
                    sink.accept(withMetadata(new Object[rowJson.schema().fields().size()], r));
                    return 1;
                }
                int[] index = {0};
                int[] rejected = {0};
                int rows = RowPack.forEachRow(r.value(), (bytes, offset, length) -> {
                    index[0]++;
                    try {
                        Object[] row = withMetadata(rowJson.parse(bytes, offset, length), r);
                        BadRecordException violated = violation(row);
                        if (violated != null) {
                            throw violated;
                        }
                        sink.accept(row);
                    } catch (BadRecordException e) {
                        bad.reject(r.topic(), r.partition(), r.offset(), index[0], bytes, offset, length, rowJson.schema().toDdl(), e);
                        rejected[0]++;
                    }
                });
                return rows - rejected[0];
            }
        }
        return 1;
    }

    /** An Avro or Protobuf record's row ({@link io.tributary.sink.ValueFormat}); a null value, a row of nulls (Spark's from_avro of null). */
    private int decoded(ConsumerRecord<byte[], byte[]> r, Consumer<Object[]> sink) {
        if (r.value() == null) {
            sink.accept(withMetadata(new Object[source.valueSchema().fields().size()], r));
            return 1;
        }
        try {
            Object[] row = withMetadata(source.valueFormat().row(r.topic(), r.partition(), r.offset(), r.value()), r);
            BadRecordException violated = violation(row);
            if (violated != null) {
                throw violated;
            }
            sink.accept(row);
            return 1;
        } catch (BadRecordException e) {
            bad.reject(r.topic(), r.partition(), r.offset(), 1, r.value(), 0, r.value().length, source.valueSchema().toDdl(), e, true);
            return 0;
        }
    }

    private Object[] withMetadata(Object[] row, ConsumerRecord<byte[], byte[]> r) {
        return source.includeMetadata() ? SourceColumns.withMetadata(row, r, !"bytes".equals(source.format())) : row;
    }

    /** Every dead letter of the rows parsed so far is in its topic ({@link BadRows#flush}). */
    void flush() {
        bad.flush();
    }

    @Override
    public void close() {
        bad.close();
    }
}
