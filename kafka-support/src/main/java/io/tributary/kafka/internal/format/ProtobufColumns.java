package io.tributary.kafka.internal.format;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A Protobuf message's columns as Spark's {@code from_protobuf} types them (spark-protobuf's
 * {@code SchemaConverters}, default options): int32, sint32, sfixed32, uint32, fixed32 INT;
 * the 64-bit integers BIGINT; float, double, bool, string as themselves; bytes BINARY; enum
 * STRING; {@code google.protobuf.Timestamp} TIMESTAMP; a message STRUCT (one without fields is
 * left out); repeated ARRAY; map MAP. Every column nullable.
 */
final class ProtobufColumns {
    private ProtobufColumns() {
    }

    static Schema of(Descriptor message) {
        Set<String> seen = new HashSet<>();
        seen.add(message.getFullName());
        Schema s = fields(message, seen);
        if (s == null) {
            throw FormatErrors.unsupportedProtobuf(message.getFullName(), "a message without fields");
        }
        return s;
    }

    /** The message's fields as columns, or null when none is left. */
    private static Schema fields(Descriptor message, Set<String> seen) {
        List<Field> fields = new ArrayList<>();
        for (FieldDescriptor fd : message.getFields()) {
            DataType t = column(fd, seen);
            if (t != null) {
                fields.add(new Field(fd.getName(), t, true));
            }
        }
        return fields.isEmpty() ? null : new Schema(fields);
    }

    /** The column type of {@code fd}, or null when it is left out (a message without fields, as Spark drops one). */
    static DataType column(FieldDescriptor fd, Set<String> seen) {
        if (fd.isMapField()) {
            Descriptor entry = fd.getMessageType();
            if (entry.findFieldByName("key").getJavaType() != FieldDescriptor.JavaType.STRING) {
                throw FormatErrors.unsupportedProtobuf(fd.getFullName(), "a map with " + entry.findFieldByName("key").getType()
                        + " keys (Spark's MAP<" + entry.findFieldByName("key").getJavaType() + ", ...>; a table here holds maps with"
                        + " STRING keys only)");
            }
            DataType value = single(entry.findFieldByName("value"), seen);
            return value == null ? null : DataType.map(value);
        }
        DataType t = single(fd, seen);
        return t == null || !fd.isRepeated() ? t : DataType.array(t);
    }

    private static DataType single(FieldDescriptor fd, Set<String> seen) {
        return switch (fd.getJavaType()) {
            case INT -> DataType.INT;
            case LONG -> DataType.LONG;
            case FLOAT -> DataType.FLOAT;
            case DOUBLE -> DataType.DOUBLE;
            case BOOLEAN -> DataType.BOOLEAN;
            case STRING, ENUM -> DataType.STRING;
            case BYTE_STRING -> DataType.BINARY;
            case MESSAGE -> message(fd, seen);
        };
    }

    private static DataType message(FieldDescriptor fd, Set<String> seen) {
        Descriptor m = fd.getMessageType();
        if (isTimestamp(m)) {
            return DataType.TIMESTAMP;
        }
        if (isDuration(m)) {
            throw FormatErrors.unsupportedProtobuf(fd.getFullName(), "a google.protobuf.Duration (Spark's DayTimeIntervalType)");
        }
        if (!seen.add(m.getFullName())) {
            throw FormatErrors.unsupportedProtobuf(fd.getFullName(), "of message " + m.getFullName() + ", which contains itself"
                    + " (Spark refuses recursive messages unless recursive.fields.max.depth)");
        }
        Schema nested = fields(m, seen);
        seen.remove(m.getFullName());
        return nested == null ? null : DataType.struct(nested);
    }

    static boolean isTimestamp(Descriptor m) {
        return "Timestamp".equals(m.getName()) && secondsAndNanos(m);
    }

    static boolean isDuration(Descriptor m) {
        return "Duration".equals(m.getName()) && secondsAndNanos(m);
    }

    private static boolean secondsAndNanos(Descriptor m) {
        return m.getFields().size() == 2 && "seconds".equals(m.getFields().get(0).getName())
                && "nanos".equals(m.getFields().get(1).getName());
    }
}
