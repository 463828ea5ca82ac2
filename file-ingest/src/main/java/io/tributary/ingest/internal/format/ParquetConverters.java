package io.tributary.ingest.internal.format;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * Parquet records into Tributary rows of a schema, as Spark's Parquet reader maps them: columns
 * matched by name case-insensitively (Spark's default), columns the file lacks null, columns the
 * schema lacks not read; lists and maps in the spec's three-level form and the older two-level
 * forms; timestamps in MILLIS, MICROS, NANOS or INT96; the widenings Spark reads (INT32 into
 * BIGINT, FLOAT into DOUBLE, integers into DOUBLE or DECIMAL, DATE into TIMESTAMP_NTZ). Any other
 * difference of type is an error naming the column and both types, at the file's opening.
 */
final class ParquetConverters {
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final int JULIAN_EPOCH_DAY = 2_440_588;

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

    private static Converter converter(Type t, DataType type, Target target, String file, String path) {
        if (t.isRepetition(Type.Repetition.REPEATED)) {
            throw new TributaryException("file " + file + ": column '" + path + "' is a repeated Parquet field outside a LIST group ("
                    + describe(t) + "), a form Tributary does not read; rewrite the file with LIST groups (as Spark writes them)");
        }
        return valueConverter(t, type, target, file, path);
    }

    /** The converter of a field's values, its repetition aside. */
    private static Converter valueConverter(Type t, DataType type, Target target, String file, String path) {
        if (t.isPrimitive()) {
            return primitive(t.asPrimitiveType(), type, target, file, path);
        }
        GroupType g = t.asGroupType();
        LogicalTypeAnnotation a = g.getLogicalTypeAnnotation();
        if (a instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            requireKind(type, DataType.Kind.ARRAY, t, file, path);
            return new ListOf(g, type.element(), target, file, path);
        }
        if (a instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation || a instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
            requireKind(type, DataType.Kind.MAP, t, file, path);
            return new MapOf(g, type.valueType(), target, file, path);
        }
        requireKind(type, DataType.Kind.STRUCT, t, file, path);
        return new Struct(g, type.struct(), target, file, path);
    }

    private static void requireKind(DataType type, DataType.Kind kind, Type t, String file, String path) {
        if (type.kind() != kind) {
            throw mismatch(file, path, t, type);
        }
    }

    static TributaryException mismatch(String file, String path, Type t, DataType type) {
        return new TributaryException("file " + file + ": column '" + path + "' is Parquet " + describe(t) + ", which cannot be read as "
                + type.ddl() + " (Spark's Parquet reader refuses it too); give the column the file's type in source.files.schema");
    }

    private static String describe(Type t) {
        String s = t.toString().replaceAll("\\s+", " ").strip();
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    /** A struct: its fields by name, case-insensitively. */
    private static final class Struct extends GroupConverter {
        private final Converter[] converters;
        private final Target target;
        private final int size;
        private Object[] values;

        Struct(GroupType g, Schema schema, Target target, String file, String path) {
            this.target = target;
            this.size = schema.size();
            this.converters = new Converter[g.getFieldCount()];
            for (int i = 0; i < converters.length; i++) {
                Type t = g.getType(i);
                int column = schema.indexOf(t.getName());
                if (column < 0) {
                    converters[i] = ignore(t);
                    continue;
                }
                converters[i] = converter(t, schema.field(column).type(), v -> values[column] = v, file, path + "." + schema.field(column).name());
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return converters[fieldIndex];
        }

        @Override
        public void start() {
            values = new Object[size];
        }

        @Override
        public void end() {
            target.set(values);
        }
    }

    /** A LIST group: three levels ({@code list.element}), or the older two. */
    private static final class ListOf extends GroupConverter {
        private final Converter repeated;

        ListOf(GroupType g, DataType element, Target target, String file, String path) {
            Type r = g.getType(0);
            boolean elementIsRepeated = r.isPrimitive() || r.asGroupType().getFieldCount() != 1
                    || r.getName().equals("array") || r.getName().equals(g.getName() + "_tuple");
            this.repeated = new ElementList(r, element, target, file, path, elementIsRepeated);
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            ((ElementList) repeated).begin();
        }

        @Override
        public void end() {
            ((ElementList) repeated).finish();
        }
    }

    /**
     * The repeated field of a list: each occurrence one element (two-level and bare forms), or a
     * group around the element (three-level form). Collects a list between {@link #begin} and {@link #finish}.
     */
    private static final class ElementList extends GroupConverter {
        private final Converter element;
        private final boolean direct;
        private final Target target;
        private List<Object> list;
        private Object pending;

        ElementList(Type repeated, DataType elementType, Target target, String file, String path, boolean elementIsRepeated) {
            this.target = target;
            this.direct = elementIsRepeated;
            Type elementField = elementIsRepeated ? repeated : repeated.asGroupType().getType(0);
            Target add = elementIsRepeated ? v -> list().add(v) : v -> pending = v;
            this.element = elementIsRepeated ? valueConverter(elementField, elementType, add, file, path + "[]")
                    : converter(elementField, elementType, add, file, path + "[]");
        }

        private List<Object> list() {
            if (list == null) {
                list = new ArrayList<>();
            }
            return list;
        }

        void begin() {
            list = new ArrayList<>();
        }

        void finish() {
            target.set(list);
            list = null;
        }

        @Override
        public boolean isPrimitive() {
            return direct && element.isPrimitive();
        }

        @Override
        public PrimitiveConverter asPrimitiveConverter() {
            return element.asPrimitiveConverter();
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return direct ? ((GroupConverter) element).getConverter(fieldIndex) : element;
        }

        @Override
        public void start() {
            if (direct) {
                ((GroupConverter) element).start();
            } else {
                pending = null;
            }
        }

        @Override
        public void end() {
            if (direct) {
                ((GroupConverter) element).end();
            } else {
                list().add(pending);
            }
        }
    }

    /** A MAP group: a repeated {@code key_value} group of a key and a value. */
    private static final class MapOf extends GroupConverter {
        private final GroupConverter entries;
        private final Target target;
        private Map<String, Object> map;
        private Object key;
        private Object value;

        MapOf(GroupType g, DataType valueType, Target target, String file, String path) {
            this.target = target;
            GroupType kv = g.getType(0).asGroupType();
            Type keyType = kv.getType(0);
            if (!keyType.isPrimitive() || keyType.asPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY) {
                throw mismatch(file, path, g, DataType.map(valueType));
            }
            Converter k = primitive(keyType.asPrimitiveType(), DataType.STRING, v -> key = v, file, path + " key");
            Converter v = kv.getFieldCount() > 1
                    ? converter(kv.getType(1), valueType, x -> value = x, file, path + " value") : ignore(null);
            this.entries = new GroupConverter() {
                @Override
                public Converter getConverter(int fieldIndex) {
                    return fieldIndex == 0 ? k : v;
                }

                @Override
                public void start() {
                    key = null;
                    value = null;
                }

                @Override
                public void end() {
                    map.put((String) key, value);
                }
            };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return entries;
        }

        @Override
        public void start() {
            map = new LinkedHashMap<>();
        }

        @Override
        public void end() {
            target.set(map);
        }
    }

    /** A converter that drops what it is given (a struct field the schema lacks). */
    private static Converter ignore(Type t) {
        if (t == null || t.isPrimitive()) {
            return new PrimitiveConverter() {
            };
        }
        GroupType g = t.asGroupType();
        Converter[] children = new Converter[g.getFieldCount()];
        for (int i = 0; i < children.length; i++) {
            children[i] = ignore(g.getType(i));
        }
        return new GroupConverter() {
            @Override
            public Converter getConverter(int fieldIndex) {
                return children[fieldIndex];
            }

            @Override
            public void start() {
            }

            @Override
            public void end() {
            }
        };
    }

    private static PrimitiveConverter primitive(PrimitiveType p, DataType type, Target target, String file, String path) {
        PrimitiveTypeName physical = p.getPrimitiveTypeName();
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        switch (type.kind()) {
            case BOOLEAN:
                if (physical == PrimitiveTypeName.BOOLEAN) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addBoolean(boolean value) {
                            target.set(value);
                        }
                    };
                }
                break;
            case BYTE:
            case SHORT:
            case INT:
            case DATE:
                boolean date = a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation;
                if (physical == PrimitiveTypeName.INT32 && !(a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation)
                        && date == (type.kind() == DataType.Kind.DATE)) {
                    DataType.Kind k = type.kind();
                    return new PrimitiveConverter() {
                        @Override
                        public void addInt(int value) {
                            target.set(k == DataType.Kind.BYTE ? (Object) (byte) value : k == DataType.Kind.SHORT ? (Object) (short) value : value);
                        }
                    };
                }
                break;
            case LONG:
                if ((physical == PrimitiveTypeName.INT32 || physical == PrimitiveTypeName.INT64) && (a == null
                        || a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation)) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addInt(int value) {
                            target.set((long) value);
                        }

                        @Override
                        public void addLong(long value) {
                            target.set(value);
                        }
                    };
                }
                break;
            case FLOAT:
                if (physical == PrimitiveTypeName.FLOAT) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addFloat(float value) {
                            target.set(value);
                        }
                    };
                }
                break;
            case DOUBLE:
                if (physical == PrimitiveTypeName.DOUBLE || physical == PrimitiveTypeName.FLOAT
                        || ((physical == PrimitiveTypeName.INT32 || physical == PrimitiveTypeName.INT64) && a == null)) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addDouble(double value) {
                            target.set(value);
                        }

                        @Override
                        public void addFloat(float value) {
                            target.set((double) value);
                        }

                        @Override
                        public void addInt(int value) {
                            target.set((double) value);
                        }

                        @Override
                        public void addLong(long value) {
                            target.set((double) value);
                        }
                    };
                }
                break;
            case DECIMAL:
                if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
                    int fileScale = d.getScale();
                    if (d.getPrecision() - fileScale <= type.precision() - type.scale() && fileScale <= type.scale()) {
                        return decimal(fileScale, type.scale(), target);
                    }
                } else if ((physical == PrimitiveTypeName.INT32 && type.precision() - type.scale() >= 10)
                        || (physical == PrimitiveTypeName.INT64 && type.precision() - type.scale() >= 20)) {
                    return decimal(0, type.scale(), target);
                }
                break;
            case STRING:
                if (physical == PrimitiveTypeName.BINARY && (a == null || a instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        || a instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation || a instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation)) {
                    return new StringConverter(target);
                }
                break;
            case BINARY:
                if (physical == PrimitiveTypeName.BINARY || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
                    return new PrimitiveConverter() {
                        @Override
                        public void addBinary(Binary value) {
                            target.set(value.getBytes());
                        }
                    };
                }
                break;
            case TIMESTAMP:
            case TIMESTAMP_NTZ:
                PrimitiveConverter ts = timestamp(p, type, target);
                if (ts != null) {
                    return ts;
                }
                break;
            default:
                break;
        }
        throw mismatch(file, path, p, type);
    }

    private static PrimitiveConverter timestamp(PrimitiveType p, DataType type, Target target) {
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        if (p.getPrimitiveTypeName() == PrimitiveTypeName.INT96) {
            return new PrimitiveConverter() {
                @Override
                public void addBinary(Binary value) {
                    ByteBuffer b = value.toByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
                    long nanosOfDay = b.getLong();
                    int julianDay = b.getInt();
                    target.set((julianDay - JULIAN_EPOCH_DAY) * MICROS_PER_DAY + nanosOfDay / 1000);
                }
            };
        }
        if (p.getPrimitiveTypeName() == PrimitiveTypeName.INT64 && a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation t) {
            long multiply = t.getUnit() == LogicalTypeAnnotation.TimeUnit.MILLIS ? 1000 : 1;
            long divide = t.getUnit() == LogicalTypeAnnotation.TimeUnit.NANOS ? 1000 : 1;
            return new PrimitiveConverter() {
                @Override
                public void addLong(long value) {
                    target.set(divide == 1 ? value * multiply : Math.floorDiv(value, divide));
                }
            };
        }
        if (type.kind() == DataType.Kind.TIMESTAMP_NTZ && p.getPrimitiveTypeName() == PrimitiveTypeName.INT32
                && a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
            return new PrimitiveConverter() {
                @Override
                public void addInt(int value) {
                    target.set(value * MICROS_PER_DAY);
                }
            };
        }
        return null;
    }

    private static PrimitiveConverter decimal(int fileScale, int scale, Target target) {
        return new PrimitiveConverter() {
            @Override
            public void addInt(int value) {
                target.set(BigDecimal.valueOf(value, fileScale).setScale(scale, RoundingMode.UNNECESSARY));
            }

            @Override
            public void addLong(long value) {
                target.set(BigDecimal.valueOf(value, fileScale).setScale(scale, RoundingMode.UNNECESSARY));
            }

            @Override
            public void addBinary(Binary value) {
                target.set(new BigDecimal(new BigInteger(value.getBytes()), fileScale).setScale(scale, RoundingMode.UNNECESSARY));
            }
        };
    }

    /** UTF-8 strings, each dictionary entry decoded once. */
    private static final class StringConverter extends PrimitiveConverter {
        private final Target target;
        private String[] dictionary;

        StringConverter(Target target) {
            this.target = target;
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary d) {
            dictionary = new String[d.getMaxId() + 1];
            for (int i = 0; i < dictionary.length; i++) {
                dictionary[i] = d.decodeToBinary(i).toStringUsingUTF8();
            }
        }

        @Override
        public void addValueFromDictionary(int dictionaryId) {
            target.set(dictionary[dictionaryId]);
        }

        @Override
        public void addBinary(Binary value) {
            target.set(value.toStringUsingUTF8());
        }
    }
}
