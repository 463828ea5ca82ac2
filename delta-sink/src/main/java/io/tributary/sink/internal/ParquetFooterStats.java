package io.tributary.sink.internal;

import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.statistics.DataFileStatistics;
import io.delta.kernel.types.BinaryType;
import io.delta.kernel.types.BooleanType;
import io.delta.kernel.types.ByteType;
import io.delta.kernel.types.DataType;
import io.delta.kernel.types.DateType;
import io.delta.kernel.types.DecimalType;
import io.delta.kernel.types.DoubleType;
import io.delta.kernel.types.FloatType;
import io.delta.kernel.types.IntegerType;
import io.delta.kernel.types.LongType;
import io.delta.kernel.types.ShortType;
import io.delta.kernel.types.StringType;
import io.delta.kernel.types.StructType;
import io.delta.kernel.types.TimestampNTZType;
import io.delta.kernel.types.TimestampType;
import io.delta.kernel.types.VariantType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.parquet.column.statistics.BinaryStatistics;
import org.apache.parquet.column.statistics.IntStatistics;
import org.apache.parquet.column.statistics.LongStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * A Delta {@code add} action's statistics from the footer of a Parquet file: the row count, and min, max and null count of each statistics column,
 * decoded with the rules Kernel's default writer applies to the same parquet-mr statistics, so
 * both writers give the same {@code stats} JSON.
 */
final class ParquetFooterStats {
    private ParquetFooterStats() {
    }

    static DataFileStatistics of(ParquetMetadata footer, StructType schema, List<Column> statsColumns) {
        long rows = 0;
        Map<Column, Statistics<?>> merged = new HashMap<>();
        Map<Column, Boolean> invalid = new HashMap<>();
        for (BlockMetaData block : footer.getBlocks()) {
            rows += block.getRowCount();
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                Column column = new Column(chunk.getPath().toArray());
                Statistics<?> s = chunk.getStatistics();
                if (s == null || s.isEmpty() || !s.isNumNullsSet()
                        || (!s.hasNonNullValue() && s.getNumNulls() != chunk.getValueCount())) { // NaN values: no min/max
                    invalid.put(column, true);
                    continue;
                }
                Statistics<?> before = merged.get(column);
                if (before == null) {
                    merged.put(column, s);
                } else {
                    before.mergeStatistics(s);
                }
            }
        }
        Map<Column, Literal> min = new HashMap<>();
        Map<Column, Literal> max = new HashMap<>();
        Map<Column, Long> nulls = new HashMap<>();
        for (Column c : statsColumns) {
            Statistics<?> s = merged.get(c);
            DataType type = typeOf(schema, c);
            if (type instanceof VariantType) {
                variantNulls(footer, c).ifPresent(n -> nulls.put(c, n));
                continue;
            }
            if (s == null || invalid.containsKey(c) || type == null || !supported(type)) {
                continue;
            }
            nulls.put(c, s.getNumNulls());
            if (s.getNumNulls() == rows) {
                min.put(c, Literal.ofNull(type));
                max.put(c, Literal.ofNull(type));
                continue;
            }
            min.put(c, literal(type, s, true));
            max.put(c, literal(type, s, false));
        }
        return new DataFileStatistics(rows, min, max, nulls, Optional.empty());
    }

    /**
     * A VARIANT column's null count, as Spark writes it (no min or max): the nulls of its group's {@code value}, a
     * REQUIRED field that is missing exactly where the VARIANT is null; empty when a row group has no count.
     */
    private static Optional<Long> variantNulls(ParquetMetadata footer, Column variant) {
        String[] path = java.util.Arrays.copyOf(variant.getNames(), variant.getNames().length + 1);
        path[path.length - 1] = "value";
        long nulls = 0;
        for (BlockMetaData block : footer.getBlocks()) {
            Optional<ColumnChunkMetaData> value = block.getColumns().stream()
                    .filter(chunk -> java.util.Arrays.equals(chunk.getPath().toArray(), path)).findFirst();
            if (value.isEmpty() || value.get().getStatistics() == null || !value.get().getStatistics().isNumNullsSet()) {
                return Optional.empty();
            }
            nulls += value.get().getStatistics().getNumNulls();
        }
        return Optional.of(nulls);
    }

    private static DataType typeOf(StructType schema, Column c) {
        DataType t = schema;
        for (String name : c.getNames()) {
            if (!(t instanceof StructType st) || st.indexOf(name) < 0) {
                return null;
            }
            t = st.get(name).getDataType();
        }
        return t;
    }

    private static boolean supported(DataType t) {
        return t instanceof BooleanType || t instanceof ByteType || t instanceof ShortType || t instanceof IntegerType
                || t instanceof LongType || t instanceof FloatType || t instanceof DoubleType || t instanceof DecimalType
                || t instanceof DateType || t instanceof TimestampType || t instanceof TimestampNTZType
                || t instanceof StringType || t instanceof BinaryType;
    }

    private static Literal literal(DataType type, Statistics<?> s, boolean isMin) {
        Object v = isMin ? s.genericGetMin() : s.genericGetMax();
        if (v == null) {
            return null;
        }
        if (type instanceof BooleanType) {
            return Literal.ofBoolean((Boolean) v);
        } else if (type instanceof ByteType) {
            return Literal.ofByte(((Number) v).byteValue());
        } else if (type instanceof ShortType) {
            return Literal.ofShort(((Number) v).shortValue());
        } else if (type instanceof IntegerType) {
            return Literal.ofInt(((Number) v).intValue());
        } else if (type instanceof LongType) {
            return Literal.ofLong(((Number) v).longValue());
        } else if (type instanceof FloatType) {
            return Literal.ofFloat(((Number) v).floatValue());
        } else if (type instanceof DoubleType) {
            return Literal.ofDouble(((Number) v).doubleValue());
        } else if (type instanceof DecimalType d) {
            BigDecimal value;
            if (s instanceof IntStatistics || s instanceof LongStatistics) {
                value = BigDecimal.valueOf(((Number) v).longValue()).movePointLeft(d.getScale());
            } else if (s instanceof BinaryStatistics) {
                value = new BigDecimal(new BigInteger(isMin ? s.getMinBytes() : s.getMaxBytes()), d.getScale());
            } else {
                return null;
            }
            return Literal.ofDecimal(value, d.getPrecision(), d.getScale());
        } else if (type instanceof DateType) {
            return Literal.ofDate((Integer) v);
        } else if (type instanceof TimestampType) {
            return Literal.ofTimestamp((Long) v);
        } else if (type instanceof TimestampNTZType) {
            return Literal.ofTimestampNtz((Long) v);
        } else if (type instanceof StringType) {
            return Literal.ofString(new String(isMin ? s.getMinBytes() : s.getMaxBytes(), StandardCharsets.UTF_8));
        } else if (type instanceof BinaryType) {
            return Literal.ofBinary(isMin ? s.getMinBytes() : s.getMaxBytes());
        }
        return null;
    }
}
