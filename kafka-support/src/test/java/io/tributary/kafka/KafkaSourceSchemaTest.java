package io.tributary.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.expressions.Transform;
import io.tributary.kafka.internal.format.JsonValues;
import io.tributary.kafka.internal.format.NewFields;
import io.tributary.schema.Schema;
import io.tributary.schema.TributaryException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A Kafka source's schema reads values as Spark's from_json, which takes maps of STRING keys only and makes a VARIANT of a field's JSON. */
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

    @Test
    void aVariantFieldIsTheVariantOfTheValuesJsonAsInSparksFromJson() {
        Schema schema = KafkaSourceSettings.SCHEMA.parse("source.kafka.schema", "id INT, payload VARIANT, tags ARRAY<VARIANT>");
        JsonValues values = new JsonValues(schema, NewFields.IGNORE);
        byte[] value = "{\"id\": 1, \"payload\": {\"b\": [1, 2.50, \"x\"], \"a\": null}, \"tags\": [null, 1E3]}"
                .getBytes(StandardCharsets.UTF_8);
        Object[] row = values.parse(value, 0, value.length, "t", 0, 7L, 1);
        Transform query = Transform.compile(schema, null, List.of("to_json(payload)", "schema_of_variant(payload)", "to_json(tags)"));
        assertThat(query.apply(row)).containsExactly("{\"a\":null,\"b\":[1,2.5,\"x\"]}",
                "OBJECT<a: VOID, b: ARRAY<VARIANT>>", "[null,1000.0]");
    }
}
