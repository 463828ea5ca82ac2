package io.tributary.sink.internal;

import io.delta.kernel.expressions.Literal;
import io.tributary.delta.KernelSchemas;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A sink's {@code partitionBy}: plain columns of the rows ({@code "country"}) or a date derived from
 * an event time ({@code "date(ts) as day"}, the UTC calendar day of a TIMESTAMP, as Spark's
 * {@code to_date(ts)} with a UTC session time zone). A derived column is appended to the table's
 * schema and computed by the sink ({@link #toTableRows}); Delta writes each partition in a Hive-style
 * {@code col=value/} folder and keeps partition columns out of the Parquet files.
 *
 * <p>{@link #group} is the one place that splits a batch by partition: every data-file writer calls it
 * and writes each group with its partition values ({@code Transaction.getWriteContext(engine, state, values)}).
 */
public final class Partitioning {
    private static final Pattern DERIVED = Pattern.compile("\\s*date\\s*\\(\\s*(\\w+)\\s*\\)\\s+as\\s+(\\w+)\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern PLAIN = Pattern.compile("\\s*(\\w+)\\s*");
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    private static final Set<DataType.Kind> PARTITION_TYPES = Set.of(DataType.Kind.STRING, DataType.Kind.INT, DataType.Kind.LONG,
            DataType.Kind.SHORT, DataType.Kind.BYTE, DataType.Kind.BOOLEAN, DataType.Kind.DATE);

    /** How a partition column gets its value: {@code source} is the input column's index. */
    private record Column(String name, int source, boolean dateOf, DataType type) {
    }

    private final Schema inputSchema;
    private final Schema tableSchema;
    private final List<Column> columns;
    private final int[] tableIndexes;
    private final List<String> specs;

    private Partitioning(Schema inputSchema, Schema tableSchema, List<Column> columns, List<String> specs) {
        this.inputSchema = inputSchema;
        this.tableSchema = tableSchema;
        this.columns = columns;
        this.specs = specs;
        this.tableIndexes = columns.stream().mapToInt(c -> tableSchema.indexOf(c.name())).toArray();
    }

    /** No partitioning: the table's schema is the input's. */
    public static Partitioning none(Schema inputSchema) {
        return new Partitioning(inputSchema, inputSchema, List.of(), List.of());
    }

    /**
     * Parses {@code partitionBy} against the rows' schema.
     *
     * @throws TributaryException naming {@code sink.delta.partitionBy} if an entry is malformed or does not fit the schema
     */
    public static Partitioning parse(List<String> partitionBy, Schema input) {
        if (partitionBy == null || partitionBy.isEmpty()) {
            return none(input);
        }
        List<Column> cols = new ArrayList<>();
        List<Field> derived = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String spec : partitionBy) {
            Matcher d = DERIVED.matcher(spec);
            Matcher p = PLAIN.matcher(spec);
            Column c;
            if (d.matches()) {
                int src = input.indexOf(d.group(1));
                if (src < 0) {
                    throw error(spec, "column '" + d.group(1) + "' is not in the sink's schema " + input.toDdl());
                }
                DataType.Kind k = input.field(src).type().kind();
                if (k != DataType.Kind.TIMESTAMP && k != DataType.Kind.TIMESTAMP_NTZ && k != DataType.Kind.DATE) {
                    throw error(spec, "date() takes a TIMESTAMP or DATE column, and '" + d.group(1) + "' is " + input.field(src).type().ddl());
                }
                if (input.indexOf(d.group(2)) >= 0) {
                    throw error(spec, "the derived column '" + d.group(2) + "' is already a column of the rows; name it differently");
                }
                c = new Column(d.group(2), src, true, DataType.DATE);
                derived.add(new Field(c.name(), DataType.DATE, true));
            } else if (p.matches()) {
                int src = input.indexOf(p.group(1));
                if (src < 0) {
                    throw error(spec, "column '" + p.group(1) + "' is not in the sink's schema " + input.toDdl());
                }
                DataType t = input.field(src).type();
                if (!PARTITION_TYPES.contains(t.kind())) {
                    throw error(spec, "column '" + p.group(1) + "' is " + t.ddl() + "; partition by a STRING, integer, BOOLEAN or DATE "
                            + "column, or by a day: \"date(" + p.group(1) + ") as day\" for a timestamp");
                }
                c = new Column(input.field(src).name(), src, false, t);
            } else {
                throw error(spec, "write a column name, e.g. \"country\", or a day of an event time, e.g. \"date(ts) as day\"");
            }
            if (!seen.add(c.name().toLowerCase(Locale.ROOT))) {
                throw error(spec, "column '" + c.name() + "' is listed twice");
            }
            cols.add(c);
        }
        List<Field> all = new ArrayList<>(input.fields());
        all.addAll(derived);
        return new Partitioning(input, new Schema(all), List.copyOf(cols), List.copyOf(partitionBy));
    }

    private static TributaryException error(String spec, String why) {
        return TableErrors.badPartitionBy(spec, why);
    }

    public boolean isPartitioned() {
        return !columns.isEmpty();
    }

    /** True if the sink computes a column the rows do not have ({@code date(ts) as day}). */
    public boolean hasDerivedColumns() {
        return columns.stream().anyMatch(Column::dateOf);
    }

    /** The partition column names, in {@code partitionBy} order. */
    public List<String> columns() {
        return columns.stream().map(Column::name).toList();
    }

    /** The {@code partitionBy} entries as given. */
    public List<String> specs() {
        return specs;
    }

    /** The table's schema: the rows' columns, then the derived ones. */
    public Schema tableSchema() {
        return tableSchema;
    }

    /** The rows with their derived columns appended; the same list if there are none. */
    public List<Object[]> toTableRows(List<Object[]> inputRows) {
        if (!hasDerivedColumns()) {
            return inputRows;
        }
        List<Object[]> out = new ArrayList<>(inputRows.size());
        for (Object[] in : inputRows) {
            Object[] row = java.util.Arrays.copyOf(in, tableSchema.size());
            for (Column c : columns) {
                if (c.dateOf()) {
                    row[tableSchema.indexOf(c.name())] = dayOf(inputSchema.field(c.source()).type(), in[c.source()]);
                }
            }
            out.add(row);
        }
        return out;
    }

    private static Integer dayOf(DataType type, Object v) {
        if (v == null) {
            return null;
        }
        if (type.kind() == DataType.Kind.DATE) {
            return (Integer) v;
        }
        return Math.toIntExact(Math.floorDiv((Long) v, MICROS_PER_DAY));
    }

    /**
     * Table rows grouped by partition, in first-seen order: each key is the partition values to
     * write the group with (an empty map, one group, when the table is not partitioned).
     */
    public Map<Map<String, Literal>, List<Object[]>> group(List<Object[]> tableRows) {
        if (!isPartitioned()) {
            return Map.of(Map.of(), tableRows);
        }
        Map<List<Object>, List<Object[]>> byKey = new LinkedHashMap<>();
        for (Object[] row : tableRows) {
            List<Object> key = new ArrayList<>(tableIndexes.length);
            for (int i : tableIndexes) {
                key.add(row[i]);
            }
            byKey.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
        Map<Map<String, Literal>, List<Object[]>> out = new LinkedHashMap<>();
        byKey.forEach((key, rows) -> {
            Map<String, Literal> values = new LinkedHashMap<>();
            for (int i = 0; i < columns.size(); i++) {
                values.put(columns.get(i).name(), literal(columns.get(i).type(), key.get(i)));
            }
            out.put(values, rows);
        });
        return out;
    }

    static Literal literal(DataType type, Object v) {
        if (v == null) {
            return Literal.ofNull(KernelSchemas.toKernel(type));
        }
        return switch (type.kind()) {
            case STRING -> Literal.ofString((String) v);
            case INT -> Literal.ofInt((Integer) v);
            case LONG -> Literal.ofLong((Long) v);
            case SHORT -> Literal.ofShort((Short) v);
            case BYTE -> Literal.ofByte((Byte) v);
            case BOOLEAN -> Literal.ofBoolean((Boolean) v);
            case DATE -> Literal.ofDate((Integer) v);
            default -> throw new IllegalArgumentException("not a partition type: " + type.ddl());
        };
    }
}
