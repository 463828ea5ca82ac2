package io.tributary.sink.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.delta.kernel.Snapshot;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.tributary.expressions.CheckConstraints;
import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The CHECK constraints of a Delta table ({@code delta.constraints.<name>} table properties, as
 * Spark's {@code ALTER TABLE t ADD CONSTRAINT c CHECK (...)} writes them) and its legacy invariants
 * ({@code delta.invariants} in a column's metadata), compiled once against the rows the sink writes
 * and checked on every row before it is written ({@link CheckConstraints}: a row violates a
 * constraint whose expression is false, null, or fails).
 */
public final class TableConstraints {
    /** The table property prefix of a CHECK constraint. */
    static final String PREFIX = "delta.constraints.";
    /** The column metadata key of a legacy invariant. */
    static final String INVARIANTS = "delta.invariants";
    /** None: every row holds. */
    public static final TableConstraints NONE = new TableConstraints(Map.of(), CheckConstraints.NONE);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The constraints' texts by name: what {@link #forTable} compares. */
    private final Map<String, String> texts;
    private final CheckConstraints checks;

    private TableConstraints(Map<String, String> texts, CheckConstraints checks) {
        this.texts = texts;
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
        Map<String, String> now = snapshot.map(TableConstraints::of).orElse(Map.of());
        if (now.equals(texts) && (now.isEmpty() || rows.equals(checks.schema()))) {
            return this;
        }
        return compile(tablePath, now, rows);
    }

    /** The constraints {@code texts} (name to expression) compiled against {@code rows}. */
    static TableConstraints compile(String tablePath, Map<String, String> texts, Schema rows) {
        CheckConstraints checks = CheckConstraints.compile(rows, new TreeMap<>(texts),
                (name, expression, why) -> TableErrors.constraintNotCheckable(tablePath, name, expression, rows.toDdl(), why));
        return new TableConstraints(Map.copyOf(texts), checks);
    }

    /** The CHECK constraints and invariants of {@code snapshot}'s table, name to expression (by name). */
    public static Map<String, String> of(Snapshot snapshot) {
        return texts(snapshot.getTableProperties(), snapshot.getSchema());
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

    /**
     * The first constraint {@code row} violates, as a bad record naming the constraint, its expression
     * and the row's values of the columns it reads; null when the row holds every constraint.
     */
    public BadRecordException violation(Object[] row) {
        return checks.violation(row);
    }
}
