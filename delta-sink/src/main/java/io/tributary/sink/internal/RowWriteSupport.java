package io.tributary.sink.internal;

import io.delta.kernel.types.ArrayType;
import io.delta.kernel.types.MapType;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.VariantValue;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.conf.ParquetConfiguration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * Tributary's {@code Object[]} rows (see {@code DataType}) to Parquet records, with the Parquet
 * types Kernel's default writer uses for the same Delta types (so Kernel, Spark and Tributary read
 * the files alike): INT64 {@code timestamp(MICROS, UTC)}, UTF-8 strings, decimals as INT32, INT64
 * or fixed-length binary by precision, NOT NULL columns REQUIRED and the rest OPTIONAL, arrays
 * and maps as the spec's three-level {@code LIST} and {@code MAP} groups, a VARIANT as the group of its {@code value} and
 * {@code metadata} bytes that Delta's {@code variantType} feature specifies. The columns are a table's data file's
 * ({@link FileColumns}): a partitioned table's rows are written without their partition columns, a column-mapped
 * table's columns under their physical names, with their ids as Parquet field ids.
 */
final class RowWriteSupport extends WriteSupport<Object[]> {
    private static final int MAX_INT_DIGITS = 9;
    private static final int MAX_LONG_DIGITS = 18;
    /** The variant encoding's version, in Parquet's VARIANT annotation. */
    private static final byte VARIANT_SPEC_VERSION = 1;

    private final MessageType parquetSchema;
    private final Fields fields;
    private RecordConsumer out;

    RowWriteSupport(Schema schema) {
        this(FileColumns.plain(schema, KernelSchemas.toKernel(schema)));
    }

    /** A writer of rows into files of {@code columns}: the rows' other columns left out, the columns under their Parquet names and ids. */
    RowWriteSupport(FileColumns columns) {
        this.parquetSchema = new MessageType("TributarySchema", types(columns.schema(), columns.physical()).toArray(new Type[0]));
        this.fields = new Fields(columns.schema(), columns.physical(), columns.sources());
    }

    MessageType parquetSchema() {
        return parquetSchema;
    }

    @Override
    public WriteContext init(Configuration configuration) {
        return context();
    }

    @Override
    public WriteContext init(ParquetConfiguration configuration) {
        return context();
    }

    private WriteContext context() {
        return new WriteContext(parquetSchema, Map.of("io.tributary.parquet-writer", DeltaTableWriter.ENGINE_INFO));
    }

    @Override
    public String getName() {
        return "tributary";
    }

    @Override
    public void prepareForWrite(RecordConsumer recordConsumer) {
        this.out = recordConsumer;
    }

    @Override
    public void write(Object[] row) {
        out.startMessage();
        fields.write(row);
        out.endMessage();
    }

    /** Writes one non-null value of a column. */
    private interface ValueWriter {
        void write(Object v);
    }

    /**
     * The fields of a row or a struct, each with the writer of its type, picked once: the JIT then
     * compiles the writers of the types a table has, each on its own (one method that switched on
     * the type inlined Parquet's whole column-writing path for every type: 61 KB of machine code,
     * compiled twice, half a second of C2 time in a million-row run).
     */
    private final class Fields {
        private final String[] names;
        private final ValueWriter[] writers;
        /** Each field's position in the row or struct written. */
        private final int[] sources;

        /** The fields of {@code s}, named as {@code physical} (the same fields) names them, taken from the positions {@code sources}. */
        Fields(Schema s, StructType physical, int[] sources) {
            names = new String[s.size()];
            writers = new ValueWriter[s.size()];
            this.sources = sources;
            for (int i = 0; i < names.length; i++) {
                names[i] = physical.at(i).getName();
                writers[i] = writer(s.field(i).type(), physical.at(i).getDataType());
            }
        }

        void write(Object[] row) {
            for (int i = 0; i < names.length; i++) {
                Object v = row[sources[i]];
                if (v == null) {
                    continue; // a missing optional field is a null
                }
                out.startField(names[i], i);
                writers[i].write(v);
                out.endField(names[i], i);
            }
        }
    }

    /** The writer of a value of {@code type}, whose fields (in structs, at any depth) {@code physical} names. */
    private ValueWriter writer(DataType type, io.delta.kernel.types.DataType physical) {
        return switch (type.kind()) {
            case BYTE, SHORT, INT, DATE -> v -> out.addInteger(((Number) v).intValue());
            case LONG, TIMESTAMP, TIMESTAMP_NTZ -> v -> out.addLong((Long) v);
            case FLOAT -> v -> out.addFloat((Float) v);
            case DOUBLE -> v -> out.addDouble((Double) v);
            case BOOLEAN -> v -> out.addBoolean((Boolean) v);
            // a byte-array Binary: Binary.fromString wraps a ByteBuffer, which the dictionary's hashing and the statistics compare slowly
            case STRING -> v -> out.addBinary(Binary.fromConstantByteArray(((String) v).getBytes(StandardCharsets.UTF_8)));
            case BINARY -> type.isVariant() ? this::variant : v -> out.addBinary(Binary.fromConstantByteArray((byte[]) v));
            case DECIMAL -> v -> decimal(type, (BigDecimal) v);
            case STRUCT -> {
                Fields struct = new Fields(type.struct(), (StructType) physical, identity(type.struct().size()));
                yield v -> {
                    out.startGroup();
                    struct.write((Object[]) v);
                    out.endGroup();
                };
            }
            case ARRAY -> {
                ValueWriter element = writer(type.element(), ((ArrayType) physical).getElementType());
                yield v -> {
                    List<?> list = (List<?>) v;
                    out.startGroup();
                    if (!list.isEmpty()) {
                        out.startField("list", 0);
                        for (Object e : list) {
                            out.startGroup();
                            if (e != null) {
                                out.startField("element", 0);
                                element.write(e);
                                out.endField("element", 0);
                            }
                            out.endGroup();
                        }
                        out.endField("list", 0);
                    }
                    out.endGroup();
                };
            }
            case MAP -> {
                ValueWriter key = writer(type.keyType(), ((MapType) physical).getKeyType());
                ValueWriter value = writer(type.valueType(), ((MapType) physical).getValueType());
                yield v -> {
                    Map<?, ?> map = (Map<?, ?>) v;
                    out.startGroup();
                    if (!map.isEmpty()) {
                        out.startField("key_value", 0);
                        for (Map.Entry<?, ?> e : map.entrySet()) {
                            out.startGroup();
                            out.startField("key", 0);
                            key.write(e.getKey());
                            out.endField("key", 0);
                            if (e.getValue() != null) {
                                out.startField("value", 1);
                                value.write(e.getValue());
                                out.endField("value", 1);
                            }
                            out.endGroup();
                        }
                        out.endField("key_value", 0);
                    }
                    out.endGroup();
                };
            }
        };
    }

    /** A VARIANT as Spark writes it: a group of its value bytes, then its metadata bytes. */
    private void variant(Object v) {
        VariantValue variant = (VariantValue) v;
        out.startGroup();
        out.startField("value", 0);
        out.addBinary(Binary.fromConstantByteArray(variant.value()));
        out.endField("value", 0);
        out.startField("metadata", 1);
        out.addBinary(Binary.fromConstantByteArray(variant.metadata()));
        out.endField("metadata", 1);
        out.endGroup();
    }

    private void decimal(DataType type, BigDecimal v) {
        java.math.BigInteger unscaled = v.setScale(type.scale(), RoundingMode.UNNECESSARY).unscaledValue();
        if (type.precision() <= MAX_INT_DIGITS) {
            out.addInteger(unscaled.intValueExact());
        } else if (type.precision() <= MAX_LONG_DIGITS) {
            out.addLong(unscaled.longValueExact());
        } else {
            byte[] minimal = unscaled.toByteArray();
            byte[] fixed = new byte[decimalBytes(type.precision())];
            byte pad = (byte) (unscaled.signum() < 0 ? -1 : 0);
            int start = fixed.length - minimal.length;
            for (int i = 0; i < fixed.length; i++) {
                fixed[i] = i < start ? pad : minimal[i - start];
            }
            out.addBinary(Binary.fromConstantByteArray(fixed));
        }
    }

    /** The fewest bytes whose two's complement holds every unscaled value of {@code precision} digits. */
    static int decimalBytes(int precision) {
        int bytes = 1;
        while (Math.pow(2.0, 8 * bytes - 1) < Math.pow(10.0, precision)) {
            bytes++;
        }
        return bytes;
    }

    private static int[] identity(int n) {
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        return all;
    }

    /** The Parquet fields of {@code schema}'s columns, named as {@code physical} (the same columns) names them, with its field ids. */
    private static List<Type> types(Schema schema, StructType physical) {
        List<Type> types = new java.util.ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            Field f = schema.field(i);
            StructField p = physical.at(i);
            Type t = type(p.getName(), f.type(), p.getDataType(), f.nullable() ? Repetition.OPTIONAL : Repetition.REQUIRED);
            Integer id = FileColumns.fieldId(p);
            types.add(id == null ? t : t.withId(id));
        }
        return types;
    }

    private static Type type(String name, DataType t, io.delta.kernel.types.DataType p, Repetition r) {
        return switch (t.kind()) {
            case BOOLEAN -> Types.primitive(PrimitiveTypeName.BOOLEAN, r).named(name);
            case BYTE, SHORT, INT -> Types.primitive(PrimitiveTypeName.INT32, r).named(name);
            case LONG -> Types.primitive(PrimitiveTypeName.INT64, r).named(name);
            case FLOAT -> Types.primitive(PrimitiveTypeName.FLOAT, r).named(name);
            case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, r).named(name);
            case STRING -> Types.primitive(PrimitiveTypeName.BINARY, r).as(LogicalTypeAnnotation.stringType()).named(name);
            case BINARY -> t.isVariant() ? variantType(name, r) : Types.primitive(PrimitiveTypeName.BINARY, r).named(name);
            case DATE -> Types.primitive(PrimitiveTypeName.INT32, r).as(LogicalTypeAnnotation.dateType()).named(name);
            case TIMESTAMP -> Types.primitive(PrimitiveTypeName.INT64, r)
                    .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS)).named(name);
            case TIMESTAMP_NTZ -> Types.primitive(PrimitiveTypeName.INT64, r)
                    .as(LogicalTypeAnnotation.timestampType(false, LogicalTypeAnnotation.TimeUnit.MICROS)).named(name);
            case DECIMAL -> decimalType(name, t, r);
            case STRUCT -> new GroupType(r, name, types(t.struct(), (StructType) p));
            // the three-level lists and maps of the Parquet spec, named as Spark and Kernel name them
            case ARRAY -> Types.buildGroup(r).as(LogicalTypeAnnotation.listType())
                    .addField(new GroupType(Repetition.REPEATED, "list",
                            type("element", t.element(), ((ArrayType) p).getElementType(), Repetition.OPTIONAL)))
                    .named(name);
            case MAP -> Types.buildGroup(r).as(LogicalTypeAnnotation.mapType())
                    .addField(new GroupType(Repetition.REPEATED, "key_value",
                            type("key", t.keyType(), ((MapType) p).getKeyType(), Repetition.REQUIRED),
                            type("value", t.valueType(), ((MapType) p).getValueType(), Repetition.OPTIONAL)))
                    .named(name);
        };
    }

    /**
     * Delta's and Spark's Parquet form of a VARIANT: a group of two REQUIRED BINARY fields, {@code value} and {@code metadata},
     * annotated {@code VARIANT(1)} (Parquet's variant logical type, spec version 1) as Spark 4.2 annotates it.
     */
    static Type variantType(String name, Repetition r) {
        return Types.buildGroup(r).as(LogicalTypeAnnotation.variantType(VARIANT_SPEC_VERSION))
                .addField(Types.primitive(PrimitiveTypeName.BINARY, Repetition.REQUIRED).named("value"))
                .addField(Types.primitive(PrimitiveTypeName.BINARY, Repetition.REQUIRED).named("metadata"))
                .named(name);
    }

    private static Type decimalType(String name, DataType t, Repetition r) {
        LogicalTypeAnnotation decimal = LogicalTypeAnnotation.decimalType(t.scale(), t.precision());
        if (t.precision() <= MAX_INT_DIGITS) {
            return Types.primitive(PrimitiveTypeName.INT32, r).as(decimal).named(name);
        }
        if (t.precision() <= MAX_LONG_DIGITS) {
            return Types.primitive(PrimitiveTypeName.INT64, r).as(decimal).named(name);
        }
        return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, r).as(decimal).length(decimalBytes(t.precision())).named(name);
    }
}
