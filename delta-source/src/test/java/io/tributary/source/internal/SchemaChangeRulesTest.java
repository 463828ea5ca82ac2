package io.tributary.source.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import org.junit.jupiter.api.Test;

class SchemaChangeRulesTest {
    static SchemaChange change(String current, String next) {
        return SchemaChange.of(Schema.parse(current), Schema.parse(next));
    }

    @Test
    void newColumnsAtTheTopOrInAStructAreAdditive() {
        assertThat(change("id INT, user STRING", "id INT, user STRING, country STRING").kind()).isEqualTo(SchemaChange.Kind.ADDITIVE);
        assertThat(change("id INT, geo STRUCT<lat: DOUBLE>", "id INT, geo STRUCT<lat: DOUBLE, lon: DOUBLE>").kind())
                .isEqualTo(SchemaChange.Kind.ADDITIVE);
    }

    @Test
    void aSchemaTheStreamAlreadyCoversIsReadable() {
        assertThat(change("id INT, user STRING, country STRING", "id INT, user STRING").kind()).isEqualTo(SchemaChange.Kind.READABLE);
        assertThat(change("id INT, user STRING", "ID INT, User STRING").kind()).isEqualTo(SchemaChange.Kind.READABLE);
    }

    @Test
    void aDropOrATypeChangeIsNamed() {
        assertThat(SchemaChange.lost(Schema.parse("id INT, amt DOUBLE"), Schema.parse("id INT"))).isEqualTo("column 'amt' is gone (dropped or renamed)");
        assertThat(SchemaChange.lost(Schema.parse("id INT"), Schema.parse("id BIGINT"))).isEqualTo("column 'id' changes type from INT to BIGINT");
        assertThat(SchemaChange.lost(Schema.parse("g STRUCT<a: INT>"), Schema.parse("g STRUCT<b: INT>"))).isEqualTo("column 'g.a' is gone (dropped or renamed)");
        assertThat(SchemaChange.lost(Schema.parse("id INT"), Schema.parse("id INT, x STRING"))).isNull();
        SchemaChange renamed = change("id INT, amt DOUBLE", "id INT, amount DOUBLE");
        assertThat(renamed.kind()).isEqualTo(SchemaChange.Kind.INCOMPATIBLE);
        assertThat(renamed.reason()).isEqualTo("column 'amt' is gone (dropped or renamed)");
    }
}
