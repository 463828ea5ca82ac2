package io.tributary.expressions;

import io.tributary.expressions.internal.SqlUnion;
import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The columns of a {@code UNION ALL} ({@link SqlQuery#unionAll()}), as Spark makes them: named by the first query's, each of the type
 * the queries' types widen to (INT and BIGINT: BIGINT, INT and DOUBLE: DOUBLE, STRING and INT: BIGINT...), nullable where one
 * query's is; a NULL select item without a type ({@link Transform#untypedColumns()}) takes the type of the other queries' column; the
 * queries must have as many columns (NUM_COLUMNS_MISMATCH) whose types meet (INCOMPATIBLE_COLUMN_TYPE).
 */
public final class UnionColumns {
    private UnionColumns() {
    }

    /**
     * Each of {@code queries} (the transforms of the union's queries, the first first) followed, where its columns are not the
     * union's, by their cast to the union's types (Spark's implicit cast, ANSI: a value that does not fit fails its row); the first
     * then gives the union's columns. A refusal is prefixed with the key of the query that does not meet the ones before it,
     * {@code keys.get(i)}.
     */
    public static List<Transform> of(List<Transform> queries, List<String> keys) {
        List<Field> first = queries.get(0).output().fields();
        List<DataType> types = new ArrayList<>(Collections.nCopies(first.size(), null)); // null: only untyped NULLs so far
        boolean[] nullable = new boolean[first.size()];
        for (int q = 0; q < queries.size(); q++) {
            List<Field> fields = queries.get(q).output().fields();
            if (fields.size() != first.size()) {
                throw ExpressionErrors.inSetting(keys.get(q), UnionErrors.columnCount(q + 1, fields.size(), first.size()));
            }
            for (int c = 0; c < fields.size(); c++) {
                nullable[c] |= fields.get(c).nullable();
                if (queries.get(q).untypedColumns().contains(c)) {
                    continue; // NULL, of the type of the other queries' column, as Spark widens NullType
                }
                if (types.get(c) == null) {
                    types.set(c, fields.get(c).type());
                }
                DataType wider = SqlUnion.wider(types.get(c), fields.get(c).type());
                if (wider == null) {
                    throw ExpressionErrors.inSetting(keys.get(q), UnionErrors.columnType(q + 1, c + 1, fields.get(c).name(),
                            SqlUnion.name(fields.get(c).type()), SqlUnion.name(types.get(c))));
                }
                types.set(c, wider);
            }
        }
        List<Field> union = new ArrayList<>();
        for (int c = 0; c < first.size(); c++) {
            if (types.get(c) == null) {
                throw ExpressionErrors.inSetting(keys.get(0), UnionErrors.untypedColumn(c + 1, first.get(c).name()));
            }
            union.add(new Field(first.get(c).name(), types.get(c), nullable[c]));
        }
        List<Transform> out = new ArrayList<>();
        for (int q = 0; q < queries.size(); q++) {
            out.add(cast(queries.get(q), union, q == 0));
        }
        return out;
    }

    /** {@code query} with its columns cast to {@code union}'s types (and, for the first, its nullability), or as it is where they are. */
    private static Transform cast(Transform query, List<Field> union, boolean first) {
        List<Field> fields = query.output().fields();
        List<Field> positional = new ArrayList<>(); // the columns by place: names may repeat or differ between queries
        List<String> items = new ArrayList<>();
        boolean same = true;
        for (int c = 0; c < fields.size(); c++) {
            Field f = fields.get(c);
            Field u = union.get(c);
            positional.add(new Field("_c" + c, f.type(), f.nullable()));
            boolean untyped = query.untypedColumns().contains(c);
            boolean differs = untyped || !f.type().equals(u.type()) || first && f.nullable() != u.nullable();
            same &= !differs;
            String name = "`" + u.name().replace("`", "``") + "`";
            String cast = untyped ? "CAST(NULL AS " + u.type().ddl() + ")" // an untyped NULL: of the union's type
                    : u.type().isNested() // an array, map or struct is cast implicitly, element by element, as Spark's union does
                    ? "coalesce(_c" + c + ", CAST(NULL AS " + u.type().ddl() + "))" : "CAST(_c" + c + " AS " + u.type().ddl() + ")";
            items.add(differs ? cast + " AS " + name : "_c" + c + " AS " + name);
        }
        return same ? query : query.followedBy(Transform.compile(new Schema(positional), null, items));
    }
}
