package io.tributary.sink;

import io.tributary.sink.internal.SinkErrors;
import java.util.Locale;
import java.util.Objects;

/**
 * What a {@link DeltaSink} does with a record whose row the table cannot hold (a null in a NOT NULL
 * column, a value of another type), as the pipeline's {@code source.files.onBadRecord} says for the
 * rows of its input files: {@link Policy#DEAD_LETTER} sends the record to {@code deadLetterTopic},
 * {@link Policy#DROP} drops it, both logging it and going on with the batch's other rows;
 * {@link Policy#FAIL} (the default) stops the batch, naming the record.
 *
 * @param deadLetterTopic where {@link Policy#DEAD_LETTER} sends a bad record (created when it is missing); null otherwise
 */
public record SinkBadRecords(Policy policy, String deadLetterTopic) {
    /** Stop at the first bad record, naming it. */
    public static final SinkBadRecords FAIL = new SinkBadRecords(Policy.FAIL, null);

    /** The three policies of {@code onBadRecord}. */
    public enum Policy { DEAD_LETTER, DROP, FAIL }

    public SinkBadRecords {
        Objects.requireNonNull(policy, "policy");
        if (policy == Policy.DEAD_LETTER && (deadLetterTopic == null || deadLetterTopic.isBlank())) {
            throw SinkErrors.noDeadLetterTopic();
        }
        deadLetterTopic = policy == Policy.DEAD_LETTER ? deadLetterTopic : null;
    }

    /**
     * The policy of an {@code onBadRecord} value: {@code deadLetter} (to {@code deadLetterTopic}),
     * {@code drop} or {@code fail}, or Spark's {@code PERMISSIVE}, {@code DROPMALFORMED}, {@code FAILFAST}.
     */
    public static SinkBadRecords forName(String name, String deadLetterTopic) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "deadletter", "dead-letter", "permissive" -> new SinkBadRecords(Policy.DEAD_LETTER, deadLetterTopic);
            case "drop", "dropmalformed" -> new SinkBadRecords(Policy.DROP, null);
            case "fail", "failfast" -> FAIL;
            default -> throw SinkErrors.unknownBadRecordPolicy(name);
        };
    }

    /** The spec's name: {@code deadLetter}, {@code drop} or {@code fail}. */
    public String specName() {
        return switch (policy) {
            case DEAD_LETTER -> "deadLetter";
            case DROP -> "drop";
            case FAIL -> "fail";
        };
    }
}
