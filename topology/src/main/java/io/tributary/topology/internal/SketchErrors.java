package io.tributary.topology.internal;

import io.tributary.expressions.ExpressionException;
import io.tributary.schema.TributaryException;

/** The refusals and failures of the sketch aggregates (hll_sketch_agg, hll_union_agg, the theta_, kll_ and tuple_ ones), each naming the setting. */
final class SketchErrors {
    private SketchErrors() {
    }

    /** When the sketch aggregate reads a column of a type Spark does not sketch. */
    static TributaryException notSketchable(String key, String expression, String ddl, String sqlName, String types) {
        return new TributaryException(key + ": " + expression + " reads a " + ddl + " column; " + sqlName + " takes " + types
                + " (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE); cast the column in the source schema or a transform");
    }

    /** When the second argument is not a constant of the type Spark requires. */
    static TributaryException notConstant(String key, String expression, String sqlName, String text, String what) {
        return new TributaryException(key + ": " + expression + ": " + sqlName + "'s second argument must be " + what + ", not '" + text
                + "'" + (sqlName.equals("hll_sketch_agg") ? " (Spark's HLL_K_MUST_BE_CONSTANT)" : ""));
    }

    /** When hll_sketch_agg's lgConfigK is outside 4 to 21 (Spark's HLL_INVALID_LG_K, at the first row; here at start). */
    static TributaryException invalidLgK(String key, String expression, String reason) {
        return new TributaryException(key + ": " + expression + ": " + reason + " Write a lgConfigK from 4 to 21 (12 by default)");
    }

    /** When theta_sketch_agg's or theta_union_agg's lgNomEntries is outside 4 to 26 (Spark's SKETCH_INVALID_LG_NOM_ENTRIES; here at start). */
    static TributaryException invalidLgNom(String key, String expression, String reason) {
        return new TributaryException(key + ": " + expression + ": " + reason + " Write a lgNomEntries from 4 to 26 (12 by default)");
    }

    /** When a group's sketches in a batch are all null: Spark's intersection has no result and fails the batch (SketchesStateException). */
    static TributaryException noIntersection(String name, String expression) {
        return new TributaryException("aggregate.select." + name + ": " + expression + " fails: a group's sketches in one batch are all null,"
                + " and an intersection of no sketch has no result (Spark fails the batch so too); filter the null sketches out");
    }

    /** When a group's sketches fail as Spark fails the query (bytes that are no sketch, sketches of different lgConfigK). */
    static TributaryException failed(String name, String expression, ExpressionException e) {
        return new TributaryException("aggregate.select." + name + ": " + expression + " fails: [" + e.condition() + "] " + e.reason());
    }

    /** When a kll_ aggregate's k is outside 8 to 65535 (Spark's KLL_SKETCH_K_OUT_OF_RANGE, at the first row; here at start). */
    static TributaryException invalidK(String key, String expression, String reason) {
        return new TributaryException(key + ": " + expression + ": " + reason + " Write a k from 8 to 65535 (200 by default)");
    }

    /** When a tuple sketch aggregate is not written with its columns first and at most its constants after them. */
    static TributaryException tupleArguments(String key, String expression, String sqlName, String forms) {
        return new TributaryException(key + ": " + expression + ": " + sqlName + " is not written as Spark takes it (Spark's"
                + " WRONG_NUM_ARGS); write one of " + forms);
    }

    /** When a tuple sketch aggregate's mode is none of Spark's (TUPLE_INVALID_SKETCH_MODE, at analysis in Spark as here). */
    static TributaryException invalidMode(String key, String expression, String reason) {
        return new TributaryException(key + ": " + expression + ": " + reason + " Write 'sum' (the default), 'min', 'max' or 'alwaysone'");
    }
}
