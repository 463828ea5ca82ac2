package io.tributary.sink;

import io.delta.kernel.Snapshot;
import io.delta.kernel.engine.Engine;
import io.tributary.sink.internal.DeltaTableWriter;
import io.tributary.sink.internal.OwnedPartitions;
import io.tributary.sink.internal.TableErrors;
import io.tributary.sink.internal.TopicReader;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a {@link DeltaSink} stands: its next batch id and offsets, resumed from the table (its
 * {@code txn} and the {@link SinkOffsets#DOMAIN} domain) with the reader placed there, after the
 * checks that the table is this sink's and its topic the one the table's offsets name.
 */
final class SinkPosition {
    private static final Logger LOG = LoggerFactory.getLogger(SinkPosition.class);

    /** The batch id the next batch commits. */
    long nextBatchId;
    /** Where the next batch starts reading. */
    Map<Integer, Long> storedOffsets;
    /** What the table holds; differs from {@link #storedOffsets} only after {@code --reprocess}. */
    Map<Integer, Long> tableOffsets;
    /**
     * Instances over a new table: where every topic-partition starts (startingOffsets or
     * startingTimestamp), which the table's first commit records for all of them, the other
     * instances then reading them from the table; null once the table holds offsets.
     */
    Map<Integer, Long> firstStarts;

    private final Engine engine;
    private final TopicReader reader;
    private final String topicId;
    private final String txnAppId;
    private final boolean reprocess;
    private final OwnedPartitions owned;
    private final String bootstrap;
    /** The sink reads a Kafka source's topics: a new table starts where its startingOffsets say. */
    private final boolean kafkaSource;
    /** The Kafka source's startingOffsets or startingTimestamp say elsewhere than earliest. */
    private final boolean startsElsewhere;
    /** {@link #firstStarts} as this instance resolved them, once: kept until the table holds offsets. */
    private Map<Integer, Long> resolvedStarts;

    SinkPosition(Engine engine, TopicReader reader, String topicId, String txnAppId, boolean reprocess, OwnedPartitions owned,
                 String bootstrap, boolean kafkaSource, boolean startsElsewhere) {
        this.kafkaSource = kafkaSource;
        this.startsElsewhere = startsElsewhere;
        this.engine = engine;
        this.reader = reader;
        this.topicId = topicId;
        this.txnAppId = txnAppId;
        this.reprocess = reprocess;
        this.owned = owned;
        this.bootstrap = bootstrap;
    }

    /** The batch committed, the table holding {@code end}: the next batch starts there. */
    void committed(Map<Integer, Long> end) {
        nextBatchId++;
        storedOffsets = new TreeMap<>(end);
        tableOffsets = storedOffsets;
        firstStarts = null;
    }

    /** The offsets the table holds now (another instance may have committed since this sink read them). */
    static Map<Integer, Long> tableOffsetsNow(DeltaTableWriter writer) {
        return writer.latestSnapshot().flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).map(SinkOffsets::parse)
                .map(SinkOffsets::offsets).orElse(Map.of());
    }

    /** Reads the table's batch and offsets and places the reader there (for the partitions this instance owns now). */
    void resumeFromTable(SinkConfig config, DeltaTableWriter writer) {
        firstStarts = null;
        Set<Integer> partitions = owned == null ? null : owned.take(); // before the table: its offsets are at least as new
        Optional<Snapshot> snap = writer.latestSnapshot();
        Optional<SinkOffsets> stored = snap.flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).map(SinkOffsets::parse);
        long lastBatch = snap.flatMap(s -> s.getLatestTransactionVersion(engine, txnAppId)).orElse(-1L);
        stored.ifPresent(s -> reader.loadSources(s.sources()));
        if (owned != null) {
            partitions = owned.number(reader::numbers); // several topics: the table's numbers, the others' in sorted order
        }
        if (stored.isPresent()) {
            SinkOffsets s = stored.get();
            if (kafkaSource && config.appId().equals(s.appId()) && !config.topic().equals(s.topic())) {
                throw TableErrors.subscriptionChanged(writer.tablePath(), s.topic(), config.topic());
            }
            if (!config.appId().equals(s.appId()) || !config.topic().equals(s.topic())) {
                throw TableErrors.writtenByAnotherSink(writer.tablePath(), s.appId(), s.topic(), config.appId(), config.topic());
            }
            if (s.topicId() != null && !s.topicId().equals(topicId)) {
                if (!reprocess || owned != null) { // instances that share the partitions cannot tell whose rows were written again
                    throw SinkRefusals.lostState(config, writer.tablePath(), s, lastBatch, topicId, bootstrap, owned != null);
                }
                LOG.warn("delta sink {}: topic {} was created anew (the pipeline's state was lost); --reprocess: reading it from "
                        + "the beginning and appending its rows to table {} again", config.appId(), config.topic(), writer.tablePath());
                this.nextBatchId = lastBatch + 1;
                this.tableOffsets = new TreeMap<>(s.offsets());
                this.storedOffsets = new TreeMap<>();
                reader.assign(storedOffsets);
                return;
            }
        } else if (lastBatch >= 0) {
            throw TableErrors.batchesWithoutOffsets(writer.tablePath(), txnAppId, lastBatch, SinkOffsets.DOMAIN);
        }
        if (stored.isEmpty() && config.trimTopic()) {
            if (tableAppeared(config, writer, snap)) {
                resumeFromTable(config, writer); // another instance committed (and trimmed) since the table was read
                return;
            }
        }
        this.nextBatchId = lastBatch + 1;
        this.storedOffsets = new TreeMap<>(stored.map(SinkOffsets::offsets).orElse(Map.of()));
        if (kafkaSource && stored.isEmpty() && owned == null) {
            // a new table starts where startingOffsets (or startingTimestamp) say, as Spark's first batch; the table holds none yet
            this.storedOffsets = new TreeMap<>(reader.startingOffsets());
            reader.assign(storedOffsets);
            this.tableOffsets = Map.of();
            LOG.info("delta sink {}: no table offsets yet; topics {} start at {} (startingOffsets)", txnAppId, config.topic(),
                    SinkOffsets.sparkJson(config.topic(), storedOffsets, reader.sources()));
            return;
        }
        if (startsElsewhere && stored.isEmpty() && owned != null) {
            // instances over a new table: every topic-partition's start resolved once here; whichever instance commits
            // first records all of them, and the others' first commits, expecting none in the table, read them from it
            if (resolvedStarts == null) {
                resolvedStarts = new TreeMap<>(reader.startingOffsets());
                LOG.info("delta sink {}: no table offsets yet; topics {} start at {} (startingOffsets), unless another instance "
                        + "commits first", txnAppId, config.topic(), SinkOffsets.sparkJson(config.topic(), resolvedStarts, reader.sources()));
            }
            firstStarts = resolvedStarts;
            storedOffsets = new TreeMap<>(resolvedStarts);
        }
        if (owned != null) {
            storedOffsets = owned.ownedOf(storedOffsets);
            reader.assign(storedOffsets, partitions);
        } else {
            reader.assign(storedOffsets);
        }
        this.tableOffsets = firstStarts != null ? Map.of() : storedOffsets;
        if (partitions != null && partitions.isEmpty()) {
            LOG.info("delta sink {}: table {} at version {}; no partition of topic {} is this instance's now", txnAppId, writer.tablePath(),
                    snap.map(Snapshot::getVersion).orElse(-1L), config.topic());
            return;
        }
        LOG.info("delta sink {}: table {} at version {}, next batch {}, resuming topic {}{} at {}", txnAppId, writer.tablePath(),
                snap.map(Snapshot::getVersion).orElse(-1L), nextBatchId, config.topic(),
                partitions == null ? "" : " partition(s) " + partitions, storedOffsets.isEmpty() ? "the beginning" : storedOffsets);
    }

    /**
     * True when the table has the sink's offsets now, though {@code snap} had none: another instance
     * of the sink committed meanwhile (and trimmed the topic). Otherwise refuses a trimmed topic:
     * a trimmed topic no longer holds the rows of the batches before its first offsets: starting a
     * table from it would silently leave them out (the table was deleted, or another path given).
     */
    private boolean tableAppeared(SinkConfig config, DeltaTableWriter writer, Optional<Snapshot> snap) {
        reader.assign(Map.of());
        Map<Integer, Long> begin = reader.beginningOffsets();
        if (begin.values().stream().anyMatch(o -> o > 0)) {
            if (owned != null && writer.latestSnapshot().flatMap(s -> s.getDomainMetadata(SinkOffsets.DOMAIN)).isPresent()) {
                return true;
            }
            throw SinkRefusals.trimmedTopic(config, writer.tablePath(), snap.isPresent(), begin, owned != null);
        }
        return false;
    }
}
