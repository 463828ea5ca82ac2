package io.tributary.expressions.internal;

import io.tributary.schema.DataType.Kind;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.util.Locale;

/** The schema argument of {@code from_csv} and {@code from_xml}: a constant DDL text, {@code 'a INT, b STRING'} or {@code 'STRUCT<...>'}. */
final class SchemaArgument {
    private SchemaArgument() {
    }

    /** The schema {@code ddlArg} gives, refused with Spark's {@code INVALID_SCHEMA} conditions as {@code function}'s argument. */
    static Schema parse(Analyzer.Call call, Bound ddlArg, String function) {
        return parse(call, ddlArg, function, false);
    }

    /** The schema argument's text, {@code variants} whether its fields may be VARIANT. */
    static Schema parse(Analyzer.Call call, Bound ddlArg, String function, boolean variants) {
        if (!Bound.constant(ddlArg) || ddlArg.type() == null || !Types.is(ddlArg.type(), Kind.STRING)) {
            throw call.typeError("[INVALID_SCHEMA.NON_STRING_LITERAL] the schema of " + function + " must be a text literal in DDL,"
                    + " 'a INT, b STRING', and '" + ddlArg.text() + "' is not one");
        }
        Object value = Interpreter.eval(ddlArg, new Object[0]);
        if (value == null) {
            throw call.typeError("[INVALID_SCHEMA.NON_STRING_LITERAL] the schema of " + function + " must not be null");
        }
        String ddl = ((String) value).strip();
        if (ddl.toUpperCase(Locale.ROOT).startsWith("STRUCT<") && ddl.endsWith(">")) {
            ddl = ddl.substring("STRUCT<".length(), ddl.length() - 1);
        }
        Schema schema;
        try {
            schema = Schema.parseWithRepeatedNames(ddl, variants); // Spark's STRUCT<a: INT, a: INT> of 'a INT, a INT'
        } catch (TributaryException e) {
            throw call.typeError("[INVALID_SCHEMA.PARSE_ERROR] the schema '" + value + "' is not a DDL schema: " + e.getMessage());
        }
        return schema;
    }
}
