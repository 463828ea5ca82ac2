package io.tributary.kafka.internal.format;

import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;

/**
 * A value Avro's generic reader decoded (no logical-type conversions: {@code Utf8}, {@code ByteBuffer},
 * {@link GenericFixed}, {@link IndexedRecord}...) in the row representation of its column's
 * {@link DataType}, as {@link AvroColumns} types it: timestamps in microseconds, dates in days,
 * decimals at their scale, records as {@code Object[]}, maps with String keys in their order.
 */
final class AvroValues {
    private AvroValues() {
    }

    /** A record's fields as a row; a value of another type as a row of one column. */
    static Object[] row(Object value, Schema schema, io.tributary.schema.Schema columns) {
        if (schema.getType() != Schema.Type.RECORD) {
            return new Object[] {convert(value, schema, columns.fields().get(0).type())};
        }
        return record((IndexedRecord) value, schema, columns);
    }

    private static Object[] record(IndexedRecord record, Schema schema, io.tributary.schema.Schema columns) {
        List<Schema.Field> fields = schema.getFields();
        Object[] row = new Object[fields.size()];
        for (int i = 0; i < row.length; i++) {
            row[i] = convert(record.get(i), fields.get(i).schema(), columns.fields().get(i).type());
        }
        return row;
    }

    static Object convert(Object v, Schema s, DataType t) {
        if (v == null) {
            return null;
        }
        LogicalType logical = s.getLogicalType();
        return switch (s.getType()) {
            case LONG -> {
                long l = (Long) v;
                yield logical instanceof LogicalTypes.TimestampMillis || logical instanceof LogicalTypes.LocalTimestampMillis
                        ? Math.multiplyExact(l, 1000L) : l;
            }
            case STRING, ENUM -> v.toString();
            case BYTES -> bytesOrDecimal(bytes((ByteBuffer) v), t);
            case FIXED -> bytesOrDecimal(((GenericFixed) v).bytes().clone(), t);
            case RECORD -> record((IndexedRecord) v, s, t.struct());
            case ARRAY -> {
                Collection<?> items = (Collection<?>) v;
                List<Object> out = new ArrayList<>(items.size());
                for (Object item : items) {
                    out.add(convert(item, s.getElementType(), t.element()));
                }
                yield out;
            }
            case MAP -> {
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    out.put(e.getKey().toString(), convert(e.getValue(), s.getValueType(), t.valueType()));
                }
                yield out;
            }
            case UNION -> union(v, s, t);
            default -> v; // BOOLEAN, INT (and date: days), FLOAT, DOUBLE are the row's representation already
        };
    }

    private static Object union(Object v, Schema s, DataType t) {
        Schema branch = s.getTypes().get(GenericData.get().resolveUnion(s, v));
        List<Schema> branches = AvroColumns.nonNullBranches(s);
        if (branches.size() == 1 || t.kind() != DataType.Kind.STRUCT) {
            Object converted = convert(v, branch, t);
            return switch (t.kind()) { // int and long as BIGINT, float and double as DOUBLE
                case LONG -> ((Number) converted).longValue();
                case DOUBLE -> ((Number) converted).doubleValue();
                default -> converted;
            };
        }
        int member = branches.indexOf(branch);
        Object[] members = new Object[branches.size()];
        members[member] = convert(v, branch, t.struct().fields().get(member).type());
        return members;
    }

    private static Object bytesOrDecimal(byte[] bytes, DataType t) {
        return t.kind() == DataType.Kind.DECIMAL ? new BigDecimal(new BigInteger(bytes), t.scale()) : bytes;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
