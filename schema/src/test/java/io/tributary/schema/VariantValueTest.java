package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A VARIANT in a topic's rows: its bytes, base64, both ways, at any depth; anything else is a bad record naming the column. */
class VariantValueTest {
    /** Spark's encoding of the variant {"a":1}: an object of one field id 0 with an int8 1; metadata: the dictionary ["a"]. */
    private static final VariantValue A1 = new VariantValue(new byte[] {2, 1, 0, 0, 2, 12, 1}, new byte[] {1, 1, 0, 1, 97});
    private static final Schema SCHEMA = new Schema(List.of(new Field("id", DataType.INT, true), new Field("payload", DataType.VARIANT, true),
            new Field("history", DataType.array(DataType.VARIANT), true)));

    @Test
    void aVariantIsItsValueAndMetadataBytes() {
        RowJson json = new RowJson(SCHEMA);
        Object[] row = {1, A1, List.of(A1, A1)};
        String text = new String(json.write(row), StandardCharsets.UTF_8);
        assertThat(text).isEqualTo("{\"id\":1,\"payload\":{\"value\":\"AgEAAAIMAQ==\",\"metadata\":\"AQEAAWE=\"},"
                + "\"history\":[{\"value\":\"AgEAAAIMAQ==\",\"metadata\":\"AQEAAWE=\"},{\"value\":\"AgEAAAIMAQ==\",\"metadata\":\"AQEAAWE=\"}]}");
        assertThat(json.parse(text.getBytes(StandardCharsets.UTF_8))).containsExactly(1, A1, List.of(A1, A1));
        assertThat(json.parse("{\"id\":2,\"payload\":null}")).containsExactly(2, null, null);
        assertThat(DataType.VARIANT.ddl()).isEqualTo("VARIANT");
        assertThat(DataType.array(DataType.VARIANT).holdsVariant()).isTrue();
        assertThat(DataType.BINARY.isVariant()).isFalse();
        assertThat(RowBinary.of(SCHEMA)).isNull();
    }

    @Test
    void aVariantColumnHoldingSomethingElseIsABadRecord() {
        RowJson json = new RowJson(SCHEMA);
        assertThatThrownBy(() -> json.parse("{\"id\":1,\"payload\":\"{\\\"a\\\":1}\"}")).isInstanceOf(BadRecordException.class)
                .hasMessageContaining("payload").hasMessageContaining("expected VARIANT").hasMessageContaining("found '{\"a\":1}'");
        assertThatThrownBy(() -> json.parse("{\"id\":1,\"payload\":{\"value\":\"AgEAAAIMAQ==\"}}")).isInstanceOf(BadRecordException.class)
                .hasMessageContaining("payload").hasMessageContaining("without 'metadata'");
        assertThatThrownBy(() -> json.parse("{\"id\":1,\"payload\":{\"value\":\"!!\",\"metadata\":\"AQEAAWE=\"}}"))
                .isInstanceOf(BadRecordException.class).hasMessageContaining("payload.value").hasMessageContaining("not base64");
    }
}
