package io.tributary.expressions;

import io.tributary.schema.BadRecordException;
import io.tributary.schema.TributaryException;
import java.util.List;

/**
 * The expression engine's user-facing errors, one method per problem: what is wrong, in which
 * expression and where, and how to fix it. Refusals at start are {@link TributaryException}s; a row
 * Spark's ANSI mode fails on is an {@link ExpressionException}.
 */
public final class ExpressionErrors {
    private ExpressionErrors() {
    }

    /** An expression as a message shows it: on one line, each line break a space (so that a position still points into it). */
    private static String shown(String expression) {
        return expression.replace('\n', ' ').replace('\r', ' ').replace('\t', ' ');
    }

    private static TributaryException at(String expression, int position, String problem) {
        return new TributaryException("expression \"" + shown(expression) + "\" at position " + position + ": " + shown(problem));
    }

    public static TributaryException syntax(String expression, int line, int column, String near, String detail) {
        return new TributaryException("expression \"" + shown(expression) + "\" does not parse: at line " + line + ", position " + column
                + " near " + near + " (" + detail + "); write it as Spark SQL, e.g. \"amt > 0 AND lower(user) = 'a'\"");
    }

    public static TributaryException badType(String expression, int position, String type, String reason) {
        return at(expression, position, "the type " + type + " is not one Tributary knows: " + reason);
    }

    public static TributaryException unsupported(String expression, int position, String what) {
        return at(expression, position, what + " is not supported yet; see docs/transform.md for what is");
    }

    /** Spark's refusal of a distinct aggregate ({@code count(DISTINCT user)}) in a streaming aggregation. */
    public static TributaryException distinctAggregate(String expression, int position, String call) {
        return at(expression, position, call + ": distinct aggregations are not supported on streaming DataFrames/Datasets, as Spark"
                + " refuses them (_LEGACY_ERROR_TEMP_3102); count distinct values with size(collect_set(...)), e.g. size(collect_set(user))");
    }

    /** Spark's refusal of listagg(DISTINCT x) WITHIN GROUP (ORDER BY ...) by another expression than x, at analysis. */
    public static TributaryException distinctOrderedOtherwise(String expression, int position, String call) {
        return at(expression, position, call + " orders DISTINCT values by another expression than the values, which Spark refuses"
                + " (INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT); order by the values themselves");
    }

    /** A HAVING aggregate the select list does not make, over an expression: only one over a column or * is computed on its own. */
    public static TributaryException havingAggregateOfExpression(String expression, int position, String call) {
        return at(expression, position, "the aggregate " + call + " is not in the select list; HAVING and the select list's expressions"
                + " add an aggregate of their own only over a column or *: select it with a name (" + call + " AS x) and read x");
    }

    /** Spark's UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS: a generator inside another expression. */
    public static TributaryException generatorNested(String expression, int position, String generator, String outer) {
        String name = generator.substring(0, Math.max(0, generator.indexOf('('))).strip().toLowerCase(java.util.Locale.ROOT);
        if (name.startsWith("variant_explode")) { // a table function, which Spark 4.2 finds as no scalar function
            return notScalarFunction(expression, position, name);
        }
        return at(expression, position, "[UNSUPPORTED_GENERATOR.NESTED_IN_EXPRESSIONS] the generator " + generator + " is nested in the"
                + " expression \"" + outer + "\"; a generator must be a select item of its own (explode(tags) AS tag), its columns used"
                + " by a LATERAL VIEW of a sql: query");
    }

    /** Spark's NOT_A_SCALAR_FUNCTION: a table function (variant_explode) as a select item. */
    public static TributaryException notScalarFunction(String expression, int position, String name) {
        return at(expression, position, "[NOT_A_SCALAR_FUNCTION] " + name + " is a table function, not a select item: join it to the"
                + " rows in a sql: query, FROM source, LATERAL " + name + "(v) e, and select e.key, to_json(e.value)");
    }

    /** Spark's ROUTINE_NOT_FOUND: a table function (variant_explode) as a LATERAL VIEW's generator, which Spark does not find. */
    public static TributaryException notAGenerator(String expression, int position, String name) {
        return at(expression, position, "[ROUTINE_NOT_FOUND] " + name + " is no generator of a LATERAL VIEW in Spark 4.2 but a table"
                + " function: write FROM source, LATERAL " + name + "(v) e in a sql: query");
    }

    /** Spark's NUM_TABLE_VALUE_ALIASES_MISMATCH: a table function's column list ({@code t(a, b)}) is not as long as its columns. */
    public static TributaryException tableFunctionAliases(String expression, int position, String function, List<String> columns,
            List<String> aliases) {
        return at(expression, position, "[NUM_TABLE_VALUE_ALIASES_MISMATCH] " + function + " makes " + columns.size() + " column"
                + (columns.size() == 1 ? "" : "s") + " (" + String.join(", ", columns) + ") but its alias names " + aliases.size()
                + " (" + String.join(", ", aliases) + "); name each: t(" + String.join(", ", columns) + ")");
    }

    /**
     * A table function of FROM after a comma or JOIN without LATERAL whose arguments read the row: Spark resolves them without
     * the FROM's other items, UNRESOLVED_COLUMN.
     */
    public static TributaryException tableFunctionNotLateral(String expression, int position, String call) {
        return at(expression, position, "[UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] " + call + " reads the row's columns, which a table"
                + " function of FROM sees only after LATERAL: write FROM source, LATERAL " + call + " t");
    }

    /** A table function of Spark's that is no generator (range, collations, sql_keywords): rows of its own, not of each row. */
    public static TributaryException tableFunctionNotGenerator(String expression, int position, String name) {
        String instead = name.equals("range") ? "for n rows per row, explode a sequence: FROM source, LATERAL explode(sequence(0L,"
                + " n - 1)) r(id)" : "a table function of a query is one of Spark's generators: explode, explode_outer, posexplode,"
                + " posexplode_outer, inline, inline_outer, stack, json_tuple, variant_explode, variant_explode_outer";
        return at(expression, position, "the table function " + name + " makes rows of its own, not of each row of the stream, and a"
                + " pipeline does not run it; " + instead);
    }

    /**
     * Spark's UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_CORRELATED_REFERENCE_DATA_TYPE: a table function joined with ON
     * over a MAP (or VARIANT) column of the row, which Spark's decorrelation of the join does not take.
     */
    public static TributaryException lateralOnUnordered(String expression, int position, String call, String column) {
        return at(expression, position, "[UNSUPPORTED_SUBQUERY_EXPRESSION_CATEGORY.UNSUPPORTED_CORRELATED_REFERENCE_DATA_TYPE] "
                + call + " is joined with ON over the column " + column + ", a MAP or VARIANT, which Spark does not join so; join it"
                + " without ON and filter in WHERE: FROM source s, LATERAL " + call + " t WHERE ...");
    }

    /** Spark's NOT_A_TABLE_FUNCTION: a scalar function where FROM takes a table function. */
    public static TributaryException notTableFunction(String expression, int position, String name) {
        return at(expression, position, "[NOT_A_TABLE_FUNCTION] " + name + " is a scalar function, not a table function of FROM: call"
                + " it in the select list or WHERE, or join a generator (FROM source, LATERAL explode(...) t)");
    }

    /** Spark's UNSUPPORTED_GENERATOR.OUTSIDE_SELECT: a generator in WHERE (or another clause than the select list). */
    public static TributaryException generatorOutsideSelect(String expression, int position, String generator) {
        return at(expression, position, "[UNSUPPORTED_GENERATOR.OUTSIDE_SELECT] the generator " + generator + " is outside the SELECT"
                + " clause; filter on its column with a sql: query's LATERAL VIEW (FROM source LATERAL VIEW explode(tags) t AS tag WHERE"
                + " tag = 'x')");
    }

    /** Spark's UDTF_ALIAS_NUMBER_MISMATCH: a generator's aliases are not as many as its columns. */
    public static TributaryException generatorAliases(String expression, int position, String generator, List<String> columns,
            List<String> aliases) {
        return at(expression, position, "[UDTF_ALIAS_NUMBER_MISMATCH] " + generator + " makes " + columns.size() + " column"
                + (columns.size() == 1 ? "" : "s") + " (" + String.join(", ", columns) + ") but " + aliases.size() + " alias"
                + (aliases.size() == 1 ? " is" : "es are") + " given (" + String.join(", ", aliases) + "); name each: AS ("
                + String.join(", ", columns) + ")");
    }

    /** A lateral view's column named as a column of the row it joins: Spark reads the name alone as ambiguous. */
    public static TributaryException lateralColumnTaken(String view, String name) {
        return new TributaryException("lateral view \"" + shown(view) + "\" makes a column '" + name + "', and the row has a column '"
                + name + "' already; name the view's columns otherwise: AS " + name + "_2");
    }

    public static TributaryException badLiteral(String expression, int position, String literal, String kind) {
        return at(expression, position, literal + " is not a valid " + kind + " literal");
    }

    public static TributaryException unknownColumn(String expression, int position, String name, List<String> columns) {
        return at(expression, position, "no column '" + name + "'; the input has " + String.join(", ", columns)
                + " (names match case-insensitively; quote a name with backticks: `my col`)");
    }

    public static TributaryException unknownField(String expression, int position, String name, String struct, List<String> fields) {
        return at(expression, position, "'" + struct + "' has no field '" + name + "'; its fields are " + String.join(", ", fields));
    }

    /** {@code s.a} of a struct that names {@code a} twice, as {@code from_csv('1,2', 'a INT, a INT')} gives one. */
    public static TributaryException ambiguousField(String expression, int position, String name, String struct, int count) {
        return at(expression, position, "[AMBIGUOUS_REFERENCE_TO_FIELDS] '" + struct + "' has " + count + " fields named '" + name
                + "', and a reference to one is ambiguous; give the fields different names in the schema");
    }

    public static TributaryException noFileMetadata(String expression, int position, String what) {
        return at(expression, position, what + " tells of the file a row was read from, and only a file source (source.path) reads"
                + " files: this source (a Kafka topic or a Delta table) has no " + what
                + ", as in Spark (docs/transform.md, The file's metadata)");
    }

    public static TributaryException unknownFunction(String expression, int position, String name) {
        return at(expression, position, "unknown function '" + name + "'; docs/transform.md lists the functions Tributary runs as Spark does");
    }

    /** {@code current_timestamp()} or a cousin where no batch runs the expression (a join's condition, a generator, a CHECK constraint). */
    public static TributaryException noBatchTime(String expression, int position, String call) {
        return at(expression, position, "'" + call + "' gives the start of the batch that runs it, which only a transform's where and "
                + "select items (and sql:'s) have; compute it in select and use that column");
    }

    public static TributaryException wrongArity(String expression, int position, String name, String expected, int got, String signature) {
        return at(expression, position, name + " takes " + expected + " argument(s), not " + got + ": " + signature);
    }

    public static TributaryException typeMismatch(String expression, int position, String fragment, String reason) {
        return at(expression, position, "'" + fragment + "': " + reason);
    }

    public static TributaryException notBoolean(String expression, String type) {
        return new TributaryException("expression \"" + shown(expression) + "\" is " + type + ", and a filter needs a BOOLEAN; compare it, e.g. \""
                + shown(expression) + " > 0\"");
    }

    public static TributaryException voidColumn(String expression) {
        return new TributaryException("select item \"" + shown(expression) + "\" is always NULL and has no type; give it one: CAST(NULL AS STRING) AS name");
    }

    public static TributaryException voidInsideColumn(String expression, String type) {
        return new TributaryException("select item \"" + shown(expression) + "\" is " + type + ", and a Delta table holds no VOID inside"
                + " an array, a map or a struct (Spark fails an array's or a map's write with DELTA_COMPLEX_TYPE_COLUMN_CONTAINS_NULL_TYPE);"
                + " cast it: CAST(array() AS ARRAY<INT>), array(CAST(NULL AS INT)), struct(1, CAST(NULL AS INT))");
    }

    /** A select item whose struct names a field twice ({@code from_csv(raw, 'a INT, a INT')}), which no Delta table holds. */
    public static TributaryException repeatedFieldColumn(String expression, String type) {
        return new TributaryException("select item \"" + shown(expression) + "\" is " + type + ", a struct that names a field twice, which"
                + " no Delta table holds (Spark fails the write with DELTA_DUPLICATE_COLUMNS_FOUND.DATA); give the fields different names in"
                + " the schema");
    }

    public static TributaryException intervalColumn(String expression, String type) {
        return new TributaryException("select item \"" + shown(expression) + "\" is of type " + type + ", which a table cannot hold (Spark"
                + " refuses to write an interval to a Delta table too); add it to a timestamp (ts + INTERVAL 1 HOUR), compare it"
                + " (end - start > INTERVAL 30 MINUTES), write its text (CAST(... AS STRING)), or give seconds: unix_timestamp(end) - unix_timestamp(start)");
    }

    /** Where Spark 4.2 refuses a TIME by default ({@code spark.sql.timeType.enabled} false): UNSUPPORTED_TIME_TYPE. */
    public static TributaryException unsupportedTime(String expression, int position, String fragment, String what) {
        return at(expression, position, "'" + fragment + "': " + what + ", which Spark 4.2 refuses with UNSUPPORTED_TIME_TYPE"
                + " (spark.sql.timeType.enabled is false by default); a TIME literal or current_time() can be compared, cast to"
                + " STRING, BIGINT or DECIMAL, and joined to a date with make_timestamp(date, time)");
    }

    public static TributaryException timeColumn(String expression, String type) {
        return new TributaryException("select item \"" + shown(expression) + "\" is " + type + ", which Spark 4.2 does not return"
                + " (UNSUPPORTED_TIME_TYPE: spark.sql.timeType.enabled is false by default) nor writes to a Delta table"
                + " (UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE); write its text,"
                + " CAST(t AS STRING), its seconds since midnight, CAST(t AS DECIMAL(11,6)), or a timestamp, make_timestamp(d, t)");
    }

    public static TributaryException duplicateColumn(String name, String items) {
        return new TributaryException("the select list " + shown(items) + " makes column '" + name + "' twice, which a Delta table cannot hold"
                + " (Spark's write fails: DELTA_DUPLICATE_COLUMNS_FOUND.DATA); give one of them another name with AS");
    }

    public static TributaryException starOfUnknown(String item) {
        return new TributaryException("select item \"" + item + "\" names no struct column or table; use \"*\" for every input column");
    }

    /** A refusal at start, prefixed with the setting it was written in. */
    public static TributaryException inSetting(String key, TributaryException cause) {
        return new TributaryException(key + ": " + cause.getMessage(), cause);
    }

    /** A row Spark's ANSI mode fails on: {@code condition} is Spark's error class, e.g. CAST_INVALID_INPUT. */
    public static ExpressionException failed(String expression, String condition, String reason) {
        return new ExpressionException(expression, condition, reason);
    }

    /** A row that breaks a table's CHECK constraint {@code name}: a bad record named by the constraint. */
    public static BadRecordException constraintViolated(String name, String expression, String why, String values) {
        return new BadRecordException(name, "violates CHECK constraint " + name + " (" + expression + "): the expression " + why
                + (values.isEmpty() ? "" : " for " + values));
    }

    /** A VARIANT field holding JSON text (Debezium's io.debezium.data.Json) whose text parse_json fails on. */
    static BadRecordException jsonTextNotVariant(String field, String condition, String reason) {
        return new BadRecordException(field, condition + ": " + reason + "; parse_json of the field fails on it, as in Spark");
    }

    /** A JSON input's VARIANT field whose object has a key twice: Spark's JSON reader makes no variant of it either. */
    static BadRecordException variantDuplicateKey(String field, String key) {
        return new BadRecordException(field, "VARIANT_DUPLICATE_KEY: the key '" + key + "' is written twice in one JSON object, which "
                + "makes no VARIANT (as in Spark, whose spark.sql.variant.allowDuplicateKeys is false)");
    }

    /** A JSON input's VARIANT field that spark-variant cannot encode. */
    static BadRecordException variantNotBuilt(String field, String message) {
        return new BadRecordException(field, "cannot be made a VARIANT (" + message + "): a string with an unpaired UTF-16 surrogate, "
                + "or a value past spark-variant's size limit of 128 MiB, makes none, as in Spark");
    }

    public static TributaryException unknownJoinType(String text) {
        return new TributaryException("unknown join type '" + text + "'; use one of inner, left, left_semi, left_anti"
                + " (Spark's stream-static joins; full, right and cross are not)");
    }

    public static TributaryException joinNeedsAlias() {
        return new TributaryException("a join needs an alias ('as'), the name its columns are qualified by in 'on', where and select");
    }

    public static TributaryException aliasIsAColumn(String alias) {
        return new TributaryException("the join alias '" + alias + "' is already a column of the stream; choose another");
    }

    public static TributaryException joinNeedsOn(String alias) {
        return new TributaryException("a join needs 'on', a boolean Spark SQL expression, e.g. \"user = " + alias + ".user\"");
    }

    /** A join table above the rows a stream-static join holds in memory. */
    public static TributaryException joinTableTooBig(String alias, long rows, long maxRows) {
        return new TributaryException("the join table '" + alias + "' has " + rows + " rows, more than the " + maxRows
                + " a stream-static join holds in memory (transform.joinMaxRows); raise it or filter the table");
    }

    /** A {@code sql:} query that does not parse: where, near what, and the shape a query takes. */
    public static TributaryException sqlSyntax(int line, int column, String near, String detail) {
        return new TributaryException("the query does not parse at line " + line + ", column " + column + " near " + near + " (" + detail
                + "); write it as Spark SQL: SELECT items FROM source [AS s] [[LEFT] JOIN delta.`path` [AS] u ON condition] [WHERE condition]");
    }

    /** A construct of a {@code sql:} query that has no counterpart in the transform, at its place in the query, with what to do instead. */
    public static TributaryException sqlUnsupported(String construct, int line, int column, String instead) {
        return new TributaryException(construct + " at line " + line + ", column " + column + " of the query is not supported: " + instead);
    }

    /** A {@code transform.withColumns} entry without an expression. */
    static TributaryException noStepExpression() {
        return new TributaryException("no expression; write one, e.g. \"lower(trim(user))\"");
    }

    /** A {@code transform.withColumns} expression that reads the file's facts, which only where and select read. */
    static TributaryException fileFactsInStep() {
        return new TributaryException("the file's facts (" + FileMetadata.COLUMN + ", " + FileMetadata.FILE_URI + ") are read in where and"
                + " select only; select them there, e.g. \"*\", \"" + FileMetadata.COLUMN + ".file_path AS file\", and use that column here");
    }

    /** A {@code transform.withColumnsRenamed} entry without a new name. */
    static TributaryException noNewName() {
        return new TributaryException("no new name; write one");
    }

    /** A {@code transform.drop} that leaves no column. */
    static TributaryException dropsEveryColumn(List<String> names) {
        return new TributaryException("drops every column (" + String.join(", ", names) + "); a table needs at least one");
    }

    /** Spark's COLUMN_ALREADY_EXISTS, as its withColumns and withColumnsRenamed refuse a name given twice. */
    static TributaryException columnAlreadyExists(String name) {
        return new TributaryException("[COLUMN_ALREADY_EXISTS] the column `" + name + "` already exists; give it another name");
    }

    /** Spark's HLL_UNION_DIFFERENT_LG_K: a union of sketches of different lgConfigK that was not allowed. */
    static ExpressionException hllDifferentLgK(String function, int left, int right) {
        return new ExpressionException(function, "HLL_UNION_DIFFERENT_LG_K", "Sketches have different `lgConfigK` values: " + left + " and "
                + right + ". Set the `allowDifferentLgConfigK` parameter to true to call " + function + " with different `lgConfigK` values.");
    }

    /** Spark's HLL_INVALID_INPUT_SKETCH_BUFFER: bytes that are no HyperLogLog sketch. */
    static ExpressionException hllInvalidBuffer(String function) {
        return new ExpressionException(function, "HLL_INVALID_INPUT_SKETCH_BUFFER", "Invalid call to " + function + "; only valid HLL sketch "
                + "buffers are supported as inputs (such as those produced by the `hll_sketch_agg` function).");
    }

    /** Spark's THETA_INVALID_INPUT_SKETCH_BUFFER: bytes that are no Theta sketch. */
    static ExpressionException thetaInvalidBuffer(String function) {
        return new ExpressionException(function, "THETA_INVALID_INPUT_SKETCH_BUFFER", "Invalid call to " + function + "; only valid Theta "
                + "sketch buffers are supported as inputs (such as those produced by the `theta_sketch_agg` function).");
    }

    /** Spark's THETA_INVALID_INPUT_SKETCH_BUFFER_FAMILY: a DataSketches sketch of another family than the compact Theta one. */
    static ExpressionException thetaInvalidFamily(String function, String actual) {
        return new ExpressionException(function, "THETA_INVALID_INPUT_SKETCH_BUFFER_FAMILY", "Invalid call to " + function + ": expected COMPACT"
                + " sketch family but received " + actual + ". Only valid Theta sketch buffers (produced by `theta_sketch_agg`) are supported as inputs.");
    }

    /** Spark's SKETCH_INVALID_LG_NOM_ENTRIES: a Theta sketch's lgNomEntries out of 4 to 26. */
    static ExpressionException sketchInvalidLgNomEntries(String function, int min, int max, int value) {
        return new ExpressionException(function, "SKETCH_INVALID_LG_NOM_ENTRIES", "Invalid call to " + function + "; the `lgNomEntries` value must"
                + " be between " + min + " and " + max + ", inclusive: " + value + ".");
    }

    /** Spark's KLL_INVALID_INPUT_SKETCH_BUFFER: bytes that are no KLL sketch of the function's kind. */
    static ExpressionException kllInvalidBuffer(String function) {
        return new ExpressionException(function, "KLL_INVALID_INPUT_SKETCH_BUFFER", "Invalid call to " + function + "; only valid KLL sketch "
                + "buffers are supported as inputs (such as those produced by the `kll_sketch_agg` function).");
    }

    /** Spark's KLL_SKETCH_INVALID_QUANTILE_RANGE: a normalized rank outside 0 to 1. */
    static ExpressionException kllQuantileRange(String function) {
        return new ExpressionException(function, "KLL_SKETCH_INVALID_QUANTILE_RANGE", "For function " + function
                + ", the quantile value must be between 0.0 and 1.0 (inclusive).");
    }

    /** Spark's TUPLE_INVALID_INPUT_SKETCH_BUFFER: bytes that are no tuple sketch. */
    static ExpressionException tupleInvalidBuffer(String function) {
        return new ExpressionException(function, "TUPLE_INVALID_INPUT_SKETCH_BUFFER", "Invalid call to `" + function + "`; only valid Tuple"
                + " sketch buffers are supported as inputs (such as those produced by the corresponding `tuple_sketch_agg_*` function).");
    }

    /** Spark's TUPLE_INVALID_INPUT_SKETCH_BUFFER_FAMILY: a DataSketches sketch of another family than the tuple one. */
    static ExpressionException tupleInvalidFamily(String function, String actual) {
        return new ExpressionException(function, "TUPLE_INVALID_INPUT_SKETCH_BUFFER_FAMILY", "Invalid call to `" + function + "`: expected"
                + " TUPLE sketch family but received " + actual + ". Only valid Tuple sketch buffers (produced by `tuple_sketch_agg_*`"
                + " functions) are supported as inputs.");
    }

    /** Spark's TUPLE_INVALID_SKETCH_MODE: a summary mode other than sum, min, max and alwaysone. */
    static ExpressionException tupleInvalidMode(String function, String mode) {
        return new ExpressionException(function, "TUPLE_INVALID_SKETCH_MODE", "Invalid call to `" + function + "`: mode '" + mode
                + "' is not supported. Valid modes are: sum, min, max, alwaysone.");
    }
}
