package io.tributary.topology.internal;

import io.tributary.schema.TributaryException;

/** The refusals of listagg and string_agg at start, in Spark's terms. */
public final class ListAggErrors {
    private ListAggErrors() {
    }

    /** When the values are of a type Spark neither joins nor casts to STRING (Spark's DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE). */
    public static TributaryException notStringOrBinary(String key, String expression, String ddl, String sqlName) {
        return new TributaryException(key + ": " + sqlName + " joins STRING or BINARY values (and casts a primitive type to STRING),"
                + " and " + expression + " reads " + ddl + " values (Spark: DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE); join them with to_json(x)"
                + " or array_join(x, ',') in the select list");
    }

    /** When the delimiter reads a column (Spark's DATATYPE_MISMATCH.NON_FOLDABLE_INPUT). */
    public static TributaryException delimiterNotConstant(String key, String expression, String argument) {
        return new TributaryException(key + ": the delimiter " + argument + " of " + expression + " must be a constant, as Spark "
                + "requires (DATATYPE_MISMATCH.NON_FOLDABLE_INPUT); write it as text such as ', '");
    }

    /** When one of the delimiter and the values is BINARY and the other is not (Spark's DATATYPE_MISMATCH.DATA_DIFF_TYPES). */
    public static TributaryException delimiterType(String key, String expression, String argument, String ddl) {
        return new TributaryException(key + ": the delimiter " + argument + " of " + expression + " must be a " + ddl + " as the values"
                + " are (Spark: DATATYPE_MISMATCH.DATA_DIFF_TYPES); write ',' for STRING values, X'2C' for BINARY ones");
    }
}
