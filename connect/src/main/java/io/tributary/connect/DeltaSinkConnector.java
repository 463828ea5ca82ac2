package io.tributary.connect;

import io.tributary.schema.BuildVersion;
import io.tributary.connect.internal.ConnectSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * The Delta sink as a Kafka Connect sink: topic records appended or upserted to a Delta table, exactly once.
 * Every task commits the partitions Connect assigned it straight to the table, each commit holding
 * the next offset of each partition it covers; the table, not the consumer group, says where a
 * partition resumes (see {@link DeltaSinkTask}).
 */
public class DeltaSinkConnector extends SinkConnector {
    private Map<String, String> props;

    @Override
    public String version() {
        return BuildVersion.get();
    }

    @Override
    public void start(Map<String, String> props) {
        Map<String, String> problems = new DeltaSinkConfig(props).problems();
        if (!problems.isEmpty()) {
            throw new org.apache.kafka.common.config.ConfigException(String.join("; ", problems.values()));
        }
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return DeltaSinkTask.class;
    }

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            configs.add(props);
        }
        return configs;
    }

    @Override
    public void stop() {
    }

    @Override
    public ConfigDef config() {
        return DeltaSinkConfig.DEF;
    }

    /** The keys one by one ({@link DeltaSinkConfig#DEF}), then together (mode, keys, order, schema), each error on its key. */
    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        Config config = super.validate(connectorConfigs);
        if (config.configValues().stream().allMatch(v -> v.errorMessages().isEmpty())) {
            new DeltaSinkConfig(connectorConfigs).problems().forEach((key, message) -> {
                ConfigValue value = config.configValues().stream().filter(v -> v.name().equals(key)).findFirst().orElseGet(() -> {
                    ConfigValue v = new ConfigValue(key);
                    config.configValues().add(v);
                    return v;
                });
                value.addErrorMessage(message);
            });
        }
        return config;
    }
}
