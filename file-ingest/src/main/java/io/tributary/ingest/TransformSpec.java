package io.tributary.ingest;

import io.tributary.expressions.ExpressionErrors;
import io.tributary.expressions.Transform;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.settings.Setting;
import io.tributary.settings.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ingest's transform as given: {@code transform.where}, {@code transform.select} and the columns the
 * aggregation computes, with the keys they were written under; {@link #compile} makes the {@link Transform}
 * over a schema, again whenever the schema grows. A refusal names the key and, from a spec, its line.
 */
final class TransformSpec {
    String where;
    List<String> select;
    String whereKey = "transform.where";
    String selectKey = "transform.select";
    /** Where the values were written (a spec), to word a refusal; null when given by a program. */
    Values values;
    /** Columns computed for the aggregation, each select item with the key it comes from. */
    Map<String, String> computed = new LinkedHashMap<>();

    TransformSpec copy() {
        TransformSpec c = new TransformSpec();
        c.where = where;
        c.select = select;
        c.whereKey = whereKey;
        c.selectKey = selectKey;
        c.values = values;
        c.computed = new LinkedHashMap<>(computed);
        return c;
    }

    Transform compile(Schema schema) {
        try {
            Transform.compile(schema, where, null);
        } catch (TributaryException e) {
            throw refused(TransformSettings.WHERE, whereKey, e);
        }
        Transform selected;
        try {
            selected = Transform.compile(schema, where, select);
        } catch (TributaryException e) {
            throw refused(TransformSettings.SELECT, selectKey, e);
        }
        if (computed.isEmpty()) {
            return selected;
        }
        List<String> items = new ArrayList<>(select == null || select.isEmpty() ? List.of("*") : select);
        for (Map.Entry<String, String> c : computed.entrySet()) {
            try {
                Transform.compile(schema, null, List.of(c.getKey()));
            } catch (TributaryException e) {
                throw ExpressionErrors.inSetting(c.getValue(), e);
            }
            items.add(c.getKey());
        }
        return Transform.compile(schema, where, items);
    }

    private RuntimeException refused(Setting<?> setting, String key, TributaryException e) {
        TributaryException named = ExpressionErrors.inSetting(key, e);
        return values == null ? named : values.invalid(setting, named);
    }
}
