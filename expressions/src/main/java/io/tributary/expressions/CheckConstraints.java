package io.tributary.expressions;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A Delta table's CHECK constraints (and legacy invariants), each a name and a Spark SQL boolean
 * expression, compiled once against the rows that are written to the table and checked on each.
 * As Delta's {@code CheckDeltaInvariant}, a row violates a constraint whose expression is false
 * <em>or null</em>; a row whose evaluation fails (Spark's ANSI mode: a cast, an overflow) violates
 * it too, as Spark's write would fail on it. The sink checks the rows it writes with it, and the
 * file source the rows it parses, so that a violation names the file and line.
 */
public final class CheckConstraints {
    /** None: every row holds. */
    public static final CheckConstraints NONE = new CheckConstraints(Map.of(), null, List.of());

    private final Map<String, String> texts;
    private final Schema schema;
    private final List<Check> checks;

    private record Check(String name, String text, Expression expression, List<Integer> columns) {
    }

    /** How a constraint that does not compile is refused, by whoever knows where it comes from (the table). */
    @FunctionalInterface
    public interface Refusal {
        TributaryException refuse(String name, String expression, TributaryException why);
    }

    private CheckConstraints(Map<String, String> texts, Schema schema, List<Check> checks) {
        this.texts = texts;
        this.schema = schema;
        this.checks = checks;
    }

    /**
     * The constraints {@code texts} (name to expression, checked in the map's order) compiled against
     * {@code rows}; a constraint that does not compile (a syntax Tributary lacks, a column the rows do
     * not have) is refused as {@code refusal} says.
     */
    public static CheckConstraints compile(Schema rows, Map<String, String> texts, Refusal refusal) {
        if (texts.isEmpty()) {
            return NONE;
        }
        List<Check> checks = new ArrayList<>();
        for (Map.Entry<String, String> c : texts.entrySet()) {
            Expression e;
            try {
                e = Expression.compile(rows, c.getValue());
            } catch (TributaryException ex) {
                throw refusal.refuse(c.getKey(), c.getValue(), ex);
            }
            checks.add(new Check(c.getKey(), c.getValue(), e, columnsIn(rows, c.getValue())));
        }
        return new CheckConstraints(Map.copyOf(texts), rows, List.copyOf(checks));
    }

    /** True when there is no constraint to check. */
    public boolean isEmpty() {
        return checks.isEmpty();
    }

    /** The constraints' expressions, by name. */
    public Map<String, String> texts() {
        return texts;
    }

    /** The schema of the rows the constraints were compiled against; null for {@link #NONE}. */
    public Schema schema() {
        return schema;
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
     * The first constraint {@code row} violates, as a bad record whose field is the constraint's name and
     * whose reason gives its expression and the row's values of the columns it reads; null when the row
     * holds every constraint.
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
                return ExpressionErrors.constraintViolated(c.name(), c.text(), why, values.toString());
            }
        }
        return null;
    }
}
