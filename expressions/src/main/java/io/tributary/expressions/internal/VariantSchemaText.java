package io.tributary.expressions.internal;

import io.tributary.schema.DataType;
import io.tributary.schema.Field;
import io.tributary.schema.Schema;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code schema_of_variant_agg} over the texts of {@code schema_of_variant} ({@code OBJECT<a: BIGINT, b: ARRAY<STRING>>}): each
 * text read back into its type and merged into the schema so far as Spark 4.2's {@code SchemaOfVariant.mergeSchema} merges them
 * ({@link VariantSchemas#merge}), so that an aggregation whose rows carry each value's schema as text gives Spark's schema.
 */
public final class VariantSchemaText {
    private final String text;
    private int at;

    private VariantSchemaText(String text) {
        this.text = text;
    }

    /** The schema {@code state} (null: none yet) merged with one value's schema {@code next} (null: a NULL value, skipped). */
    public static String merge(String state, String next) {
        if (next == null || next.equals(state)) {
            return state;
        }
        if (state == null) {
            return next;
        }
        return VariantSchemas.sql(VariantSchemas.merge(parse(state), parse(next)));
    }

    /** The type of a schema_of_variant text; null for VOID. */
    static DataType parse(String text) {
        VariantSchemaText p = new VariantSchemaText(text);
        DataType t = p.type();
        if (p.at != text.length()) {
            throw new IllegalArgumentException("not a schema_of_variant text: " + text);
        }
        return t;
    }

    private DataType type() {
        if (take("ARRAY<")) {
            DataType element = type();
            expect(">");
            return DataType.array(element == null ? Types.VOID : element);
        }
        if (take("OBJECT<")) {
            List<Field> fields = new ArrayList<>();
            while (!take(">")) {
                if (!fields.isEmpty()) {
                    expect(", ");
                }
                String name = name();
                expect(": ");
                DataType t = type();
                fields.add(new Field(name, t == null ? Types.VOID : t, true));
            }
            return DataType.struct(new Schema(fields.isEmpty() ? List.of(new Field("", Types.VOID, true)) : fields));
        }
        int end = at;
        while (end < text.length() && text.charAt(end) != '>' && text.charAt(end) != ',') {
            end++;
        }
        if (text.startsWith("DECIMAL(", at)) {
            end = text.indexOf(')', at) + 1;
        }
        String name = text.substring(at, end);
        at = end;
        return switch (name) {
            case "VOID" -> null;
            case "VARIANT" -> Variants.TYPE;
            default -> Schema.parse("x " + name).field(0).type();
        };
    }

    private String name() {
        if (!take("`")) {
            int colon = text.indexOf(": ", at);
            String name = text.substring(at, colon);
            at = colon;
            return name;
        }
        StringBuilder sb = new StringBuilder();
        while (true) {
            char c = text.charAt(at++);
            if (c == '`' && !take("`")) {
                return sb.toString();
            }
            sb.append(c);
        }
    }

    private boolean take(String s) {
        if (text.startsWith(s, at)) {
            at += s.length();
            return true;
        }
        return false;
    }

    private void expect(String s) {
        if (!take(s)) {
            throw new IllegalArgumentException("not a schema_of_variant text at " + at + ": " + text);
        }
    }
}
