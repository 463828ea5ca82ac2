package io.tributary.ingest;

import io.tributary.ingest.internal.IngestErrors;
import io.tributary.schema.TributaryException;
import java.util.Locale;

/**
 * What the ingest does with a {@link BadRecord}, as Spark's JSON reader {@code mode}:
 * {@link DeadLetter} (the default, Spark's PERMISSIVE, but the bad line is kept in the
 * dead-letter topic instead of a corrupt-record column), {@link Drop} (DROPMALFORMED) and
 * {@link Fail} (FAILFAST). The valid rows of the batch go on in the first two cases; with
 * {@code fail} nothing of the batch is published.
 */
public interface BadRecordPolicy {
    BadRecordPolicy DEAD_LETTER = new DeadLetter();
    BadRecordPolicy DROP = new Drop();
    BadRecordPolicy FAIL = new Fail();

    /** What to do with the row, when the policy lets the batch go on. */
    enum Action { DEAD_LETTER, DROP }

    /** The spec's name: {@code deadLetter}, {@code drop} or {@code fail}. */
    String name();

    /**
     * Decides the fate of one bad row; throws a {@link TributaryException} that names the file,
     * line and field to stop the batch.
     */
    Action onBadRecord(BadRecord bad);

    /**
     * The policy of a spec value: {@code deadLetter}, {@code drop}, {@code fail}, or Spark's
     * {@code PERMISSIVE}, {@code DROPMALFORMED}, {@code FAILFAST} (case-insensitive).
     */
    static BadRecordPolicy forName(String name) {
        String n = name == null ? "" : name.strip().toLowerCase(Locale.ROOT);
        return switch (n) {
            case "deadletter", "dead-letter", "permissive" -> DEAD_LETTER;
            case "drop", "dropmalformed" -> DROP;
            case "fail", "failfast" -> FAIL;
            default -> throw IngestErrors.unknownBadRecordPolicy(name);
        };
    }

    /** Spark's PERMISSIVE, keeping the bad line: it goes to the dead-letter topic in the batch's transaction. */
    final class DeadLetter implements BadRecordPolicy {
        private DeadLetter() {
        }

        @Override
        public String name() {
            return "deadLetter";
        }

        @Override
        public Action onBadRecord(BadRecord bad) {
            return Action.DEAD_LETTER;
        }

        @Override
        public String toString() {
            return name();
        }
    }

    /** Spark's DROPMALFORMED: the bad line is counted ({@code numBadRows}) and dropped. */
    final class Drop implements BadRecordPolicy {
        private Drop() {
        }

        @Override
        public String name() {
            return "drop";
        }

        @Override
        public Action onBadRecord(BadRecord bad) {
            return Action.DROP;
        }

        @Override
        public String toString() {
            return name();
        }
    }

    /** Spark's FAILFAST: the first bad line stops the run; nothing of its batch is published. */
    final class Fail implements BadRecordPolicy {
        private Fail() {
        }

        @Override
        public String name() {
            return "fail";
        }

        @Override
        public Action onBadRecord(BadRecord bad) {
            throw IngestErrors.badRecordFailed(bad.describe());
        }

        @Override
        public String toString() {
            return name();
        }
    }
}
