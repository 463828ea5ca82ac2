package io.tributary.service.spec.internal;

import io.tributary.schema.TributaryException;
import java.nio.file.Path;
import java.util.Collection;

/**
 * The errors of a pipeline spec: its file, its YAML, its keys and their values, each naming where
 * it was given (the spec's line, the environment variable or the {@code --set} option) and the fix.
 */
public final class SpecErrors {
    private SpecErrors() {
    }

    /** When the spec file does not exist. */
    public static TributaryException noSuchSpec(String specName) {
        return new TributaryException("spec " + specName + ": no such file");
    }

    /** When the spec file cannot be read. */
    public static TributaryException cannotReadSpec(String specName, String message) {
        return new TributaryException("spec " + specName + ": cannot be read: " + message);
    }

    /** When a TRIBUTARY_ environment variable names no key; {@code closest} is the likely one meant, or null. */
    public static TributaryException unknownVariable(String name, String closest, Collection<String> launcherVariables) {
        return new TributaryException("environment variable " + name + " names no key"
                + (closest == null ? "" : " (did you mean " + closest + "?)")
                + "; fix its name or unset it: a TRIBUTARY_ variable is TRIBUTARY_ + a key of docs/configuration.md,"
                + " upper-cased, dots as underscores (" + String.join(", ", launcherVariables)
                + " are the launcher's and test tools' own)");
    }

    /** When the spec gives a key that is not one; {@code closest} is the likely one meant, or null. */
    public static TributaryException unknownKey(String where, String key, String closest) {
        return new TributaryException(where + ": unknown key '" + key + "'"
                + (closest == null ? "" : " (did you mean '" + closest + "'?)")
                + "; the keys are listed in docs/configuration.md");
    }

    /** When a required key is not given. */
    public static TributaryException missingKey(Path specFile, String key, String doc) {
        return new TributaryException("spec " + specFile + ": missing required key '" + key + "' (" + doc + ")");
    }

    /** When the spec gives no source, or more than one; {@code several} tells which. */
    public static TributaryException notOneSource(Path specFile, boolean several) {
        return new TributaryException("spec " + specFile + ": " + (several ? "two sources" : "no source")
                + "; give exactly one of source.files (a folder of files: its path, and its schema unless inferred),"
                + " source.delta (a table's path) or source.kafka (a topic's name and its schema)");
    }

    /** When schema hints are given with a schema. */
    public static TributaryException hintsWithSchema(String where, String key) {
        return new TributaryException(where + ": key '" + key + "' types columns of an"
                + " inferred schema, but source.files.schema is given; put the types in source.files.schema, or leave it out");
    }

    /** When closeIdleWindowsAfter is given for a Delta source. */
    public static TributaryException closeIdleWithDeltaSource(String where, String key) {
        return new TributaryException(where + ": key '" + key + "' closes windows when no new file or record comes; it is for"
                + " source.files and source.kafka only, and a Delta source does not take it: remove it (the windows then close as"
                + " Spark's do, when later events move the watermark)");
    }

    /** When closeIdleWindowsAfter is given for a Kafka source whose dropDuplicates (before the aggregation) keeps no watermark. */
    public static TributaryException closeIdleWithoutDedupWatermark(String where, String key, String eventTime, String watermark,
                                                                    String within) {
        return new TributaryException(where + ": key '" + key + "' moves the watermark of a quiet Kafka source, which the"
                + " deduplication before the aggregation keeps, but transform.dropDuplicates has no watermark: give '" + eventTime
                + "' and '" + watermark + "' (or '" + within + "'), or remove '" + key + "'");
    }

    /** When schemaEvolution is addNewColumns, {@code given} or by default, without sink.delta.mergeSchema. */
    public static TributaryException addNewColumnsWithoutMergeSchema(String where, boolean given, String key) {
        return new TributaryException(where + ": schemaEvolution addNewColumns"
                + (given ? "" : " (the default when source.files.schema is left out, as in Auto Loader)")
                + " adds columns to the table: set sink.delta.mergeSchema: true too (Spark's Delta sink needs its mergeSchema"
                + " option for the same), or set " + key + ": none");
    }

    /** When the pipeline's name holds characters a topic or folder name cannot. */
    public static TributaryException badName(String where, String name) {
        return new TributaryException(where + ": name '" + name
                + "' may only hold letters, digits, '-' and '_' (it names topics and folders)");
    }

    /** When the instance id holds characters a group or txn id cannot, or is too long. */
    public static TributaryException badInstanceId(String where, String key, String id) {
        return new TributaryException(where + ": key '" + key + "' is '"
                + id + "'; it may only hold letters, digits, '.', '-' and '_' (at most 100):"
                + " it names the instance in Kafka's groups and in the table's txn ids");
    }

    /** When a folder key names a file. */
    public static TributaryException pathIsAFile(String where, String key, Path path) {
        return new TributaryException(where + ": key '" + key + "' names " + path + ", which is a file, not a folder;"
                + " give a folder's path (or move the file away)");
    }

    /** When a key's value is bad: {@code cause}'s message, led by where the value was given. */
    public static TributaryException badValue(String where, TributaryException cause) {
        return new TributaryException(where + ": " + cause.getMessage(), cause);
    }

    /** When default.api.timeout.ms is below request.timeout.ms; {@code given} is the latter as set, null when Kafka's default. */
    public static TributaryException apiTimeoutBelowRequestTimeout(String apiKey, long api, String apiWhere, String requestKey,
                                                                   Long given, long request, String requestWhere) {
        return new TributaryException(apiWhere + ": key '" + apiKey + "' is " + api + ", below '" + requestKey
                + "' (" + (given == null ? "Kafka's default, " + request : request + ", " + requestWhere) + "); Kafka's"
                + " clients need default.api.timeout.ms >= request.timeout.ms: raise " + apiKey + " to at least " + request
                + (given == null ? " or set " : " or lower ") + requestKey);
    }

    /** When the trigger is not one of Spark's. */
    public static TributaryException unknownTrigger(String text) {
        return new TributaryException("trigger '" + text + "' is not one of availableNow, once, processingTime=<interval> (e.g."
                + " processingTime=1 minute), or absent for back-to-back batches");
    }

    /** When the spec holds no key. */
    public static TributaryException emptySpec(String file) {
        return new TributaryException("spec " + file + ": the spec is empty; give at least name, source and sink.delta.path "
                + "(the README's quick start has a whole spec)");
    }

    /** When the spec's document is not a mapping; {@code at} is the spec and line. */
    public static TributaryException notAMapping(String at) {
        return new TributaryException(at + ": expected a YAML mapping of keys (name:, source:, sink:, ...)");
    }

    /** When the spec holds a second YAML document; {@code at} is the spec and line where it starts. */
    public static TributaryException secondDocument(String at) {
        return new TributaryException(at + ": a second YAML document starts here; a spec is one document: remove the '---' "
                + "and merge the two, or split them into two specs");
    }

    /** When a list holds a list or mapping; {@code at} is the spec and line. */
    public static TributaryException nestedList(String at, String key) {
        return new TributaryException(at + ": key '" + key + "' holds a nested list or mapping; give a list of values, e.g. "
                + "[user, day]");
    }

    /** When a key is given twice. */
    public static TributaryException givenTwice(String file, String key, int first, int second) {
        return new TributaryException("spec " + file + ": key '" + key + "' is given twice, at line " + first + " and line "
                + second + "; keep one of them");
    }

    /** When the parser finds the YAML not valid, saying {@code what}; {@code where} is the spec, and its line if known. */
    public static TributaryException notValidYaml(String where, String what) {
        return new TributaryException(where + ": not valid YAML: " + what);
    }

    /** When the YAML is indented with a tab; {@code place} is the spec, line and column. */
    public static TributaryException tab(String place) {
        return new TributaryException(place + ": a tab; YAML indents with spaces only: replace the tab with spaces");
    }

    /** When a quote is never closed; {@code place} is where it opens. */
    public static TributaryException unclosedQuote(String place, String problem) {
        return new TributaryException(place + ": a quote that is never closed (" + problem + "); close the quote where the value "
                + "ends");
    }

    /** When a mapping's keys do not start in one column; {@code because} is the parser's problem. */
    public static TributaryException keysOutOfLine(String place, String because) {
        return new TributaryException(place + ": not valid YAML, check the indentation (" + because
                + "); the keys of one mapping start in the same column");
    }

    /** When a key is indented under a value; {@code because} is the parser's problem. */
    public static TributaryException keyUnderValue(String place, String because) {
        return new TributaryException(place + ": not valid YAML, check the indentation (" + because
                + "); a key is indented under a value: move it in line with the keys beside it, or quote a value that holds "
                + "': '");
    }

    /** When the YAML is not valid otherwise; {@code because} is the parser's problem. */
    public static TributaryException badYaml(String place, String because) {
        return new TributaryException(place + ": not valid YAML (" + because + "); fix the YAML there");
    }

    /** When a Kafka source's topics list is empty. */
    public static TributaryException kafkaSourceNoTopics(String where, String key) {
        return new TributaryException(where + ": key '" + key + "' names no topic; give one or more (Spark's subscribe), or a"
                + " topicPattern");
    }

    /** When two settings of a Kafka source contradict each other: Spark takes one of them only. */
    public static TributaryException kafkaSourceContradiction(String where, String key, String otherKey, String why) {
        return new TributaryException(where + ": keys '" + key + "' and '" + otherKey + "' are both given; " + why);
    }

    /** When startingOffsets names a topic the source does not read. */
    public static TributaryException kafkaSourceOffsetsTopic(String where, String key, String topic, String subscribedKey,
                                                             Object subscribed) {
        return new TributaryException(where + ": key '" + key + "' gives offsets of topic " + topic + ", which " + subscribedKey
                + " (" + subscribed + ") does not read; name only topics the source reads");
    }

    /** When a Kafka source of JSON records has no schema. */
    public static TributaryException kafkaSourceSchema(String where, String topicsKey, String schemaKey) {
        return new TributaryException(where + ": " + topicsKey + " reads JSON records, but " + schemaKey + " is not given; give their"
                + " columns as a Spark DDL string, e.g. \"id INT, user STRING, amt DOUBLE, ts TIMESTAMP\" (a Kafka source infers them"
                + " for its sink only, not for an aggregation, dropDuplicates or debezium-json), or format: string or bytes");
    }

    /** When a Kafka source's format needs a setting that is not given. */
    public static TributaryException kafkaSourceNeeds(String where, String what, String keys) {
        return new TributaryException(where + ": " + what + " needs " + keys + "; give it (docs/configuration.md, Kafka topics)");
    }

    /** When a Kafka source is given with an aggregation. */
    /** When a spec gives both {@code sql:} and a key of the {@code transform:} block it replaces. */
    public static TributaryException sqlWithTransform(String where, String key, String sqlWhere) {
        return new TributaryException(where + ": key '" + key + "' and the query of sql (" + sqlWhere + ") both transform the rows;"
                + " write the transform once: as the query (its JOIN, WHERE and select list), or as the transform: block without sql");
    }

    /** When a spec's query groups rows and the aggregate: block gives what the GROUP BY gives too. */
    public static TributaryException sqlGroupByWithAggregateKey(String where, String key, String sqlWhere, String groupBy) {
        return new TributaryException(where + ": key '" + key + "' and the query of sql (" + sqlWhere + ", " + groupBy + ") both define the"
                + " aggregation; write it once: as the query's GROUP BY and select list (with aggregate.watermark and the block's other"
                + " keys), or as the aggregate: block over a query without GROUP BY");
    }

    /** When a spec's query groups rows by an event-time window and the watermark is not given. */
    public static TributaryException sqlGroupByNeedsWatermark(String sqlWhere, String groupBy, String watermarkKey) {
        return new TributaryException(sqlWhere + ": sql: the " + groupBy + " aggregates over event-time windows, which need a watermark,"
                + " and SQL has no clause for one; give it as a setting: " + watermarkKey + ": 10 minutes (Spark's withWatermark)");
    }

    public static TributaryException dropDuplicatesBeforeAggregateMode(String where, String key, String mode) {
        return new TributaryException(where + ": key '" + key + "' drops duplicates before the aggregation, whose outputMode is " + mode
                + ": a deduplication before an aggregation writes its windows in append mode only. Use outputMode: append, or land"
                + " the deduplicated rows in a table and aggregate that table (source.delta)");
    }

    public static TributaryException dropDuplicatesOtherWatermark(String where, String key, String aggregateKey, String value,
                                                                  String aggregateValue) {
        return new TributaryException(where + ": key '" + key + "' is " + value + ", but '" + aggregateKey + "' is " + aggregateValue
                + ": a deduplication before an aggregation shares its watermark (Spark's one withWatermark(eventTime, delay));"
                + " give both the same value, or leave the deduplication's out");
    }

    public static TributaryException dropDuplicatesApartFromGroups(String where, String key, String partitionsKey, int partitions,
                                                                   String groupBy) {
        return new TributaryException(where + ": key '" + partitionsKey + "' is " + partitions + ", and '" + key + "' drops duplicates"
                + " before an aggregation by '" + groupBy + "', which is not a key of the deduplication: the rows of a key and the rows"
                + " of a group would not meet on one partition. Set " + partitionsKey + ": 1, or remove the deduplication");
    }

    public static TributaryException dropDuplicatesIntoUpsert(String where, String key, String modeKey) {
        return new TributaryException(where + ": key '" + key + "' drops duplicates, and '" + modeKey + "' is upsert: an upsert"
                + " keeps one row per key already; drop duplicates into an append table (the default mode), or remove the key");
    }

    public static TributaryException kafkaSourceAggregation(String where, String key, String aggregateKey) {
        return new TributaryException(where + ": key '" + key + "' is not taken with '" + aggregateKey + "': an aggregation or"
                + " dropDuplicates over a Kafka source keeps its columns as they are at start;"
                + " remove the key, or land the topic in a table first and aggregate that table in a second pipeline (source.delta.path)");
    }
}
