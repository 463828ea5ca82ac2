package io.tributary.expressions;

import io.tributary.expressions.internal.VariantSchemaText;

/**
 * Spark 4.2's {@code schema_of_variant_agg(v)} as an aggregation computes it from its rows' {@code schema_of_variant(v)} texts
 * (a topic carries no VARIANT): the merged schema so far is a text too, {@code OBJECT<a: BIGINT, b: STRING>}.
 */
public final class SchemaOfVariantAgg {
    private SchemaOfVariantAgg() {
    }

    /** The schema {@code state} (null before any value) merged with a row's schema_of_variant text {@code next} (null: skipped). */
    public static String merge(String state, String next) {
        return VariantSchemaText.merge(state, next);
    }

    /** The aggregate's value of {@code state}: VOID when no row had a value, as Spark gives it. */
    public static String result(String state) {
        return state == null ? "VOID" : state;
    }
}
