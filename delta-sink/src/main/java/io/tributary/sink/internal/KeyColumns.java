package io.tributary.sink.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.RowJson;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The key columns of an upsert: a row's {@link Key}, the key of a tombstone's record key, and
 * the order rows are written in (by key, so that files hold narrow key ranges).
 *
 * <p>A tombstone's record key is the UTF-8 JSON array of the key column values in key order,
 * each written as in a record value ({@link RowJson}): {@code [3]}, {@code ["a", 7]}; a STRUCT
 * column as a JSON object of its fields. (The convention of {@code Topics} for group-by keys.)
 */
final class KeyColumns {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Schema schema;
    private final int[] indexes;
    private final Schema keySchema;
    private final RowJson keyJson;

    KeyColumns(Schema schema, List<String> names) {
        this.schema = schema;
        this.indexes = new int[names.size()];
        List<Field> fields = new ArrayList<>();
        for (int i = 0; i < indexes.length; i++) {
            indexes[i] = schema.require(names.get(i), "key column");
            fields.add(schema.field(indexes[i]));
        }
        this.keySchema = new Schema(fields);
        this.keyJson = new RowJson(keySchema);
    }

    Schema schema() {
        return schema;
    }

    /** The key columns alone, in key order. */
    Schema keySchema() {
        return keySchema;
    }

    Key of(Object[] row) {
        if (indexes.length == 1) {
            return Key.single(row[indexes[0]]);
        }
        Object[] k = new Object[indexes.length];
        for (int i = 0; i < k.length; i++) {
            k[i] = row[indexes[i]];
        }
        return new Key(k);
    }

    /** The key a tombstone deletes, read from its record key. */
    Key ofTombstone(RecordOrigin origin) {
        byte[] raw = origin.tombstoneKey();
        try {
            JsonNode array = JSON.readTree(raw);
            if (array == null || !array.isArray() || array.size() != indexes.length) {
                throw badKey(origin, "it is not a JSON array of " + indexes.length + " value(s)", null);
            }
            ObjectNode object = JSON.createObjectNode();
            for (int i = 0; i < indexes.length; i++) {
                object.set(keySchema.field(i).name(), array.get(i));
            }
            return new Key(keyJson.parse(JSON.writeValueAsBytes(object)));
        } catch (IOException e) {
            throw badKey(origin, "it is not JSON", e);
        } catch (BadRecordException e) {
            throw badKey(origin, e.getMessage(), e);
        }
    }

    private TributaryException badKey(RecordOrigin origin, String why, Exception cause) {
        return TableErrors.badTombstoneKey(origin.partition(), origin.offset(), new String(origin.tombstoneKey(), StandardCharsets.UTF_8), keySchema.toDdl(), why, example(), cause);
    }

    private String example() {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < indexes.length; i++) {
            b.append(i == 0 ? "" : ", ").append(switch (keySchema.field(i).type().kind()) {
                case STRING -> "\"a\"";
                case STRUCT -> "{...}";
                case TIMESTAMP, TIMESTAMP_NTZ -> "\"2024-01-01T10:00:00Z\"";
                default -> "3";
            });
        }
        return b.append("]").toString();
    }

    /** Orders keys by their values, column by column, nulls first. */
    Comparator<Key> keyOrder() {
        Comparator<Object>[] columns = columnOrders();
        return (a, b) -> {
            for (int i = 0; i < columns.length; i++) {
                int c = columns[i].compare(a.values()[i], b.values()[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    /** Orders rows by their key values. */
    Comparator<Object[]> rowOrder() {
        Comparator<Object>[] columns = columnOrders();
        return (a, b) -> {
            for (int i = 0; i < columns.length; i++) {
                int c = columns[i].compare(a[indexes[i]], b[indexes[i]]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }

    @SuppressWarnings("unchecked")
    private Comparator<Object>[] columnOrders() {
        Comparator<Object>[] c = new Comparator[indexes.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = valueOrder(keySchema.field(i).type());
        }
        return c;
    }

    /** A total order of the in-memory values of {@code type}, nulls first. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static Comparator<Object> valueOrder(DataType type) {
        Comparator<Object> nonNull = switch (type.kind()) {
            case BINARY -> (a, b) -> Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            case DECIMAL -> (a, b) -> ((BigDecimal) a).compareTo((BigDecimal) b);
            case STRUCT -> structOrder(type.struct());
            default -> (a, b) -> ((Comparable) a).compareTo(b);
        };
        return Comparator.nullsFirst(nonNull);
    }

    private static Comparator<Object> structOrder(Schema struct) {
        List<Comparator<Object>> fields = new ArrayList<>();
        for (Field f : struct.fields()) {
            fields.add(valueOrder(f.type()));
        }
        return (a, b) -> {
            Object[] x = (Object[]) a;
            Object[] y = (Object[]) b;
            for (int i = 0; i < fields.size(); i++) {
                int c = fields.get(i).compare(x[i], y[i]);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
    }
}
