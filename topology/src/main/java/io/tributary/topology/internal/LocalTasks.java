package io.tributary.topology.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * What a Kafka Streams instance runs here, of the tasks its application shares with other
 * instances: the partitions of a topic its active tasks read, and the ids of its active and
 * standby tasks (e.g. {@code 0_1}), sorted.
 */
public record LocalTasks(List<Integer> partitions, List<String> active, List<String> standby) {
    /** The local threads' tasks, with the partitions of {@code topic} their active tasks read. */
    public static LocalTasks of(Collection<ThreadMetadata> threads, String topic) {
        TreeSet<Integer> partitions = new TreeSet<>();
        List<String> active = new ArrayList<>();
        List<String> standby = new ArrayList<>();
        for (ThreadMetadata t : threads) {
            t.activeTasks().forEach(task -> {
                active.add(task.taskId().toString());
                task.topicPartitions().stream().filter(tp -> tp.topic().equals(topic)).forEach(tp -> partitions.add(tp.partition()));
            });
            t.standbyTasks().forEach(task -> standby.add(task.taskId().toString()));
        }
        active.sort(null);
        standby.sort(null);
        return new LocalTasks(List.copyOf(partitions), List.copyOf(active), List.copyOf(standby));
    }
}
