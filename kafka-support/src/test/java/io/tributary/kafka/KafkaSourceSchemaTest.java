package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.TributaryException;
import org.junit.jupiter.api.Test;

/** A Kafka source's schema reads values as Spark's from_json, which takes maps of STRING keys only. */
class KafkaSourceSchemaTest {
    @Test
    void aMapOfKeysOtherThanTextIsRefusedAsSparksFromJsonRefusesIt() {
        assertThatThrownBy(() -> KafkaSourceSettings.SCHEMA.parse("source.kafka.schema", "id INT, a ARRAY<MAP<DATE, INT>>"))
                .isInstanceOf(TributaryException.class)
                .hasMessage("key 'source.kafka.schema' is 'id INT, a ARRAY<MAP<DATE, INT>>': column 'a' is ARRAY<MAP<DATE, INT>>: the"
                        + " values are read as Spark's from_json reads them, which takes maps of STRING keys only"
                        + " (DATATYPE_MISMATCH.INVALID_JSON_MAP_KEY_TYPE)");
        assertThat(KafkaSourceSettings.SCHEMA.parse("source.kafka.schema", "id INT, m MAP<STRING, INT>").toDdl())
                .isEqualTo("id INT, m MAP<STRING, INT>");
    }
}
