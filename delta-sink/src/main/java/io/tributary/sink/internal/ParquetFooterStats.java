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
 * A Delta {@code add} action's statistics from the footer of a Parquet file: the row count, and min, max and null count of each statistics column
 * (a VARIANT column's null count only, as Delta 4.4 writes),
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
        Map<Column, Long> chunkNulls = new HashMap<>(); // -1: a row group without a null count
        for (BlockMetaData block : footer.getBlocks()) {
            rows += block.getRowCount();
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                Column column = new Column(chunk.getPath().toArray());
                Statistics<?> s = chunk.getStatistics();
                long n = s == null || !s.isNumNullsSet() ? -1 : s.getNumNulls();
                chunkNulls.merge(column, n, (a, b) -> a < 0 || b < 0 ? -1L : a + b);
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
                variantNulls(c, chunkNulls).ifPresent(n -> nulls.put(c, n));
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
     * A VARIANT column's null count, as Delta 4.4 writes it (and no min or max): the nulls of its group's required
     * {@code value} field, which is null exactly where the variant is (a JSON {@code null} is a variant, not a null).
     */
    private static Optional<Long> variantNulls(Column c, Map<Column, Long> chunkNulls) {
        String[] names = java.util.Arrays.copyOf(c.getNames(), c.getNames().length + 1);
        names[names.length - 1] = "value";
        Long n = chunkNulls.get(new Column(names));
        return n == null || n < 0 ? Optional.empty() : Optional.of(n);
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
