package io.tributary.kafka.internal.format;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.tributary.expressions.JsonInputVariants;
import io.tributary.kafka.SchemaChangeException;
import io.tributary.schema.Field;
import io.tributary.schema.JsonRowReader;
import io.tributary.schema.JsonTypes;
import io.tributary.schema.RescuedData;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TimeTexts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A Kafka source's JSON values ({@code format: json}) read by the value's schema, and what a value's
 * top-level fields the schema lacks do, as {@code source.kafka.schemaEvolution} says, the file
 * source's modes for JSON: {@link NewFields#IGNORE} (none: left out, as Spark's {@code from_json}),
 * {@link NewFields#ADD} (addNewColumns: the schema grows by them, nullable, at the end, typed as
 * Spark's JSON inference types their values, and the sink adds them to the table and reads the batch
 * again: {@link SchemaChangeException}), {@link NewFields#FAIL} (failOnNewColumns: the run stops
 * naming the record and the fields), {@link NewFields#RESCUE} (rescue: the fields, and the values their
 * column cannot take, kept in {@code _rescued_data} with the record's topic, partition and offset, as the
 * file source keeps them with the file's path: {@link RescuedData}). A field named as a column in another
 * case is no new field (rescue keeps it, as the file source does).
 * One instance serves one reader.
 */
public final class JsonValues {
    private final NewFields mode;
    private RowJson json;

    public JsonValues(Schema schema, NewFields mode) {
        this.json = rows(schema);
        this.mode = mode;
    }

    /** Rows of {@code schema}, a VARIANT field the variant of its JSON value, as Spark's {@code from_json} reads it. */
    private static RowJson rows(Schema schema) {
        return new RowJson(schema, TimeTexts.of(ZoneOffset.UTC), JsonInputVariants.INSTANCE);
    }

    /** The columns values are read into now (grown under addNewColumns). */
    public Schema schema() {
        return json.schema();
    }

    /**
     * One JSON object's row: row {@code rowNumber} (from 1) of the record at {@code offset} of {@code topic}'s {@code partition}.
     *
     * @throws io.tributary.schema.BadRecordException when the text is not an object of the schema
     * @throws SchemaChangeException under addNewColumns, when the object has fields the schema lacks
     */
    public Object[] parse(byte[] bytes, int offset, int length, String topic, int partition, long recordOffset, int rowNumber) {
        if (mode == NewFields.IGNORE) {
            return json.parse(bytes, offset, length);
        }
        Object[] fast = json.parseFastKnownFields(bytes, offset, length);
        if (fast != null) {
            return fast;
        }
        if (mode == NewFields.RESCUE) {
            return rescued(bytes, offset, length, topic, partition, recordOffset);
        }
        String where = io.tributary.kafka.SourceRecords.where(topic, partition, recordOffset, rowNumber);
        Map<String, String> found = new LinkedHashMap<>();
        Object[] row;
        try (JsonParser p = JsonRowReader.parser(bytes, offset, length)) {
            row = json.reader().record(p, bytes, offset, new JsonRowReader.Leftovers() {
                @Override
                public void unknown(String name, String text) {
                    if (json.schema().indexOf(name) < 0 && !JsonTypes.dropped(text)) { // {} is no new field: Spark's inference drops it
                        found.putIfAbsent(name, text);
                    }
                }

                @Override
                public boolean rescues() {
                    return false;
                }

                @Override
                public void mismatched(String name, String text) {
                }
            });
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (found.isEmpty()) {
            return row;
        }
        if (mode == NewFields.FAIL) {
            throw FormatErrors.newJsonFields(where, List.copyOf(found.keySet()));
        }
        List<Field> fields = new ArrayList<>(json.schema().fields());
        found.forEach((name, text) -> fields.add(new Field(name, JsonTypes.finish(JsonTypes.infer(text, true)), true)));
        json = rows(new Schema(fields));
        throw new SchemaChangeException(json.schema()); // the sink adds the columns to the table, then reads the batch again
    }

    /** The row with what the schema does not take of the object in {@code _rescued_data}, null when it takes all. */
    private Object[] rescued(byte[] bytes, int offset, int length, String topic, int partition, long recordOffset) {
        Map<String, String> rescued = new LinkedHashMap<>();
        Object[] row;
        try (JsonParser p = JsonRowReader.parser(bytes, offset, length)) {
            row = json.reader().record(p, bytes, offset, new JsonRowReader.Leftovers() {
                @Override
                public void unknown(String name, String text) {
                    rescued.put(name, text);
                }

                @Override
                public boolean rescues() {
                    return true;
                }

                @Override
                public void mismatched(String name, String text) {
                    rescued.put(name, text);
                }
            });
        } catch (JsonProcessingException e) {
            throw JsonRowReader.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!rescued.isEmpty()) {
            Map<String, Object> where = new LinkedHashMap<>();
            where.put("_topic", topic);
            where.put("_partition", partition);
            where.put("_offset", recordOffset);
            row[json.schema().indexOf(RescuedData.COLUMN)] = RescuedData.json(rescued, where);
        }
        return row;
    }
}
