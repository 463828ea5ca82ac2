package io.tributary.kafka.internal.format;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A decoded Protobuf message as a row of {@link ProtobufColumns}' columns, as Spark's
 * {@code from_protobuf} fills them: a field the message does not carry is null (a proto3 scalar at
 * its default value too, as Spark without {@code emit.default.values}), unless it is repeated (an
 * empty array) or has a declared default (proto2); enums by name; timestamps in microseconds.
 */
final class ProtobufValues {
    private ProtobufValues() {
    }

    static Object[] row(Message m, Schema columns) {
        Descriptor d = m.getDescriptorForType();
        Object[] row = new Object[columns.fields().size()];
        int i = 0;
        for (Field column : columns.fields()) {
            FieldDescriptor fd = d.findFieldByName(column.name());
            boolean present = fd.isRepeated() || fd.hasDefaultValue() || m.hasField(fd);
            row[i++] = present ? value(m.getField(fd), fd, column.type()) : null;
        }
        return row;
    }

    private static Object value(Object v, FieldDescriptor fd, DataType t) {
        if (fd.isMapField()) {
            Map<String, Object> out = new LinkedHashMap<>();
            FieldDescriptor valueField = fd.getMessageType().findFieldByName("value");
            for (Object entry : (List<?>) v) {
                Message e = (Message) entry;
                out.put((String) e.getField(fd.getMessageType().findFieldByName("key")),
                        single(e.getField(valueField), valueField, t.valueType()));
            }
            return out;
        }
        if (fd.isRepeated()) {
            List<Object> out = new ArrayList<>();
            for (Object item : (List<?>) v) {
                out.add(single(item, fd, t.element()));
            }
            return out;
        }
        return single(v, fd, t);
    }

    private static Object single(Object v, FieldDescriptor fd, DataType t) {
        return switch (fd.getJavaType()) {
            case ENUM -> ((EnumValueDescriptor) v).getName();
            case BYTE_STRING -> ((ByteString) v).toByteArray();
            case MESSAGE -> {
                Message m = (Message) v;
                if (t.kind() == DataType.Kind.TIMESTAMP) {
                    Descriptor d = m.getDescriptorForType();
                    long seconds = (Long) m.getField(d.getFields().get(0));
                    int nanos = (Integer) m.getField(d.getFields().get(1));
                    yield Math.addExact(Math.multiplyExact(seconds, 1_000_000L), nanos / 1000);
                }
                yield row(m, t.struct());
            }
            default -> v; // Integer, Long, Float, Double, Boolean, String
        };
    }
}
