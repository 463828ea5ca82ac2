package io.tributary.sink.internal;

import io.tributary.schema.TributaryException;
import java.util.List;

/** The delta sink's errors about the table it writes: a schema, partitioning, feature or owner the sink cannot write with, a table whose topic's state was lost. */
public final class TableErrors {
    private TableErrors() {
    }

    /** When a table's delete markers (domain metadata of a change-data upsert) cannot be read. */
    public static TributaryException badDeleteMarkers(String tablePath, long version, String domain, Throwable cause) {
        return new TributaryException("delta table " + tablePath + " version " + version + ": its domain metadata " + domain
                + " (the keys a change-data upsert deleted) is not the sink's JSON: " + cause.getMessage() + "; another writer"
                + " changed it. Restore it from an earlier version of the table, or remove the domain to forget the deleted keys", cause);
    }

    /** When the table's sink offsets domain metadata cannot be read. */
    public static TributaryException notSinkOffsets(String domain, String json, Throwable cause) {
        return new TributaryException("delta sink: the table's domain metadata '" + domain + "' is not Tributary sink "
                + "offsets (" + json + "); was the table written by another tool?", cause);
    }

    /** When a table partitioned by a derived column has another schema than the pipeline's. */
    public static TributaryException derivedPartitionSchemaChanged(String path, String tableSchema, String sinkSchema,
                                                                   List<?> partitionBy) {
        return new TributaryException("delta table " + path + " has schema " + tableSchema + ", but the sink writes "
                + sinkSchema + "; a table partitioned by a derived column (sink.delta.partitionBy " + partitionBy
                + ") is written with exactly the pipeline's schema: restore it, or write to a new table path");
    }

    /** When the table is written by another sink, or from another topic. */
    public static TributaryException writtenByAnotherSink(String tablePath, String tableAppId, String tableTopic, String appId,
                                                          String topic) {
        return new TributaryException("delta table " + tablePath + " is written by sink '" + tableAppId + "' from topic "
                + tableTopic + ", not by '" + appId + "' from " + topic + "; give each sink its own table path");
    }

    /** When a Kafka source's table holds the offsets of other topics (or another pattern) than the spec reads now. */
    public static TributaryException subscriptionChanged(String tablePath, String tableTopics, String topics) {
        return new TributaryException("kafka source: delta table " + tablePath + " holds the offsets of topics " + tableTopics
                + ", but the source reads " + topics + " now; as with Spark's checkpoint, the topics of a table do not change:"
                + " go back to " + tableTopics + ", or land the new topics in a new table (sink.delta.path)");
    }

    /** When the table has the sink's batches but no stored offsets. */
    public static TributaryException batchesWithoutOffsets(String tablePath, String txnAppId, long lastBatch, String domain) {
        return new TributaryException("delta table " + tablePath + " has batches of sink " + txnAppId + " (last " + lastBatch
                + ") but no stored offsets ('" + domain + "' domain metadata); it was not written by a Tributary sink: write "
                + "to a new table path");
    }

    /** When mode complete without keys is asked of instances that share partitions. */
    public static TributaryException completeNotShareable(String appId) {
        return new TributaryException("delta sink " + appId + ": mode complete without keys replaces the whole table with "
                + "each batch, which instances that share the topic's partitions cannot do; run one instance");
    }

    /** When this run's Kafka cluster holds another topic than the one the table's other instances write from. */
    public static TributaryException onAnotherCluster(String tablePath, String appId, String cluster, String bootstrap,
                                                      String topic, String ids) {
        return new TributaryException("delta table " + tablePath + " is written by the instances of pipeline sink " + appId
                + " on the Kafka cluster at " + cluster + ", but this run's Kafka (" + bootstrap + ") holds another topic "
                + topic + " (" + ids + "): this process is not on the cluster its other instances use (without "
                + "kafka.bootstrap.servers it runs an embedded broker of its own). Start it with kafka.bootstrap.servers: "
                + cluster + " and a continuous trigger to run as one of them; going on from this topic would write the "
                + "table's rows a second time");
    }

    /** When the topic was created anew since the table recorded its last batch. */
    public static TributaryException topicRecreated(String topic, String bootstrap, String tablePath, long lastBatch,
                                                    String appId, String ids) {
        return new TributaryException("topic " + topic + " on the Kafka cluster at " + bootstrap + " was created anew since "
                + "table " + tablePath + " recorded its last batch (" + lastBatch + " of sink " + appId + "; " + ids
                + "): the pipeline's topics were deleted or its cluster replaced. Going on would write the table's rows a "
                + "second time. Restore the cluster's topics to go on exactly; or, with every instance of the pipeline "
                + "stopped, write to a new table path");
    }

    /** When the pipeline's state was lost: its topic was created anew since the table's last batch. */
    public static TributaryException stateLost(String topic, String tablePath, long lastBatch, String appId, String ids) {
        return new TributaryException("the pipeline's state was lost: topic " + topic + " was created anew since table "
                + tablePath + " recorded its last batch (" + lastBatch + " of sink " + appId + "; " + ids + "), e.g. because "
                + "the state folder holding the embedded broker was deleted. Going on would read every input again and write "
                + "its rows to the table a second time (what Spark does when its checkpoint is deleted). Restore the state "
                + "folder to go on exactly; or run with --reprocess to accept the duplicates; or write to a new table path");
    }

    /** When the topic no longer holds the records the table's offsets continue from, for instances that share the table; {@code problem} says what happened. */
    public static TributaryException trimmedTopicShared(String problem) {
        return new TributaryException(problem + "Every instance of a pipeline writes the same table: if its other instances "
                + "name another sink.delta.path, start this one with their spec. Otherwise restore the table; or rebuild it "
                + "from the input as a new pipeline (another name, so other topics and groups, and a new table path)");
    }

    /** When the topic no longer holds the records the table's offsets continue from; {@code problem} says what happened. */
    public static TributaryException trimmedTopic(String problem) {
        return new TributaryException(problem + "Restore the table; or rebuild it from the input with a new pipeline state "
                + "(with the embedded broker: delete the state folder; with a Kafka cluster, once no instance of the pipeline "
                + "runs: delete the pipeline's topics and consumer groups)");
    }

    /** When the rows have a column whose name Delta takes only with column mapping, and the table is to be created without it. */
    public static TributaryException invalidColumnName(String tablePath, String column) {
        return new TributaryException("delta table " + tablePath + ": the rows' column '" + column + "' has a character Delta allows in a"
                + " column name only with column mapping (one of ' ,;{}()\\n\\t='); Spark's write refuses it too"
                + " (DELTA_INVALID_CHARACTERS_IN_COLUMN_NAMES). Name the column with AS (lower(user) AS user), or create the table"
                + " with column mapping: sink.delta.properties: {delta.columnMapping.mode: name}");
    }

    /** When mode upsert is asked of a table that maps its column names and has the change data feed on. */
    public static TributaryException columnMappedChangeDataFeed(String tablePath, String columnMapping) {
        return new TributaryException("delta table " + tablePath + " maps its column names (delta.columnMapping.mode="
                + columnMapping + ") and has the change data feed on (delta.enableChangeDataFeed=true): the sink does not write "
                + "the change data files of a column-mapped table yet; use mode append, or turn the feed off");
    }

    /** When mode upsert is asked of a partitioned table with the change data feed on. */
    public static TributaryException changeDataFeedPartitioned(String tablePath) {
        return new TributaryException("delta table " + tablePath + " is partitioned and has the change data feed on "
                + "(delta.enableChangeDataFeed=true): sink mode upsert writes the change data files of unpartitioned tables only; "
                + "use sink mode append, or turn the change data feed off (ALTER TABLE ... SET TBLPROPERTIES "
                + "('delta.enableChangeDataFeed' = 'false')), or write to an unpartitioned table");
    }

    /** When mode complete (which replaces every row) is asked of a table with the change data feed on. */
    public static TributaryException changeDataFeedOn(String tablePath, String specName) {
        return new TributaryException("delta table " + tablePath + " has the change data feed on "
                + "(delta.enableChangeDataFeed=true): sink mode " + specName + " replaces every row, whose changes the sink "
                + "does not write as _change_data files (mode upsert does); use sink mode append or upsert, or turn the change data "
                + "feed off (ALTER TABLE ... SET TBLPROPERTIES ('delta.enableChangeDataFeed' = 'false')), or write to a new "
                + "table path");
    }

    /** When a mode that removes rows is asked of an append-only table. */
    public static TributaryException appendOnly(String tablePath, String specName) {
        return new TributaryException("delta table " + tablePath + " is append-only (delta.appendOnly=true): sink mode "
                + specName + " removes rows, which Delta refuses there; use sink mode append, or write to a new table path");
    }

    /** When another writer changed the table's schema since the sink started. */
    public static TributaryException schemaChanged(String tablePath, String tableSchema, String sinkSchema) {
        return new TributaryException("delta table " + tablePath + " has schema " + tableSchema + ", but the sink writes "
                + sinkSchema + "; another writer changed the table's schema since the sink started: restart the sink so that "
                + "it writes the table's schema");
    }

    /** When the table is partitioned otherwise than the sink partitions. */
    public static TributaryException partitioningDiffers(String tablePath, List<?> partitionColumnNames, List<?> columns,
                                                         List<?> specs) {
        return new TributaryException("delta table " + tablePath + " is partitioned by " + partitionColumnNames + ", but the "
                + "sink partitions by " + columns + " (sink.delta.partitionBy " + specs + "); Delta cannot change a table's "
                + "partitioning: set partitionBy as the table has it, or write to a new table path");
    }

    /** When a tombstone's key is not a key of the table. */
    public static TributaryException badTombstoneKey(int partition, long offset, String value, String ddl, String why,
                                                     String example, Exception cause) {
        return new TributaryException("delta sink: the tombstone at partition " + partition + " offset " + offset
                + " has record key '" + value + "', which is not a key of " + ddl + " (" + why + "); a tombstone's key must "
                + "be the JSON array of the key column values, e.g. " + example + ": fix the producer's record keys", cause);
    }

    /** When a new table's folder holds files but no Delta table. */
    public static TributaryException notEmptyFolder(String pathKey, String path, String found, String allowKey) {
        return new TributaryException("delta sink: " + pathKey + " " + path + " holds " + found + " but no Delta table (no "
                + "_delta_log); give a new or empty folder, or set " + allowKey + ": true to create the table beside them "
                + "(vacuum never deletes them)");
    }

    /** When a partitionBy entry cannot be read; {@code why} says why. */
    public static TributaryException badPartitionBy(String spec, String why) {
        return new TributaryException("sink.delta.partitionBy entry '" + spec + "': " + why);
    }

    /** When the table lacks columns of the pipeline and mergeSchema is off. */
    public static TributaryException lacksColumns(String tablePath, List<String> added, String tableSchema,
                                                  String pipelineSchema) {
        return new TributaryException("delta table " + tablePath + " lacks the pipeline's column"
                + (added.size() == 1 ? " " : "s ") + String.join(", ", added)
                + ". table: " + tableSchema + "; pipeline: " + pipelineSchema
                + ". Set sink.delta.mergeSchema: true to add them to the table (Spark's mergeSchema; existing rows read null),"
                + " or write to a new table path");
    }

    /** When the table has a NOT NULL column the pipeline does not write. */
    public static TributaryException notNullNotWritten(String tablePath, String prefix, String column, String tableSchema,
                                                       String pipelineSchema) {
        return new TributaryException("delta table " + tablePath + " has column " + prefix + column + " NOT NULL, which the "
                + "pipeline does not write, so every row would break the constraint. table: " + tableSchema + "; pipeline: "
                + pipelineSchema + ". Add the column to the pipeline's schema, or write to a new table path");
    }

    /** When the table has a CHECK constraint or invariant the sink cannot compile against the rows it writes. */
    public static TributaryException constraintNotCheckable(String tablePath, String name, String expression, String rowSchema,
                                                            TributaryException why) {
        return new TributaryException("delta table " + tablePath + " has constraint " + name + " CHECK (" + expression
                + "), which Tributary cannot check on the rows it writes (" + rowSchema + "): " + why.getMessage()
                + "; drop the constraint (ALTER TABLE ... DROP CONSTRAINT " + name + ") or write the table with Spark", why);
    }

    /** When a column would be widened on a table without type widening. */
    public static TributaryException needsTypeWidening(String tablePath, String column, String tableType, String pipelineType,
                                                       String tableSchema, String pipelineSchema) {
        return new TributaryException("delta table " + tablePath + " has column " + column + " " + tableType
                + ", the pipeline writes " + pipelineType + ". table: " + tableSchema + "; pipeline: " + pipelineSchema
                + ". Delta widens a column only with its typeWidening feature: set delta.enableTypeWidening=true on the table "
                + "(sink.delta.properties when it is created) and sink.delta.mergeSchema: true; or keep the table's type in "
                + "the pipeline's schema");
    }

    /** When a column would change to a type Delta cannot widen to. */
    public static TributaryException cannotChangeType(String tablePath, String column, String tableType, String pipelineType,
                                                      String tableSchema, String pipelineSchema) {
        return new TributaryException("delta table " + tablePath + " has column " + column + " " + tableType
                + ", the pipeline writes " + pipelineType + ". table: " + tableSchema + "; pipeline: " + pipelineSchema
                + ". Delta does not change a column to that type (only widenings, with typeWidening); keep the table's type "
                + "in the pipeline's schema, or write to a new table path");
    }
}
