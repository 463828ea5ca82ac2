package io.tributary.ingest.internal.format;

import io.tributary.ingest.internal.format.ParquetConverters.Target;
import io.tributary.schema.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * The converters of Parquet's primitive values into a schema's types ({@link ParquetConverters}):
 * the widenings Spark reads, timestamps in MILLIS, MICROS, NANOS or INT96, decimals rescaled,
 * strings decoded once per dictionary entry.
 */
final class ParquetPrimitiveConverters {
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final int JULIAN_EPOCH_DAY = 2_440_588;

    private ParquetPrimitiveConverters() {
    }

    static PrimitiveConverter primitive(PrimitiveType p, DataType type, Target target, String file, String path) {
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
        throw ParquetConverters.mismatch(file, path, p, type);
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
