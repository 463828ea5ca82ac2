package io.tributary.expressions.internal;

import io.tributary.expressions.ExpressionErrors;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The names a query's columns may be qualified by, as Spark resolves a qualifier before a struct's field: the input's alias
 * ({@code s.amt} of {@code FROM source s}) and the lateral views' names ({@code t.tag} of {@code LATERAL VIEW explode(tags) t
 * AS tag}).
 *
 * @param alias the input's alias, null for none
 * @param views each lateral view's name, lower case, to its columns' names in the row ({@link #shown})
 */
record Qualifiers(String alias, Map<String, List<String>> views) {
    /**
     * The column {@code qualifier.field} names, or null when {@code qualifier} is neither the alias nor a view; a field the
     * view does not make is refused as an unknown column, naming the view's.
     */
    Node.Column column(String source, String qualifier, String field, String text, int position) {
        if (alias != null && qualifier.equalsIgnoreCase(alias)) {
            return new Node.Column(List.of(field), text, position);
        }
        List<String> columns = views.get(qualifier.toLowerCase(Locale.ROOT));
        if (columns == null) {
            return null;
        }
        for (String c : columns) {
            if (shown(qualifier, c).equalsIgnoreCase(field)) {
                return new Node.Column(List.of(c), text, position);
            }
        }
        throw ExpressionErrors.unknownColumn(source, position, qualifier + "." + field,
                columns.stream().map(c -> qualifier + "." + shown(qualifier, c)).toList());
    }

    /**
     * A view's column {@code column} as the view names it: a column whose name an earlier view's column has is in the row as
     * {@code view.column} (lower-case view), the view's own name being {@code column}.
     */
    static String shown(String view, String column) {
        String prefix = view.toLowerCase(Locale.ROOT) + ".";
        return column.startsWith(prefix) ? column.substring(prefix.length()) : column;
    }
}
