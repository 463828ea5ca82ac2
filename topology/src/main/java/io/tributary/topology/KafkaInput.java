package io.tributary.topology;

import io.tributary.kafka.KafkaSubscription;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * An aggregation or deduplication that reads someone else's Kafka topics ({@code source.kafka})
 * rather than the pipeline's events topic: the records become rows as the subscription's format
 * says, and the stage itself cuts them into Spark's batches with Spark's global watermark (see
 * {@link StreamsAggregation}).
 *
 * @param subscription the topics and their format
 * @param onBadRecord a value that is not a row: {@code deadLetter}, {@code drop} or {@code fail}
 * @param deadLetterTopic where {@code deadLetter} sends it (naming topic, partition and offset)
 * @param sourceTasks the tasks that read the source: its topics' largest partition count when the run starts
 * @param partitions the partitions of the rows topic, by which the rows are placed by their group-by (or
 *                   deduplication) values, as Spark shuffles them: the aggregation's tasks
 * @param closeIdleAfter {@code aggregate.closeIdleWindowsAfter}: after this much wall-clock time with no new record
 *                       on any partition, a batch moves the watermark {@code idleAdvance} past the largest event
 *                       time, closing every open window; null: off (Spark's)
 * @param idleAdvance the window's length (a session's gap), with {@code closeIdleAfter}
 * @param placeBy the columns that place the rows on the rows topic's partitions; null: the stage's own keys (the
 *                group-by, or the deduplication's keys); a deduplication before an aggregation: the aggregation's group-by,
 *                so that a group's rows meet on one partition of the deduplicated topic, as the file source places them
 */
public record KafkaInput(KafkaSubscription subscription, String onBadRecord, String deadLetterTopic, int sourceTasks, int partitions,
                         Duration closeIdleAfter, Duration idleAdvance, List<String> placeBy) {
    public KafkaInput(KafkaSubscription subscription, String onBadRecord, String deadLetterTopic, int sourceTasks, int partitions) {
        this(subscription, onBadRecord, deadLetterTopic, sourceTasks, partitions, null, null, null);
    }

    public KafkaInput {
        placeBy = placeBy == null ? null : List.copyOf(placeBy);
        if (closeIdleAfter != null) {
            Objects.requireNonNull(idleAdvance, "idleAdvance");
        }
        if (sourceTasks < 1 || partitions < 1) {
            throw new IllegalArgumentException("sourceTasks and partitions must be at least 1, not " + sourceTasks + " and " + partitions);
        }
        Objects.requireNonNull(subscription, "subscription");
        Objects.requireNonNull(onBadRecord, "onBadRecord");
        if (!onBadRecord.equals("deadLetter") && !onBadRecord.equals("drop") && !onBadRecord.equals("fail")) {
            throw new IllegalArgumentException("onBadRecord is deadLetter, drop or fail, not " + onBadRecord);
        }
        if (onBadRecord.equals("deadLetter")) {
            Objects.requireNonNull(deadLetterTopic, "deadLetterTopic");
        }
    }

    /** This input, whose windows close after {@code after} without a new record (closeIdleWindowsAfter). */
    public KafkaInput withCloseIdleWindowsAfter(Duration after, Duration advance) {
        return new KafkaInput(subscription, onBadRecord, deadLetterTopic, sourceTasks, partitions, after, advance, placeBy);
    }

    /** This input, its rows placed by {@code columns} (a deduplication before an aggregation: the aggregation's group-by). */
    public KafkaInput placedBy(List<String> columns) {
        return new KafkaInput(subscription, onBadRecord, deadLetterTopic, sourceTasks, partitions, closeIdleAfter, idleAdvance, columns);
    }

    /** The application's topic of batches (one partition): each batch's id, watermark and the source offsets it waits for. */
    public static String batchesTopic(String applicationId) {
        return applicationId + "-batches";
    }

    /** The application's topic of the source's rows, placed by their group-by values (Spark's shuffle), with the batches' markers. */
    public static String rowsTopic(String applicationId) {
        return applicationId + "-rows";
    }

    /** The application's topic where each task says it ended a batch, with the largest event time it read. */
    public static String reportsTopic(String applicationId) {
        return applicationId + "-batch-reports";
    }
}
