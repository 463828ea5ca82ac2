package io.tributary.connect;

import io.tributary.schema.BuildVersion;
import io.tributary.connect.internal.ConnectSettings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.source.ConnectorTransactionBoundaries;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;

/**
 * The file-ingest stage as a Kafka Connect source: the new JSON Lines files of a folder, each
 * published with its source offset (what the stage's ingest log holds of it) in one transaction
 * under Connect's exactly-once source support, so a task killed mid-file leaves nothing of it
 * visible. The connector divides the files among its tasks by a hash of their names: in one
 * generation of tasks each file has exactly one owner, and Connect fences the previous generation
 * before a new one starts.
 */
public class FileSourceConnector extends SourceConnector {
    /** The worker setting that would break a file's transaction into pieces. */
    private static final String TRANSACTION_BOUNDARY = "transaction.boundary";

    private Map<String, String> props;

    @Override
    public String version() {
        return BuildVersion.get();
    }

    @Override
    public void start(Map<String, String> props) {
        new FileSourceConfig(props).ingestConfig(props.get("name"));
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return FileSourceTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            Map<String, String> c = new HashMap<>(props);
            c.put(FileSourceConfig.TASK_INDEX, String.valueOf(i));
            c.put(FileSourceConfig.TASK_COUNT, String.valueOf(maxTasks));
            configs.add(c);
        }
        return configs;
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return FileSourceConfig.DEF;
    }

    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.SUPPORTED;
    }

    /** A task commits after each poll's files ({@code transaction.boundary} poll, the default) or says where itself (connector). */
    @Override
    public ConnectorTransactionBoundaries canDefineTransactionBoundaries(Map<String, String> connectorConfig) {
        return ConnectorTransactionBoundaries.SUPPORTED;
    }

    /** The keys one by one ({@link FileSourceConfig#DEF}), then together as the stage checks them, each error on its key. */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config config = super.validate(connectorConfigs);
        boolean valid = config.configValues().stream().allMatch(v -> v.errorMessages().isEmpty());
        if (valid) {
            try {
                new FileSourceConfig(connectorConfigs).ingestConfig(connectorConfigs.get("name"));
            } catch (ConfigException e) {
                String key = ConnectSettings.keyOf(e, config.configValues().stream().map(ConfigValue::name).toList(), FileSourceConfig.PATH);
                addError(config, key, e.getMessage());
            }
            String keys = new FileSourceConfig(connectorConfigs).keysProblem();
            if (keys != null) {
                addError(config, FileSourceConfig.KEYS, keys);
            }
        }
        String boundary = connectorConfigs.get(TRANSACTION_BOUNDARY);
        if (boundary != null && boundary.trim().toLowerCase(Locale.ROOT).equals("interval")) {
            addError(config, TRANSACTION_BOUNDARY, "transaction.boundary interval would commit part of a file: a task killed "
                    + "after such a commit publishes the file's rows again. Use poll (the default) or connector");
        }
        return config;
    }

    private static void addError(Config config, String key, String message) {
        for (ConfigValue v : config.configValues()) {
            if (v.name().equals(key)) {
                v.addErrorMessage(message);
                return;
            }
        }
        ConfigValue v = new ConfigValue(key);
        v.addErrorMessage(message);
        config.configValues().add(v);
    }
}
