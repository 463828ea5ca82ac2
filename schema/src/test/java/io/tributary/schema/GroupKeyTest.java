package io.tributary.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupKeyTest {
    static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP, d DECIMAL(5,2)");

    private static String key(List<String> groupBy, String json) {
        byte[] k = new GroupKey(SCHEMA, groupBy).key(new RowJson(SCHEMA).parse(json));
        return k == null ? null : new String(k, StandardCharsets.UTF_8);
    }

    @Test
    void groupByValuesBecomeAJsonArray() {
        assertThat(key(List.of("user"), "{\"user\":\"a\"}")).isEqualTo("[\"a\"]");
        assertThat(key(List.of("user", "id"), "{\"user\":\"a\",\"id\":3}")).isEqualTo("[\"a\",3]");
        assertThat(key(List.of("ts", "amt", "d"), "{\"ts\":\"2026-01-01 10:00:00\",\"amt\":1.5,\"d\":2.5}"))
                .isEqualTo("[\"2026-01-01T10:00:00Z\",1.5,2.50]");
        assertThat(key(List.of("user"), "{\"id\":1}")).isEqualTo("[null]");
    }

    @Test
    void noGroupByMeansANullKey() {
        assertThat(key(List.of(), "{\"user\":\"a\"}")).isNull();
    }
}
