package io.tributary.ingest.internal.format;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Parquet records into Tributary rows of a schema, as Spark's Parquet reader maps them: columns
 * matched by name case-insensitively (Spark's default), columns the file lacks null, columns the
 * schema lacks not read; lists and maps in the spec's three-level form and the older two-level
 * forms; timestamps in MILLIS, MICROS, NANOS or INT96; the widenings Spark reads (INT32 into
 * BIGINT, FLOAT into DOUBLE, integers into DOUBLE or DECIMAL, DATE into TIMESTAMP_NTZ); a group annotated VARIANT as a
 * VARIANT ({@link ParquetVariants}), and only as one. Any other
 * difference of type is an error naming the column and both types, at the file's opening. Groups
 * convert in {@link ParquetGroupConverters}, values in {@link ParquetPrimitiveConverters}.
 */
final class ParquetConverters {
    private ParquetConverters() {
    }

    /** Where a converted value goes. */
    interface Target {
        void set(Object value);
    }

    /** The part of {@code file} that {@code schema} reads. */
    static MessageType requested(MessageType file, Schema schema, String fileName) {
        return new MessageType(file.getName(), projected(file, schema, fileName, ""));
    }

    private static List<Type> projected(GroupType group, Schema schema, String fileName, String prefix) {
        List<Type> out = new ArrayList<>();
        for (Field f : schema.fields()) {
            Type t = find(group, f.name());
            if (t == null) {
                continue;
            }
            if (f.type().kind() == DataType.Kind.STRUCT && !t.isPrimitive() && t.getLogicalTypeAnnotation() == null) {
                List<Type> inner = projected(t.asGroupType(), f.type().struct(), fileName, prefix + f.name() + ".");
                if (!inner.isEmpty()) {
                    out.add(t.asGroupType().withNewFields(inner));
                }
            } else {
                out.add(t);
            }
        }
        return out;
    }

    private static Type find(GroupType group, String name) {
        for (Type t : group.getFields()) {
            if (t.getName().equalsIgnoreCase(name)) {
                return t;
            }
        }
        return null;
    }

    /** The root converter: one row of {@code schema} per record of {@code requested}. */
    static Root root(MessageType requested, Schema schema, String fileName) {
        return new Root(requested, schema, fileName);
    }

    /** Builds rows: {@link #start()} a new one, the fields fill it, {@link #row()} gives it. */
    static final class Root extends GroupConverter {
        private final int size;
        private final Converter[] converters;
        private final int[] columns;
        private Object[] row;

        Root(GroupType requested, Schema schema, String fileName) {
            this.size = schema.size();
            this.converters = new Converter[requested.getFieldCount()];
            this.columns = new int[requested.getFieldCount()];
            for (int i = 0; i < converters.length; i++) {
                Type t = requested.getType(i);
                int column = schema.indexOf(t.getName());
                columns[i] = column;
                int c = column;
                converters[i] = converter(t, schema.field(column).type(), v -> row[c] = v, fileName, schema.field(column).name());
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return converters[fieldIndex];
        }

        @Override
        public void start() {
            row = new Object[size];
        }

        @Override
        public void end() {
        }

        Object[] row() {
            return row;
        }
    }

    static Converter converter(Type t, DataType type, Target target, String file, String path) {
        if (t.isRepetition(Type.Repetition.REPEATED)) {
            throw FormatErrors.repeatedOutsideList(file, path, describe(t));
        }
        return valueConverter(t, type, target, file, path);
    }

    /** The converter of a field's values, its repetition aside. */
    static Converter valueConverter(Type t, DataType type, Target target, String file, String path) {
        if (ParquetVariants.isVariant(t) ? !type.isVariant() : type.isVariant() && t.isPrimitive()) {
            throw mismatch(file, path, t, type); // a group without the annotation reads as a declared VARIANT, as Spark reads it
        }
        if (type.isVariant()) {
            return ParquetVariants.converter(t.asGroupType(), target, file, path);
        }
        if (t.isPrimitive()) {
            return ParquetPrimitiveConverters.primitive(t.asPrimitiveType(), type, target, file, path);
        }
        GroupType g = t.asGroupType();
        LogicalTypeAnnotation a = g.getLogicalTypeAnnotation();
        if (a instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            requireKind(type, DataType.Kind.ARRAY, t, file, path);
            return new ParquetGroupConverters.ListOf(g, type.element(), target, file, path);
        }
        if (a instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation || a instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
            requireKind(type, DataType.Kind.MAP, t, file, path);
            return new ParquetGroupConverters.MapOf(g, type, target, file, path);
        }
        requireKind(type, DataType.Kind.STRUCT, t, file, path);
        return new ParquetGroupConverters.Struct(g, type.struct(), target, file, path);
    }

    private static void requireKind(DataType type, DataType.Kind kind, Type t, String file, String path) {
        if (type.kind() != kind) {
            throw mismatch(file, path, t, type);
        }
    }

    static TributaryException mismatch(String file, String path, Type t, DataType type) {
        return FormatErrors.parquetTypeMismatch(file, path, describe(t), type.ddl());
    }

    private static String describe(Type t) {
        String s = t.toString().replaceAll("\\s+", " ").strip();
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }
}
