package io.tributary.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.kafka.internal.SourceColumns;
import io.tributary.kafka.internal.format.JsonValues;
import io.tributary.kafka.internal.format.NewFields;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.RowPack;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Arrays;
import java.util.Base64;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The rows of a Kafka source's records ({@code source.kafka}), as its format says: json with the
 * value's schema (a record may hold several JSON lines), avro and protobuf ({@link ValueFormat}),
 * string, bytes; Spark's Kafka columns added when {@code includeMetadata} asks. What the Delta
 * sink reads directly and what an aggregation over a Kafka source folds. One instance serves one
 * reader (a format keeps the schemas it fetched).
 */
public final class SourceRecords {
    /** Where a decoded row goes; it may refuse the row by throwing a {@link BadRecordException} (a table's constraint). */
    public interface Rows {
        /** @return how many rows it made of {@code row} (a transform may make none or several) */
        int take(Object[] row);
    }

    /** Where a value that is not a row goes (the reader's {@code onBadRecord}). */
    public interface Rejects {
        /**
         * @param row the row's number in the record (1 for a record of one row)
         * @param bytes, offset, length the row's text (json) or the whole value (avro, protobuf)
         * @param binary the value is not text: a dead letter holds it as {@code valueBase64}
         */
        void reject(ConsumerRecord<byte[], byte[]> record, int row, byte[] bytes, int offset, int length, String schemaDdl,
                    BadRecordException why, boolean binary);
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The most of a bad value's text a dead letter keeps. */
    private static final int MAX_TEXT_BYTES = 64 * 1024;

    private final KafkaSubscription source;
    private final JsonValues json;

    public SourceRecords(KafkaSubscription source) {
        this.source = source;
        this.json = source.valueSchema() != null && "json".equals(source.format())
                ? new JsonValues(source.valueSchema(), NewFields.forName(source.schemaEvolution())) : null;
    }

    public KafkaSubscription subscription() {
        return source;
    }

    /**
     * The columns of the rows handed on now, in their order: the transform's output, or the value's
     * (grown under addNewColumns) then Spark's Kafka columns.
     */
    public Schema columns() {
        if (source.transform() != null) {
            return source.transform().output();
        }
        List<Field> fields = new ArrayList<>();
        switch (source.format()) {
            case "json" -> fields.addAll(json.schema().fields());
            case "avro", "protobuf", "debezium-json", "debezium-avro" -> fields.addAll(source.valueFormat().columns().fields());
            default -> {
                return source.rowSchema();
            }
        }
        fields.addAll(source.metadataColumns());
        return new Schema(fields);
    }

    /**
     * Hands each row of the record to {@code sink}; returns how many rows it made of them. A row that
     * does not decode, or that {@code sink} refuses by throwing a {@link BadRecordException}, goes to
     * {@code rejects}.
     */
    public int rows(ConsumerRecord<byte[], byte[]> r, Rows sink, Rejects rejects) {
        String ddl = source.rowSchema().toDdl();
        switch (source.format()) {
            case "string" -> {
                return one(r, withMetadata(new Object[] {r.value() == null ? null : new String(r.value(), StandardCharsets.UTF_8)}, r),
                        sink, rejects, false, ddl);
            }
            case "bytes" -> {
                return one(r, withMetadata(SourceColumns.bytesRow(r), r), sink, rejects, true, ddl);
            }
            case "avro", "protobuf" -> {
                if (r.value() == null) { // Spark's from_avro of null: every column null
                    return one(r, withMetadata(new Object[source.valueFormat().columns().fields().size()], r), sink, rejects, false, ddl);
                }
                try {
                    return sink.take(withMetadata(source.valueFormat().row(r.topic(), r.partition(), r.offset(), r.value()), r));
                } catch (BadRecordException e) {
                    rejects.reject(r, 1, r.value(), 0, r.value().length, source.valueFormat().columns().toDdl(), e, true);
                    return 0;
                }
            }
            case "debezium-json", "debezium-avro" -> {
                if (r.value() == null) {
                    return 0; // a tombstone: the delete was the event before it
                }
                try {
                    Object[] row = source.valueFormat().row(r.topic(), r.partition(), r.offset(), r.value());
                    return row == null ? 0 : sink.take(withMetadata(row, r)); // a truncate event gives no row
                } catch (BadRecordException e) {
                    rejects.reject(r, 1, r.value(), 0, r.value().length, source.valueFormat().columns().toDdl(), e,
                            "debezium-avro".equals(source.format()));
                    return 0;
                }
            }
            default -> {
                if (r.value() == null) { // Spark's from_json of a null value: every column null
                    return one(r, withMetadata(new Object[json.schema().fields().size()], r), sink, rejects, false, ddl);
                }
                int[] index = {0};
                int[] taken = {0};
                RowPack.forEachRow(r.value(), (bytes, offset, length) -> {
                    index[0]++;
                    try {
                        taken[0] += sink.take(withMetadata(json.parse(bytes, offset, length, r.topic(), r.partition(), r.offset(),
                                index[0]), r));
                    } catch (BadRecordException e) {
                        rejects.reject(r, index[0], bytes, offset, length, json.schema().toDdl(), e, false);
                    }
                });
                return taken[0];
            }
        }
    }

    /** The one row of a record that is not a pack of rows (a string, bytes or a null value); a refusal rejects the record. */
    private int one(ConsumerRecord<byte[], byte[]> r, Object[] row, Rows sink, Rejects rejects, boolean binary, String ddl) {
        try {
            return sink.take(row);
        } catch (BadRecordException e) {
            byte[] v = r.value() == null ? new byte[0] : r.value();
            rejects.reject(r, 1, v, 0, v.length, ddl, e, binary);
            return 0;
        }
    }

    private Object[] withMetadata(Object[] row, ConsumerRecord<byte[], byte[]> r) {
        return source.includeMetadata() ? SourceColumns.withMetadata(row, r, !"bytes".equals(source.format())) : row;
    }

    /** The text that says where a bad row was: {@code topic T partition P offset O} (and {@code row N} past the first). */
    public static String where(String topic, int partition, long offset, int row) {
        return "topic " + topic + " partition " + partition + " offset " + offset + (row > 1 ? " row " + row : "");
    }

    /** A dead letter's key: {@code topic:partition:offset}. */
    public static byte[] deadLetterKey(String topic, int partition, long offset) {
        return (topic + ":" + partition + ":" + offset).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * A dead letter's value: the stage, where the row was, the field and the reason, and its text
     * ({@code text}, or {@code valueBase64} for a binary value), cut at 64 KiB ({@code textTruncated}).
     */
    public static byte[] deadLetter(String stage, String topic, int partition, long offset, int row, BadRecordException why,
                                    byte[] bytes, int off, int len, boolean binary) {
        int kept = Math.min(len, MAX_TEXT_BYTES);
        ObjectNode letter = JSON.createObjectNode().put("stage", stage).put("topic", topic).put("partition", partition)
                .put("offset", offset).put("row", row).put("field", why.field()).put("reason", why.reason());
        if (binary) {
            letter.put("valueBase64", Base64.getEncoder().encodeToString(Arrays.copyOfRange(bytes, off, off + kept)));
        } else {
            letter.put("text", new String(bytes, off, kept, StandardCharsets.UTF_8));
        }
        letter.put("textTruncated", kept < len);
        return letter.toString().getBytes(StandardCharsets.UTF_8);
    }
}
