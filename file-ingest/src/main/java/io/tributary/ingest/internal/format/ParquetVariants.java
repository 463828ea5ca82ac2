package io.tributary.ingest.internal.format;

import io.tributary.ingest.internal.format.ParquetConverters.Target;
import io.tributary.schema.VariantValue;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.spark.types.variant.ShreddingUtils;
import org.apache.spark.types.variant.Variant;
import org.apache.spark.types.variant.VariantSchema;

/**
 * A Parquet group annotated {@code VARIANT} (as Spark 4.2 writes a VARIANT column with {@code df.write.parquet}, at the top,
 * in a struct or as an array's element) read as a VARIANT: its {@code metadata} and {@code value} binaries as they are, or,
 * where Spark shredded it (a {@code typed_value} beside an optional {@code value}: Spark 4.2 shreds a column whose values
 * share a shape), the variant rebuilt from the shredded columns by spark-variant's {@code ShreddingUtils.rebuild}, as Spark's
 * Parquet reader rebuilds it. The group's values are gathered as {@link ShreddedValues} and rebuilt at the group's end.
 */
final class ParquetVariants {
    private ParquetVariants() {
    }

    /** True when {@code t} is a group annotated VARIANT. */
    static boolean isVariant(Type t) {
        return !t.isPrimitive() && t.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.VariantLogicalTypeAnnotation;
    }

    /**
     * True when {@code g} has a variant's fields without the annotation, as Spark 4.0 wrote one: binary {@code metadata} and
     * {@code value}, or {@code metadata} and {@code typed_value} (shredded), and nothing else.
     */
    static boolean hasVariantFields(GroupType g) {
        boolean metadata = false;
        boolean value = false;
        for (Type f : g.getFields()) {
            boolean binary = f.isPrimitive() && f.asPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY;
            switch (f.getName()) {
                case "metadata" -> metadata = binary;
                case "value" -> value = value || binary;
                case "typed_value" -> value = true;
                default -> {
                    return false;
                }
            }
        }
        return metadata && value;
    }

    /** The converter of a VARIANT group {@code g} into {@link VariantValue}s; an error naming the column when it is no variant Spark reads. */
    static Converter converter(GroupType g, Target target, String file, String path) {
        VariantSchema schema = schema(g, true, file, path);
        if (schema.topLevelMetadataIdx < 0 || (schema.typedIdx < 0 && schema.variantIdx < 0)) {
            throw FormatErrors.parquetVariantNotRead(file, path, "it has no binary 'metadata' and 'value'");
        }
        boolean unshredded = schema.typedIdx < 0;
        return new Group(g, values -> {
            ShreddedValues.Struct row = (ShreddedValues.Struct) values;
            if (unshredded) {
                if (row.isNullAt(schema.variantIdx)) {
                    throw FormatErrors.parquetVariantNotRead(file, path, "a row has its metadata but no value");
                }
                target.set(new VariantValue(row.getBinary(schema.variantIdx), row.getBinary(schema.topLevelMetadataIdx)));
                return;
            }
            Variant v;
            try {
                v = ShreddingUtils.rebuild(row, schema);
            } catch (RuntimeException e) { // spark-variant's malformed-variant error is a Spark class
                throw FormatErrors.parquetVariantNotRead(file, path, "its shredded value cannot be rebuilt (" + e.getMessage() + ")");
            }
            target.set(new VariantValue(v.getValue(), v.getMetadata()));
        });
    }

    /** Spark's {@code VariantSchema} of a (shredded) variant group, as Spark's {@code SparkShreddingUtils} builds it. */
    private static VariantSchema schema(GroupType g, boolean topLevel, String file, String path) {
        int typedIdx = -1;
        int variantIdx = -1;
        int metadataIdx = -1;
        VariantSchema.ScalarType scalar = null;
        VariantSchema.ObjectField[] object = null;
        VariantSchema array = null;
        for (int i = 0; i < g.getFieldCount(); i++) {
            Type f = g.getType(i);
            switch (f.getName()) {
                case "metadata" -> {
                    requireBinary(f, topLevel, file, path);
                    metadataIdx = i;
                }
                case "value" -> {
                    requireBinary(f, true, file, path);
                    variantIdx = i;
                }
                case "typed_value" -> {
                    typedIdx = i;
                    if (f.isPrimitive()) {
                        scalar = scalar(f.asPrimitiveType(), file, path);
                    } else if (f.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
                        GroupType element = f.asGroupType().getType(0).asGroupType().getType(0).asGroupType();
                        array = schema(element, false, file, path + "[]");
                    } else {
                        GroupType fields = f.asGroupType();
                        object = new VariantSchema.ObjectField[fields.getFieldCount()];
                        for (int k = 0; k < object.length; k++) {
                            Type field = fields.getType(k);
                            if (field.isPrimitive()) {
                                throw FormatErrors.parquetVariantNotRead(file, path, "its shredded field '" + field.getName() + "' is no group");
                            }
                            object[k] = new VariantSchema.ObjectField(field.getName(),
                                    schema(field.asGroupType(), false, file, path + "." + field.getName()));
                        }
                    }
                }
                default -> throw FormatErrors.parquetVariantNotRead(file, path, "it has a field '" + f.getName() + "'");
            }
        }
        return new VariantSchema(typedIdx, variantIdx, metadataIdx, g.getFieldCount(), scalar, object, array);
    }

    private static void requireBinary(Type f, boolean allowed, String file, String path) {
        if (!allowed || !f.isPrimitive() || f.asPrimitiveType().getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BINARY) {
            throw FormatErrors.parquetVariantNotRead(file, path, "its field '" + f.getName() + "' is " + f.toString().strip());
        }
    }

    /** The variant type of a shredded scalar, as the shredding spec maps Parquet's types. */
    private static VariantSchema.ScalarType scalar(PrimitiveType p, String file, String path) {
        LogicalTypeAnnotation a = p.getLogicalTypeAnnotation();
        if (a instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation d) {
            return new VariantSchema.DecimalType(d.getPrecision(), d.getScale());
        }
        VariantSchema.ScalarType t = switch (p.getPrimitiveTypeName()) {
            case BOOLEAN -> new VariantSchema.BooleanType();
            case INT32 -> a instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation ? new VariantSchema.DateType()
                    : a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.getBitWidth() == 8
                    ? new VariantSchema.IntegralType(VariantSchema.IntegralSize.BYTE)
                    : a instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.getBitWidth() == 16
                    ? new VariantSchema.IntegralType(VariantSchema.IntegralSize.SHORT)
                    : new VariantSchema.IntegralType(VariantSchema.IntegralSize.INT);
            case INT64 -> a instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                    ? (ts.getUnit() != LogicalTypeAnnotation.TimeUnit.MICROS ? null
                    : ts.isAdjustedToUTC() ? new VariantSchema.TimestampType() : new VariantSchema.TimestampNTZType())
                    : new VariantSchema.IntegralType(VariantSchema.IntegralSize.LONG);
            case FLOAT -> new VariantSchema.FloatType();
            case DOUBLE -> new VariantSchema.DoubleType();
            case BINARY -> a instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation ? new VariantSchema.StringType()
                    : a == null ? new VariantSchema.BinaryType() : null;
            case FIXED_LEN_BYTE_ARRAY -> a instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation ? new VariantSchema.UuidType() : null;
            case INT96 -> null;
        };
        if (t == null) {
            throw FormatErrors.parquetVariantNotRead(file, path, "its shredded type " + p.toString().strip() + " is none of a variant's");
        }
        return t;
    }

    /** Gathers a group's values (any depth) as a {@link ShreddedValues.Struct}, handed on at its end. */
    private static final class Group extends GroupConverter {
        private final Converter[] converters;
        private final Consumer<Object> done;
        private Object[] values;

        Group(GroupType g, Consumer<Object> done) {
            this.done = done;
            this.converters = new Converter[g.getFieldCount()];
            for (int i = 0; i < converters.length; i++) {
                int k = i;
                converters[i] = of(g.getType(i), v -> values[k] = v);
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return converters[fieldIndex];
        }

        @Override
        public void start() {
            values = new Object[converters.length];
        }

        @Override
        public void end() {
            done.accept(new ShreddedValues.Struct(values));
        }
    }

    /** A LIST group's elements ({@code list.element}) as a {@link ShreddedValues.Elements}. */
    private static final class ListGroup extends GroupConverter {
        private final Converter repeated;
        private final Consumer<Object> done;
        private List<Object> elements;

        ListGroup(GroupType g, Consumer<Object> done) {
            this.done = done;
            Type element = g.getType(0).asGroupType().getType(0);
            Object[] holder = new Object[1];
            Converter inner = of(element, v -> holder[0] = v);
            this.repeated = new GroupConverter() {
                @Override
                public Converter getConverter(int fieldIndex) {
                    return inner;
                }

                @Override
                public void start() {
                    holder[0] = null;
                }

                @Override
                public void end() {
                    elements.add(holder[0]);
                }
            };
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return repeated;
        }

        @Override
        public void start() {
            elements = new ArrayList<>();
        }

        @Override
        public void end() {
            done.accept(new ShreddedValues.Elements(elements));
        }
    }

    private static Converter of(Type t, Consumer<Object> set) {
        if (!t.isPrimitive()) {
            return t.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation
                    ? new ListGroup(t.asGroupType(), set) : new Group(t.asGroupType(), set);
        }
        boolean text = t.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation;
        return new PrimitiveConverter() {
            @Override
            public void addBinary(Binary value) {
                set.accept(text ? value.toStringUsingUTF8() : value.getBytes());
            }

            @Override
            public void addBoolean(boolean value) {
                set.accept(value);
            }

            @Override
            public void addDouble(double value) {
                set.accept(value);
            }

            @Override
            public void addFloat(float value) {
                set.accept(value);
            }

            @Override
            public void addInt(int value) {
                set.accept(value);
            }

            @Override
            public void addLong(long value) {
                set.accept(value);
            }
        };
    }
}
