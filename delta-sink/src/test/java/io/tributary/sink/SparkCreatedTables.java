package io.tributary.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * An empty table as Spark 4.2 + Delta 4.4 creates it with {@code CREATE TABLE t (...) USING delta
 * TBLPROPERTIES (...)}: its version 0 written by hand, in the shape of the commits in
 * {@code src/test/resources/spark-tables} (commitInfo, then protocol, then metaData). A table with
 * table features has protocol (3,7) with Spark's {@code invariants} and {@code appendOnly} writer
 * features listed besides the ones its properties enable; a table without any, (1,2).
 */
public final class SparkCreatedTables {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code delta.enableDeletionVectors}: reader and writer feature {@code deletionVectors}. */
    public static final String DELETION_VECTORS = "deletionVectors";
    /** {@code delta.checkpointPolicy=v2}: reader and writer feature {@code v2Checkpoint}. */
    public static final String V2_CHECKPOINT = "v2Checkpoint";
    /** {@code delta.enableChangeDataFeed}: writer feature {@code changeDataFeed}. */
    public static final String CHANGE_DATA_FEED = "changeDataFeed";
    /** {@code delta.columnMapping.mode=name}: reader and writer feature {@code columnMapping}. */
    public static final String COLUMN_MAPPING = "columnMapping";
    /**
     * Spark's {@code ALTER TABLE t ADD CONSTRAINT c CHECK (...)}: writer feature {@code checkConstraints},
     * the constraints themselves in {@code delta.constraints.<name>} properties.
     */
    public static final String CHECK_CONSTRAINTS = "checkConstraints";

    private SparkCreatedTables() {
    }

    /**
     * Creates the table at {@code table} with {@code columns}, each {@code "name type"} in the log's type
     * names ({@code integer}, {@code string}, ...), nullable unless it ends in {@code " NOT NULL"}; the
     * features given and {@code properties} besides the ones the features imply.
     */
    public static Path create(Path table, List<String> columns, List<String> features, Map<String, String> properties) {
        ObjectNode configuration = JSON.createObjectNode();
        List<String> reader = new ArrayList<>();
        List<String> writer = new ArrayList<>();
        for (String f : features) {
            switch (f) {
                case DELETION_VECTORS -> configuration.put("delta.enableDeletionVectors", "true");
                case V2_CHECKPOINT -> configuration.put("delta.checkpointPolicy", "v2");
                case CHANGE_DATA_FEED -> configuration.put("delta.enableChangeDataFeed", "true");
                case COLUMN_MAPPING -> configuration.put("delta.columnMapping.mode", "name")
                        .put("delta.columnMapping.maxColumnId", String.valueOf(columns.size()));
                case CHECK_CONSTRAINTS -> { }
                default -> throw new IllegalArgumentException(f);
            }
            if (!f.equals(CHANGE_DATA_FEED) && !f.equals(CHECK_CONSTRAINTS)) {
                reader.add(f);
            }
            writer.add(f);
        }
        properties.forEach(configuration::put);

        ObjectNode protocol = JSON.createObjectNode();
        if (features.isEmpty()) {
            protocol.put("minReaderVersion", 1).put("minWriterVersion", 2);
        } else {
            writer.add("invariants");
            writer.add("appendOnly");
            protocol.put("minReaderVersion", 3).put("minWriterVersion", 7);
            reader.forEach(protocol.putArray("readerFeatures")::add);
            writer.forEach(protocol.putArray("writerFeatures")::add);
        }

        ObjectNode schema = JSON.createObjectNode().put("type", "struct");
        ArrayNode fields = schema.putArray("fields");
        int id = 0;
        for (String c : columns) {
            String[] nameType = c.replace(" NOT NULL", "").split(" ");
            ObjectNode field = fields.addObject().put("name", nameType[0]).put("type", nameType[1]).put("nullable", !c.endsWith(" NOT NULL"));
            ObjectNode meta = field.putObject("metadata");
            if (features.contains(COLUMN_MAPPING)) {
                meta.put("delta.columnMapping.id", ++id).put("delta.columnMapping.physicalName", "col-" + UUID.randomUUID());
            }
        }

        long now = System.currentTimeMillis();
        ObjectNode commitInfo = JSON.createObjectNode();
        ObjectNode info = commitInfo.putObject("commitInfo").put("timestamp", now).put("operation", "CREATE TABLE");
        info.putObject("operationParameters").put("partitionBy", "[]").put("clusterBy", "[]").putNull("description")
                .put("isManaged", "false").put("properties", configuration.toString());
        info.put("isolationLevel", "Serializable").put("isBlindAppend", true);
        info.putObject("operationMetrics");
        info.put("engineInfo", "Apache-Spark/4.2.0 Delta-Lake/4.4.0").put("txnId", UUID.randomUUID().toString());

        ObjectNode metaData = JSON.createObjectNode();
        ObjectNode meta = metaData.putObject("metaData").put("id", UUID.randomUUID().toString());
        meta.putObject("format").put("provider", "parquet").putObject("options");
        meta.put("schemaString", schema.toString());
        meta.putArray("partitionColumns");
        meta.set("configuration", configuration);
        meta.put("createdTime", now);

        List<JsonNode> actions = List.of(commitInfo, JSON.createObjectNode().set("protocol", protocol), metaData);
        try {
            Path log = Files.createDirectories(table.resolve("_delta_log"));
            StringBuilder text = new StringBuilder();
            for (JsonNode a : actions) {
                text.append(JSON.writeValueAsString(a)).append('\n');
            }
            Files.writeString(log.resolve("00000000000000000000.json"), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return table;
    }

    /**
     * Commits what Spark's {@code ALTER TABLE t ADD CONSTRAINT name CHECK (expression)} commits on a
     * table with the {@code checkConstraints} feature: the latest {@code metaData} with the property
     * {@code delta.constraints.<name>} added, as the next version.
     */
    public static void addConstraint(Path table, String name, String expression) throws IOException {
        Path log = table.resolve("_delta_log");
        ObjectNode metaData = null;
        long last = -1;
        try (var files = Files.list(log)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).sorted().toList()) {
                last = Long.parseLong(f.getFileName().toString().substring(0, 20));
                for (String line : Files.readAllLines(f)) {
                    JsonNode a = JSON.readTree(line);
                    if (a.has("metaData")) {
                        metaData = (ObjectNode) a;
                    }
                }
            }
        }
        ((ObjectNode) metaData.get("metaData").get("configuration")).put("delta.constraints." + name, expression);
        ObjectNode commitInfo = JSON.createObjectNode();
        commitInfo.putObject("commitInfo").put("timestamp", System.currentTimeMillis()).put("operation", "ADD CONSTRAINT")
                .put("engineInfo", "Apache-Spark/4.2.0 Delta-Lake/4.4.0").put("txnId", UUID.randomUUID().toString())
                .putObject("operationParameters").put("name", name).put("expr", expression);
        Files.writeString(log.resolve(String.format("%020d.json", last + 1)),
                JSON.writeValueAsString(commitInfo) + "\n" + JSON.writeValueAsString(metaData) + "\n");
    }

    /** The table's protocol as its latest commit that changed it says: the last {@code protocol} action in the log. */
    public static JsonNode protocol(Path table) throws IOException {
        JsonNode last = null;
        try (var files = Files.list(table.resolve("_delta_log"))) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("\\d{20}\\.json")).sorted().toList()) {
                for (String line : Files.readAllLines(f)) {
                    JsonNode a = JSON.readTree(line);
                    if (a.has("protocol")) {
                        last = a.get("protocol");
                    }
                }
            }
        }
        return last;
    }
}
