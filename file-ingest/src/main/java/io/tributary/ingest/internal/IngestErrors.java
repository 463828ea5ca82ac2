package io.tributary.ingest.internal;

import io.tributary.ingest.internal.format.CorruptFileException;
import io.tributary.schema.TributaryException;
import io.tributary.storage.ObjectLocation;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.ExecutionException;

/** file-ingest's user-facing errors: settings that cannot work, input folders and files that cannot be read, batches that cannot be published. */
public final class IngestErrors {
    private IngestErrors() {
    }

    /** When the format is not one Tributary reads. */
    public static TributaryException unknownFormat(String name) {
        return new TributaryException("source.files.format: '" + name + "' is not a format Tributary reads; use json, csv, "
                + "parquet or text");
    }

    /** When an option is not one of the format's; {@code options} lists the format's options, null when it takes none. */
    public static TributaryException unknownOption(String key, String kind, Collection<String> options) {
        return new TributaryException("source.files.options." + key + ": not an option of the " + kind
                + " format that Tributary reads" + (options == null ? " (it takes none)" : "; the options are " + options)
                + " (docs/formats.md)");
    }

    /** When a boolean option is neither true nor false. */
    public static TributaryException notBoolean(String option, String value) {
        return new TributaryException("source.files.options." + option + ": '" + value + "' is not true or false");
    }

    /** When a one-character option is not one character. */
    public static TributaryException notOneCharacter(String option, String value) {
        return new TributaryException("source.files.options." + option + ": '" + value + "' is not one character (\\t for a "
                + "tab, \\u0000 for none)");
    }

    /** When the text format is given a schema other than "value STRING". */
    public static TributaryException textSchemaNotValue(String ddl) {
        return new TributaryException("source.files.schema: the text format reads each line into one STRING column (Spark's "
                + "\"value STRING\"), but the schema is " + ddl + "; use \"value STRING\" or leave the schema out");
    }

    /** When the schema of a format other than json and csv has a VARIANT column (or one that holds a VARIANT). */
    public static TributaryException variantNotRead(String field, String ddl, String format) {
        return new TributaryException("source.files.schema: column '" + field + "' is " + ddl + ", and format " + format
                + " reads no VARIANT; read it as STRING, or use format json, csv or parquet, which read a VARIANT as Spark's"
                + " readers do");
    }

    /** When a CSV schema has a column of a type a CSV file cannot hold. */
    public static TributaryException csvCannotHold(String field, String ddl) {
        return new TributaryException("source.files.schema: column '" + field + "' is " + ddl + ", which a CSV file cannot "
                + "hold (Spark's CSV source refuses it too); read it as STRING, or use json");
    }

    /** A JSON source's schema with a map whose keys are not STRING, without the option that reads them. */
    public static TributaryException jsonTypedMapKey(String field, String ddl) {
        return new TributaryException("source.files.schema: column '" + field + "' is " + ddl + ": Spark's JSON reader reads maps of"
                + " STRING keys only (INVALID_JSON_SCHEMA_MAP_TYPE); set source.files.options.typedMapKeys: true to read the keys"
                + " by Spark's CAST of their text, or make the keys STRING");
    }

    /** When no schema is given and the input folder holds no file to infer it from. */
    public static TributaryException nothingToInfer(String inputLocation) {
        return new TributaryException("source.files.schema is not given and the input folder " + inputLocation + " holds no "
                + "file to infer it from (Spark: \"Unable to infer schema ... It must be specified manually\"); give "
                + "source.files.schema, or add files and run again");
    }

    /** When the input files cannot be read to infer their schema. */
    public static TributaryException cannotInfer(String message, IOException cause) {
        return new TributaryException("cannot read input files to infer their schema: " + message, cause);
    }

    /** When no schema is given and the first files have no columns to infer it from. */
    public static TributaryException noColumnsToInfer(String inputLocation) {
        return new TributaryException("source.files.schema is not given and the first files of " + inputLocation
                + " have no columns to infer it from (no JSON object, no CSV record); give source.files.schema");
    }

    /** When the schema hints cannot be read. */
    public static TributaryException badSchemaHints(String message, TributaryException cause) {
        return new TributaryException("source.files.schemaHints: " + message, cause);
    }

    /** When interrupted while looking for the ingest log topic. */
    public static TributaryException interruptedLookingForTopic(String ingestLogTopic, InterruptedException cause) {
        return new TributaryException("interrupted while looking for topic " + ingestLogTopic, cause);
    }

    /** When the cluster's topics cannot be listed to look for the recorded schema. */
    public static TributaryException cannotListTopicsForSchema(Throwable reason, ExecutionException cause) {
        return new TributaryException("cannot list the topics of the Kafka cluster: " + reason, cause);
    }

    /** When onBadRecord is not a policy. */
    public static TributaryException unknownBadRecordPolicy(String name) {
        return new TributaryException("onBadRecord: unknown value '" + name + "'; use deadLetter (keep bad lines in the "
                + "dead-letter topic), drop (count and drop them) or fail (stop the run and publish nothing of the batch)");
    }

    /** When a bad record is found and onBadRecord is fail. */
    public static TributaryException badRecordFailed(String bad) {
        return new TributaryException("bad record in " + bad + ". onBadRecord is fail (Spark's FAILFAST), so nothing of this "
                + "batch was published. Fix or remove that line, or set onBadRecord to deadLetter (keep bad lines aside) or "
                + "drop");
    }

    /** When schemaEvolution is not a mode. */
    public static TributaryException unknownSchemaEvolution(String name) {
        return new TributaryException("source.files.schemaEvolution: '" + name + "' is not a mode; use none, addNewColumns, "
                + "rescue or failOnNewColumns (Auto Loader's schemaEvolutionMode)");
    }

    /** When cleanSource is archive without a sourceArchiveDir. */
    public static TributaryException archiveWithoutDir() {
        return new TributaryException("source.files.cleanSource: archive needs source.files.sourceArchiveDir, the folder to "
                + "move ingested files to; set it, or use cleanSource: delete or off");
    }

    /** When cleanSource is not a value it takes. */
    public static TributaryException unknownCleanSource(String name) {
        return new TributaryException("source.files.cleanSource: unknown value '" + name + "'; use off (leave ingested "
                + "files), archive (move them to sourceArchiveDir) or delete");
    }

    /** When the archive folder is inside the input folder: paths of the local file system, or object locations. */
    public static TributaryException archiveInsideInput(String key, Object dir, Object inputDir) {
        return new TributaryException(key + ": " + dir + " is inside the input folder " + inputDir
                + ", where archived files would sit among new ones (Spark refuses this too); choose a folder outside "
                + inputDir);
    }

    /** When the ingest's producer cannot start. */
    public static TributaryException couldNotStart(String pipeline, String message, RuntimeException cause) {
        return new TributaryException("ingest of pipeline " + pipeline + " could not start: " + message
                + ". Check bootstrap.servers and that the broker allows transactions (a single broker needs "
                + "transaction.state.log.replication.factor=1 and transaction.state.log.min.isr=1)", cause);
    }

    /** When a batch is asked of a closed ingest. */
    public static TributaryException closed(String pipeline) {
        return new TributaryException("ingest of pipeline " + pipeline + " is closed; start a new one");
    }

    /** When an input file no longer exists. */
    public static TributaryException fileGone(String file, NoSuchFileException cause) {
        return new TributaryException("file " + file + " could not be read: it does not exist", cause);
    }

    /** When an input file of a batch cannot be read. */
    public static TributaryException cannotReadFile(long batchId, String error, IOException cause) {
        return new TributaryException("batch " + batchId + ": cannot read an input file: " + error + "; nothing of the batch "
                + "was published. Check the file's permissions and rerun", cause);
    }

    /** When another ingest took over the transactional.id, or the producer lost its rights. */
    public static TributaryException fenced(long batchId, String pipeline, String transactionalId, String message,
                                            RuntimeException cause) {
        return new TributaryException("batch " + batchId + " of pipeline " + pipeline + " was not published: another ingest "
                + "with transactional.id " + transactionalId + " took over, or the producer lost its rights (" + message
                + "). Only one ingest per pipeline may run; this one stops. Restart it once the other has stopped", cause);
    }

    /**
     * When Kafka left the producer unusable (its transaction aborted by the coordinator, its state lost) batch after
     * batch, each time on a new producer: {@code openMs} is how long the last transaction was open.
     */
    public static TributaryException producerKeptFailing(String pipeline, long batchId, int attempts, long openMs,
            long transactionTimeoutMs, String error, RuntimeException cause) {
        String fix = openMs >= transactionTimeoutMs
                ? "its transaction was open " + openMs + " ms, longer than transaction.timeout.ms (" + transactionTimeoutMs
                        + "), after which Kafka's transaction coordinator aborts it: raise transaction.timeout.ms under kafka: "
                        + "(at most the broker's transaction.max.timeout.ms) or lower source.files.maxFilesPerTrigger, and rerun"
                : "check the broker's log (its transaction coordinator) and rerun";
        return new TributaryException("batch " + batchId + " of pipeline " + pipeline + " was not published: Kafka's producer failed "
                + attempts + " times in a row, each time on a new producer that took the transactional id over (last: " + error
                + "); nothing of the batch was published. The last time, " + fix, cause);
    }

    /** When the {@code sql:} query has a LIMIT and the ingest log's progress holds no count of the rows published (an older log). */
    public static TributaryException limitWithoutCount(String pipeline, String topic, long limit) {
        return new TributaryException("sql: LIMIT " + limit + ": the ingest log " + topic + " of pipeline " + pipeline + " holds no count of"
                + " the rows published so far (written before the count was kept), so the rows LIMIT still lets through are unknown; run"
                + " the query as a new pipeline, or remove LIMIT");
    }

    /** When the {@code sql:} query has a LIMIT under the Kafka Connect source connector, whose offsets hold no count of the rows. */
    public static TributaryException limitUnderConnect(long limit) {
        return new TributaryException("sql: LIMIT " + limit + " is not supported by the Kafka Connect source connector: it commits"
                + " Connect's source offsets, which hold no count of the rows published; run the pipeline with tributary run, whose"
                + " ingest keeps the count with its progress, or remove LIMIT");
    }

    /** When a batch could not be published and its transaction was aborted: {@code rejected} is the first record error, or null. */
    public static TributaryException notPublished(long batchId, RuntimeException error, Exception rejected, Throwable cause) {
        return new TributaryException("batch " + batchId + " could not be published to Kafka: "
                + (rejected == null ? error.getMessage() : "a record was not acknowledged: " + rejected.getMessage())
                + "; the transaction was aborted, so nothing of it was published. Check the broker and rerun", cause);
    }

    /** When the ingest log topic does not exist. */
    public static TributaryException noIngestLogTopic(String topic, long seconds) {
        return new TributaryException("topic " + topic + " does not exist (looked for it for " + seconds + " s); create the "
                + "pipeline's topics first (FileIngest.createTopics), or check bootstrap.servers");
    }

    /** When an object-store input folder cannot be listed. */
    public static TributaryException cannotListObjects(Object folder, String message, IOException cause) {
        return new TributaryException("cannot list the input folder " + folder + ": " + message, cause);
    }

    /** When the input folder does not exist. */
    public static TributaryException noInputFolder(Path dir) {
        return new TributaryException("input folder " + dir + " does not exist; create it or fix source.files.path");
    }

    /** When the input folder cannot be opened. */
    public static TributaryException cannotOpenInputFolder(Path dir, String message, IOException cause) {
        return new TributaryException("cannot open the input folder " + dir + ": " + message, cause);
    }

    /** When the input path is not a folder. */
    public static TributaryException inputNotAFolder(Path dir) {
        return new TributaryException("input path " + dir + " is not a folder; source.files.path must name a folder of files");
    }

    /** When an input file's attributes cannot be read. */
    public static TributaryException cannotReadAttributes(String file, String error, IOException cause) {
        return new TributaryException("cannot read the attributes of " + file + ": " + error, cause);
    }

    /** When an input file cannot be read again for its new columns. */
    public static TributaryException cannotReread(long batchId, String message, IOException cause) {
        return new TributaryException("batch " + batchId + ": cannot read an input file again for its new columns: " + message,
                cause);
    }

    /** When reading a batch's files again finds none of the new fields. */
    public static TributaryException newFieldsVanished(String file, long line, List<?> fields) {
        return new TributaryException("file " + file + " line " + line + " has new fields " + fields + ", but reading the "
                + "batch's files again found none (did the file change meanwhile?); run again");
    }

    /** When the pipeline's topics do not exist. */
    public static TributaryException missingTopics(String pipeline, String missing, long seconds) {
        return new TributaryException("pipeline " + pipeline + ": topic(s) " + missing + " do not exist (looked for them for "
                + seconds + " s); create them first (FileIngest.createTopics) or check the topic names");
    }

    /** When the cluster's topics cannot be listed. */
    public static TributaryException cannotListTopics(Throwable cause) {
        return new TributaryException("cannot list the topics of the Kafka cluster: " + cause + "; check bootstrap.servers "
                + "and the client security settings", cause);
    }

    /** When interrupted while checking the pipeline's topics. */
    public static TributaryException interruptedCheckingTopics(InterruptedException cause) {
        return new TributaryException("interrupted while checking the pipeline's topics", cause);
    }

    /** When an input file is corrupt; {@code what} says where. */
    public static TributaryException corruptFile(String what, CorruptFileException cause) {
        return new TributaryException(what + ". Replace or remove the file, or set source.files.ignoreCorruptFiles: true to "
                + "keep the rows before the break and skip the rest, as Spark's ignoreCorruptFiles does", cause);
    }

    /** When cleanSource is archive without a sourceArchiveDir, each named by its key as the user wrote it. */
    public static TributaryException archiveNeedsDir(String cleanSourceKey, String archiveDirKey) {
        return new TributaryException(cleanSourceKey + ": archive needs " + archiveDirKey + ", the folder to move ingested "
                + "files to; set it, or use cleanSource: delete or off");
    }

    /** When the archive folder is not on the input folder's file system. */
    public static TributaryException archiveOnOtherFileSystem(String key, String archiveLocation,
                                                              String inputLocation) {
        return new TributaryException(key + ": " + archiveLocation + " is not on the file system of the input folder "
                + inputLocation + "; archive to a folder on the same one (an object is copied and deleted on the server, a "
                + "local file moved)");
    }

    /** When rowsPerRecord is below 1. */
    public static TributaryException rowsPerRecordBelowOne(String key, int rows) {
        return new TributaryException(key + " must be at least 1, got " + rows);
    }

    /** When the pipeline's name is empty or holds characters a topic name cannot. */
    public static TributaryException badPipelineName(String pipeline) {
        return new TributaryException("name: '" + pipeline + "' is not a valid pipeline name; use letters, digits, '.', '_' "
                + "and '-' (it becomes part of the topic names)");
    }

    /** When a schemaEvolution mode other than none is set for a format other than JSON. */
    public static TributaryException schemaEvolutionNotJson(String key, String mode, String format) {
        return new TributaryException(key + ": " + mode + " reads new fields of JSON files; the " + format + " format reads "
                + "with the schema as given: set schemaEvolution to none");
    }

    /** When the event-time column is not a TIMESTAMP or TIMESTAMP_NTZ column. */
    public static TributaryException eventTimeNotTimestamp(String column, String ddl) {
        return new TributaryException("eventTime: column '" + column + "' is " + ddl + "; event time needs a TIMESTAMP column "
                + "(as Spark's withWatermark)");
    }

    /** When a watermark delay is given without an event-time column. */
    public static TributaryException watermarkWithoutEventTime() {
        return new TributaryException("watermark: a watermark delay needs an eventTime column; set eventTime");
    }

    /** When the watermark delay is negative. */
    public static TributaryException negativeWatermark(Duration delay) {
        return new TributaryException("watermark: the delay " + delay + " is negative; use 0 or more");
    }

    /** When maxFilesPerTrigger is below 1. */
    public static TributaryException maxFilesNotPositive(String key, int files) {
        return new TributaryException(key + ": " + files + " is not a positive number of files");
    }

    /** When maxBytesPerTrigger is below 1. */
    public static TributaryException maxBytesNotPositive(String key, long bytes) {
        return new TributaryException(key + ": " + bytes + " is not a positive number of bytes");
    }

    /** When maxLineBytes is below 16. */
    public static TributaryException maxLineTooSmall(String key, int bytes) {
        return new TributaryException(key + ": " + bytes + " is too small; use at least 16 (default 16 MiB)");
    }

    /** When closeIdleWindowsAfter is negative, or given without a watermark or a window length. */
    public static TributaryException badCloseIdleWindows(Duration idle) {
        return new TributaryException("aggregate.closeIdleWindowsAfter: needs a watermark, a window length and a duration of 0 "
                + "or more (got " + idle + ")");
    }

    /** When a wait that must be 0 or more (fileMinAge, fileSettleTime) is negative or missing. */
    public static TributaryException negativeWait(String key, Duration wait) {
        return new TributaryException(key + ": " + wait + " must be 0 or more");
    }

    /** When a schema or schema hints are not a DDL string; {@code hint} follows the parser's message. */
    public static TributaryException badDdl(String key, String hint, TributaryException cause) {
        return new TributaryException("key '" + key + "': " + cause.getMessage() + hint, cause);
    }

    /** When source.files.debezium.sequence is given for a format other than debezium-json. */
    public static TributaryException debeziumSequenceNotDebezium(String key, String format) {
        return new TributaryException(key + ": set, but the format is " + format + "; it names the source fields of"
                + " debezium-json events: set the format to debezium-json, or remove " + key);
    }

    /** When a debezium-json source has no schema to read the events' rows with. */
    public static TributaryException debeziumNeedsSchema(String inputLocation) {
        return new TributaryException("source.files.schema is not given for the debezium-json files of " + inputLocation
                + "; the format does not infer one: give the table's columns as a DDL string, e.g. \"id INT, name STRING\""
                + " (docs/cdc.md)");
    }

    /** A {@code transform.lateralView} item's field at fault, {@code problem} saying how; the fix lists the fields. */
    public static TributaryException lateralViewKey(String key, String problem) {
        return new TributaryException(key + ": " + problem + "; a lateral view is {generator: \"explode(tags)\", as: t, columns: [tag],"
                + " outer: false} (columns and outer optional), Spark's LATERAL VIEW [OUTER] explode(tags) t AS tag");
    }

    /** A CHECK constraint (or invariant) of the sink's table that the rows the file source makes cannot be checked against. */
    public static TributaryException constraintNotCheckable(String table, String name, String expression, String rows,
                                                            TributaryException why) {
        return new TributaryException("delta table " + table + " has constraint " + name + " CHECK (" + expression
                + "), which Tributary cannot check on the rows the file source makes (" + rows + "): " + why.getMessage()
                + "; drop the constraint (ALTER TABLE ... DROP CONSTRAINT " + name + "), or make the rows fit it"
                + " (source.files.schema, transform.select)", why);
    }
}
