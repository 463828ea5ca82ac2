package io.tributary.sink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.delta.KernelEngines;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import io.tributary.sink.internal.AppendStream;
import io.tributary.sink.internal.CommitResult;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.Partitioning;
import io.tributary.sink.internal.TableSnapshots;
import io.tributary.storage.Storage;
import java.io.IOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;

/**
 * A Delta table appended to by several writers at once, each committing the topic partitions it
 * owns (the Kafka Connect sink's tasks): the {@link DeltaSink}'s exactly-once rule with the
 * progress kept per partition. Each commit carries, for every partition it advances, domain
 * metadata {@code tributary.sink.partition:<topic>:<partition>} holding the next offset to read;
 * a batch commits only if the table holds, for each of its partitions, the offset the batch
 * starts at. Writers of different partitions are blind appends that Kernel rebases over one
 * another; a writer whose partition was committed by another since (it lost the partition in a
 * rebalance) gets a {@link StaleBatchException} and commits nothing.
 */
public final class PartitionSink {
    /** The prefix of the domain metadata that holds a partition's offset. */
    public static final String DOMAIN_PREFIX = "tributary.sink.partition:";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Engine engine;
    private final DeltaTableWriter writer;
    private final String writerId;

    /** As below, for a table on a local path. */
    public PartitionSink(String tablePath, Schema schema, List<String> partitionBy, long targetFileSize,
                         Map<String, String> tableProperties, String writerId) {
        this(tablePath, schema, partitionBy, targetFileSize, tableProperties, writerId, Storage.NONE);
    }

    /**
     * @param partitionBy the table's partitioning, as {@link SinkConfig#partitionBy()}
     * @param writerId names this writer in the log and in each partition's domain metadata
     * @param storage the settings of the table's file system (object storage), as the spec's {@code storage:} map
     */
    public PartitionSink(String tablePath, Schema schema, List<String> partitionBy, long targetFileSize,
                         Map<String, String> tableProperties, String writerId, Storage storage) {
        this.engine = KernelEngines.withTargetFileSize(targetFileSize, storage);
        this.writer = new DeltaTableWriter(engine, tablePath, tableProperties, Partitioning.parse(partitionBy, schema), targetFileSize);
        this.writerId = writerId;
    }

    /** The domain metadata name of a partition's offset. */
    public static String domain(TopicPartition tp) {
        return DOMAIN_PREFIX + tp.topic() + ":" + tp.partition();
    }

    public String tablePath() {
        return writer.tablePath();
    }

    /** The next offset to read of each of {@code partitions}, as the table's latest version holds it; 0 for a partition it has none of. */
    public Map<TopicPartition, Long> tableOffsets(Collection<TopicPartition> partitions) {
        return offsetsIn(TableSnapshots.latest(engine, writer.tablePath()), partitions);
    }

    /** As {@link #tableOffsets} for the table at {@code path} (0 for every partition when there is no table). */
    public static Map<TopicPartition, Long> offsets(String path, Collection<TopicPartition> partitions) {
        return offsets(path, Storage.NONE, partitions);
    }

    /** As {@link #offsets(String, Collection)}, with {@code storage}'s settings for a table on object storage. */
    public static Map<TopicPartition, Long> offsets(String path, Storage storage, Collection<TopicPartition> partitions) {
        return offsetsIn(TableSnapshots.latest(KernelEngines.create(storage), path), partitions);
    }

    private static Map<TopicPartition, Long> offsetsIn(Optional<Snapshot> snap, Collection<TopicPartition> partitions) {
        Map<TopicPartition, Long> out = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            out.put(tp, snap.flatMap(s -> s.getDomainMetadata(domain(tp))).map(PartitionSink::offsetOf).orElse(0L));
        }
        return out;
    }

    private static long offsetOf(String json) {
        try {
            return JSON.readTree(json).path("offset").asLong();
        } catch (IOException e) {
            throw new TributaryException("delta sink: domain metadata " + json + " is not a partition offset; was the table written by another tool?", e);
        }
    }

    /** The offset of every partition the latest version of the table at {@code path} holds; empty when there is no table. */
    public static Map<TopicPartition, Long> allOffsets(String path) {
        Map<TopicPartition, Long> out = new TreeMap<>((a, b) -> a.topic().equals(b.topic())
                ? Integer.compare(a.partition(), b.partition()) : a.topic().compareTo(b.topic()));
        TableSnapshots.latest(KernelEngines.create(), path).ifPresent(s -> io.tributary.sink.internal.TableFacts.domains(s)
                .forEach((domain, json) -> {
                    if (domain.startsWith(DOMAIN_PREFIX)) {
                        JsonNode n = parse(json);
                        out.put(new TopicPartition(n.path("topic").asText(), n.path("partition").asInt()), n.path("offset").asLong());
                    }
                }));
        return out;
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new TributaryException("delta sink: domain metadata " + json + " is not a partition offset", e);
        }
    }

    /** Starts a batch: its rows are written to Parquet as they are added; nothing is visible before {@link Batch#commit}. */
    public Batch begin() {
        Map.Entry<AppendStream, Optional<Snapshot>> open = writer.openPartitionAppend(writerId);
        return new Batch(open.getKey(), open.getValue());
    }

    /** One commit's worth of rows, from the partitions' start offsets to their end offsets. */
    public final class Batch implements AutoCloseable {
        private final AppendStream stream;
        private final Optional<Snapshot> base;
        private boolean closed;

        private Batch(AppendStream stream, Optional<Snapshot> base) {
            this.stream = stream;
            this.base = base;
        }

        public void add(Object[] row) {
            stream.add(row);
        }

        public long rows() {
            return stream.rows();
        }

        /**
         * Commits the rows with the partitions' new offsets.
         *
         * @param from per partition, the offset this batch started reading at: the table must hold it
         * @param to per partition, the next offset to read after this batch
         * @return the new table version
         * @throws StaleBatchException if the table does not hold {@code from} for some partition, or
         *         another writer's commit of one of them overtook this one; nothing is committed
         */
        public long commit(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {
            Map<TopicPartition, Long> held = offsetsIn(base, from.keySet());
            if (!held.equals(new LinkedHashMap<>(from))) {
                closed = true;
                stream.close();
                throw new StaleBatchException("delta table " + writer.tablePath() + " holds offsets " + held + ", but " + writerId
                        + "'s batch starts at " + from + ": another writer committed these partitions (a task that owns them "
                        + "since a rebalance); nothing of this batch was committed: read the table's offsets again");
            }
            Map<String, String> domains = new LinkedHashMap<>();
            to.forEach((tp, offset) -> {
                if (!offset.equals(from.get(tp))) {
                    ObjectNode n = JSON.createObjectNode();
                    n.put("topic", tp.topic()).put("partition", tp.partition()).put("offset", offset).put("writer", writerId);
                    domains.put(domain(tp), n.toString());
                }
            });
            closed = true;
            CommitResult r = stream.commitWithDomains(domains);
            return r.version();
        }

        /** Drops the batch: the files it wrote are deleted, nothing is committed. */
        @Override
        public void close() {
            if (!closed) {
                closed = true;
                stream.close();
            }
        }
    }
}
