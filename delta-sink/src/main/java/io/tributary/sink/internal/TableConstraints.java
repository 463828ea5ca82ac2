package io.tributary.sink.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.tributary.expressions.Expression;
import io.tributary.expressions.ExpressionException;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The CHECK constraints of a Delta table ({@code delta.constraints.<name>} table properties, as
 * Spark's {@code ALTER TABLE t ADD CONSTRAINT c CHECK (...)} writes them) and its legacy invariants
 * ({@code delta.invariants} in a column's metadata), compiled once against the rows the sink writes
 * and checked on every row before it is written. As Delta's {@code CheckDeltaInvariant}, a row
 * violates a constraint whose expression is false <em>or null</em>; a row whose evaluation fails
 * (Spark's ANSI mode: a cast, an overflow) violates it too, as Spark's write would fail on it.
 */
public final class TableConstraints {
    /** The table property prefix of a CHECK constraint. */
    static final String PREFIX = "delta.constraints.";
    /** The column metadata key of a legacy invariant. */
    static final String INVARIANTS = "delta.invariants";
    /** None: every row holds. */
    public static final TableConstraints NONE = new TableConstraints(Map.of(), null, List.of());
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The constraints' texts by name, and the schema they were compiled against: what {@link #forTable} compares. */
    private final Map<String, String> texts;
    private final Schema schema;
    private final List<Check> checks;

    private record Check(String name, String text, Expression expression, List<Integer> columns) {
    }

    private TableConstraints(Map<String, String> texts, Schema schema, List<Check> checks) {
        this.texts = texts;
        this.schema = schema;
        this.checks = checks;
    }

    /** True when the table has no constraint to check. */
    public boolean isEmpty() {
        return checks.isEmpty();
    }

    /** The constraints' names and expressions, by name. */
    public Map<String, String> texts() {
        return texts;
    }

    /**
     * The constraints of {@code snapshot}'s table (none without a table) compiled against {@code rows},
     * the schema of the rows the sink writes; {@code this} again when neither changed, so a constraint is
     * compiled once per table version that changes it.
     *
     * @throws TributaryException at the batch's start, naming the constraint, when one does not compile
     *         (a syntax Tributary's expressions lack, a column the pipeline does not write)
     */
    public TableConstraints forTable(String tablePath, java.util.Optional<Snapshot> snapshot, Schema rows) {
        Map<String, String> now = snapshot.map(s -> texts(s.getTableProperties(), s.getSchema())).orElse(Map.of());
        if (now.equals(texts) && (now.isEmpty() || rows.equals(schema))) {
            return this;
        }
        return compile(tablePath, now, rows);
    }

    /** The constraints {@code texts} (name to expression) compiled against {@code rows}. */
    static TableConstraints compile(String tablePath, Map<String, String> texts, Schema rows) {
        List<Check> checks = new ArrayList<>();
        for (Map.Entry<String, String> c : texts.entrySet()) {
            Expression e;
            try {
                e = Expression.compile(rows, c.getValue());
            } catch (TributaryException ex) {
                throw TableErrors.constraintNotCheckable(tablePath, c.getKey(), c.getValue(), rows.toDdl(), ex);
            }
            checks.add(new Check(c.getKey(), c.getValue(), e, columnsIn(rows, c.getValue())));
        }
        return new TableConstraints(Map.copyOf(texts), rows, List.copyOf(checks));
    }

    /** The CHECK constraints in {@code properties} and the invariants in {@code schema}'s column metadata, name to expression. */
    static Map<String, String> texts(Map<String, String> properties, StructType schema) {
        Map<String, String> out = new TreeMap<>();
        properties.forEach((k, v) -> {
            if (k.toLowerCase(Locale.ROOT).startsWith(PREFIX)) {
                out.put(k.substring(PREFIX.length()), v);
            }
        });
        if (schema != null) {
            invariants(schema, "", out);
        }
        return out;
    }

    private static void invariants(StructType struct, String prefix, Map<String, String> out) {
        for (StructField f : struct.fields()) {
            String path = prefix + f.getName();
            if (f.getMetadata() != null && f.getMetadata().contains(INVARIANTS)) {
                Object raw = f.getMetadata().get(INVARIANTS);
                out.put("invariant(" + path + ")", invariantText(String.valueOf(raw)));
            }
            if (f.getDataType() instanceof StructType nested) {
                invariants(nested, path + ".", out);
            }
        }
    }

    /** The expression of an invariant's JSON, {@code {"expression":{"expression":"x > 0"}}}. */
    static String invariantText(String json) {
        try {
            JsonNode n = JSON.readTree(json).path("expression").path("expression");
            return n.isTextual() ? n.asText() : json;
        } catch (java.io.IOException e) {
            return json;
        }
    }

    /** The positions of {@code rows}' columns that {@code text} names (what a violation shows the values of). */
    private static List<Integer> columnsIn(Schema rows, String text) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String name = rows.field(i).name();
            Pattern p = Pattern.compile("(?<![\\w`])`?" + Pattern.quote(name) + "`?(?![\\w`])", Pattern.CASE_INSENSITIVE);
            if (p.matcher(text).find()) {
                out.add(i);
            }
        }
        return out;
    }

    /**
     * The first constraint {@code row} violates, as a bad record naming the constraint, its expression
     * and the row's values of the columns it reads; null when the row holds every constraint.
     */
    public BadRecordException violation(Object[] row) {
        for (Check c : checks) {
            Object result;
            String failure = null;
            try {
                result = c.expression().eval(row);
            } catch (ExpressionException e) {
                result = null;
                failure = e.getMessage();
            }
            if (!Boolean.TRUE.equals(result)) {
                StringBuilder values = new StringBuilder();
                for (int i : c.columns()) {
                    values.append(values.length() == 0 ? "" : ", ").append(schema.field(i).name()).append(" = ")
                            .append(Objects.toString(row[i]));
                }
                String why = failure != null ? "fails (" + failure + ")" : "is " + (result == null ? "null" : "false");
                return TableErrors.constraintViolated(c.name(), c.text(), why, values.toString());
            }
        }
        return null;
    }
}
