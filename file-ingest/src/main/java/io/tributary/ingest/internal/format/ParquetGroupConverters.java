package io.tributary.ingest.internal.format;

import io.tributary.ingest.internal.format.ParquetConverters.Target;
import io.tributary.schema.DataType;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/**
 * The converters of Parquet's groups ({@link ParquetConverters}): structs by field name, lists in the
 * spec's three-level form and the older two-level forms, maps of primitive keys, and fields the schema
 * lacks dropped.
 */
final class ParquetGroupConverters {
    private ParquetGroupConverters() {
    }

    /** A struct: its fields by name, case-insensitively. */
    static final class Struct extends GroupConverter {
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
                converters[i] = ParquetConverters.converter(t, schema.field(column).type(), v -> values[column] = v, file, path + "." + schema.field(column).name());
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
    static final class ListOf extends GroupConverter {
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
            this.element = elementIsRepeated ? ParquetConverters.valueConverter(elementField, elementType, add, file, path + "[]")
                    : ParquetConverters.converter(elementField, elementType, add, file, path + "[]");
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
    static final class MapOf extends GroupConverter {
        private final GroupConverter entries;
        private final Target target;
        private Map<Object, Object> map;
        private Object key;
        private Object value;

        MapOf(GroupType g, DataType mapType, Target target, String file, String path) {
            this.target = target;
            GroupType kv = g.getType(0).asGroupType();
            Type keyType = kv.getType(0);
            if (!keyType.isPrimitive()) {
                throw ParquetConverters.mismatch(file, path, g, mapType);
            }
            Converter k = ParquetPrimitiveConverters.primitive(keyType.asPrimitiveType(), mapType.keyType(), v -> key = v, file, path + " key");
            Converter v = kv.getFieldCount() > 1
                    ? ParquetConverters.converter(kv.getType(1), mapType.valueType(), x -> value = x, file, path + " value") : ignore(null);
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
                    map.put(key, value);
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
}
