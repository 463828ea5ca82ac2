package io.tributary.service.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.ThreadMetadata;

/** What a Kafka Streams instance runs here, of the tasks its application shares with other instances. */
final class LocalTasks {
    private LocalTasks() {
    }

    /** The partitions of {@code topic} that this instance's active tasks read. */
    static Set<TopicPartition> partitions(KafkaStreams streams, String topic) {
        Set<TopicPartition> out = new TreeSet<>(Comparator.comparingInt(TopicPartition::partition));
        for (ThreadMetadata t : streams.metadataForLocalThreads()) {
            t.activeTasks().forEach(task -> task.topicPartitions().stream().filter(tp -> tp.topic().equals(topic)).forEach(out::add));
        }
        return out;
    }

    /** The ids of this instance's {@code active} and {@code standby} tasks (e.g. {@code 0_1}), sorted. */
    static Map<String, List<String>> of(KafkaStreams streams) {
        List<String> active = new ArrayList<>();
        List<String> standby = new ArrayList<>();
        for (ThreadMetadata t : streams.metadataForLocalThreads()) {
            t.activeTasks().forEach(task -> active.add(task.taskId().toString()));
            t.standbyTasks().forEach(task -> standby.add(task.taskId().toString()));
        }
        active.sort(null);
        standby.sort(null);
        return Map.of("active", active, "standby", standby);
    }
}
