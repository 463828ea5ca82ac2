package io.tributary.connect;

import io.tributary.connect.internal.ConfigValues;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * The Delta sink as a Kafka Connect sink: topic records appended to a Delta table, exactly once.
 * Every task commits the partitions Connect assigned it straight to the table, each commit holding
 * the next offset of each partition it covers; the table, not the consumer group, says where a
 * partition resumes (see {@link DeltaSinkTask}).
 */
public class DeltaSinkConnector extends SinkConnector {
    private Map<String, String> props;

    @Override
    public String version() {
        return ConfigValues.version();
    }

    @Override
    public void start(Map<String, String> props) {
        new DeltaSinkConfig(props);
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
}
