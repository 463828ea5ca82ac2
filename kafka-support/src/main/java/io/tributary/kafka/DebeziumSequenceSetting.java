package io.tributary.kafka;

import io.tributary.schema.DebeziumEvents;
import io.tributary.settings.Setting;
import java.util.List;

/**
 * {@code debezium.sequence}: the {@code source} fields of Debezium's change events that order the
 * changes ({@link DebeziumEvents}). One definition, its key, default and documentation, that both
 * sources of {@code format: debezium-json} take: the file source under {@code source.files.}, a
 * Kafka source under {@code source.kafka.}.
 */
public final class DebeziumSequenceSetting {
    public static final Setting<List<String>> SEQUENCE = Setting.list("debezium.sequence", "format debezium-json (or a Kafka source's debezium-avro): the"
            + " fields of the events' source block that order the changes, into the lsn column: one field (PostgreSQL's lsn, ts_ms)"
            + " makes a BIGINT, several (MySQL's [file, pos, row]) a STRING that sorts as they do (docs/cdc.md)")
            .withDefault(DebeziumEvents.DEFAULT_SEQUENCE);

    private DebeziumSequenceSetting() {
    }
}
