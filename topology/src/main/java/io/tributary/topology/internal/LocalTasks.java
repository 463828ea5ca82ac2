package io.tributary.topology.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.apache.kafka.streams.ThreadMetadata;

/**
 * What a Kafka Streams instance runs here, of the tasks its application shares with other
 * instances: the partitions of a topic its active tasks read (all together, and by topic), and the
 * ids of its active and standby tasks (e.g. {@code 0_1}), sorted.
 *
 * @param partitions the partition numbers of the accepted topics its active tasks read
 * @param topics the same partitions by topic name: over several topics, or those a pattern matched, the
 *     numbers alone do not say which topic's they are
 */
public record LocalTasks(List<Integer> partitions, List<String> active, List<String> standby, Map<String, List<Integer>> topics) {
    /** The local threads' tasks, with the partitions of {@code topic} their active tasks read. */
    public static LocalTasks of(Collection<ThreadMetadata> threads, String topic) {
        return of(threads, topic::equals);
    }

    /**
     * The local threads' tasks, with the partitions their active tasks read of the topics
     * {@code topics} accepts (e.g. those a Kafka source's pattern matches). Kafka Streams puts
     * partition p of every source topic of a subtopology into the same task, so partition 0 here
     * means this instance runs that task, whichever topics matched.
     */
    public static LocalTasks of(Collection<ThreadMetadata> threads, Predicate<String> topics) {
        TreeSet<Integer> partitions = new TreeSet<>();
        Map<String, TreeSet<Integer>> byTopic = new TreeMap<>();
        List<String> active = new ArrayList<>();
        List<String> standby = new ArrayList<>();
        for (ThreadMetadata t : threads) {
            t.activeTasks().forEach(task -> {
                active.add(task.taskId().toString());
                task.topicPartitions().stream().filter(tp -> topics.test(tp.topic())).forEach(tp -> {
                    partitions.add(tp.partition());
                    byTopic.computeIfAbsent(tp.topic(), x -> new TreeSet<>()).add(tp.partition());
                });
            });
            t.standbyTasks().forEach(task -> standby.add(task.taskId().toString()));
        }
        active.sort(null);
        standby.sort(null);
        Map<String, List<Integer>> named = new TreeMap<>();
        byTopic.forEach((topic, ps) -> named.put(topic, List.copyOf(ps)));
        return new LocalTasks(List.copyOf(partitions), List.copyOf(active), List.copyOf(standby),
                java.util.Collections.unmodifiableMap(named));
    }
}
