package io.tributary.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tributary.schema.Schema;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code transform.join} as the ingest takes it: the keys below it, the joined rows' schema, a table's new version. */
class JoinSpecsTest {
    static final Schema STREAM = Schema.parse("id INT, user STRING");

    /** A table in memory whose version and rows the test changes. */
    static final class MemoryTable implements StaticTable {
        long version = 0;
        Schema schema = Schema.parse("name STRING, segment STRING");
        List<Object[]> rows = new ArrayList<>(List.<Object[]>of(new Object[] {"ann", "gold"}));
        int reads;

        @Override
        public long version() {
            return version;
        }

        @Override
        public Schema schema() {
            return schema;
        }

        @Override
        public List<Object[]> rows() {
            reads++;
            return rows;
        }
    }

    @Test
    void aListGivesIndexedKeysAndOneJoinMayBeAMapping() {
        Map<String, String> list = new LinkedHashMap<>();
        list.put("0.table", "../dims/users");
        list.put("0.as", "u");
        list.put("0.on", "user = u.name");
        list.put("1.table", "s3a://b/t");
        list.put("1.as", "t");
        list.put("1.on", "true");
        list.put("1.type", "left_anti");
        assertThat(TransformSettings.joins(list, "transform.join")).containsExactly(
                new JoinSpec("../dims/users", "u", "user = u.name", "inner", "transform.join.0"),
                new JoinSpec("s3a://b/t", "t", "true", "left_anti", "transform.join.1"));
        assertThat(TransformSettings.joins(Map.of("table", "x", "as", "u", "on", "true"), "transform.join"))
                .containsExactly(new JoinSpec("x", "u", "true", "inner", "transform.join"));
        assertThatThrownBy(() -> TransformSettings.joins(Map.of("0.tabel", "x"), "transform.join"))
                .hasMessageContaining("transform.join.0.tabel").hasMessageContaining("table, as, on and type");
    }

    @Test
    void theJoinRunsBeforeSelectAndANewVersionIsReadAtTheNextRefresh() {
        MemoryTable table = new MemoryTable();
        IngestConfig config = IngestConfig.builder("p", Path.of("in"), STREAM)
                .joins(List.of(new JoinSpec("users", "u", "user = u.name", "left", "transform.join.0")), 10)
                .staticTables(location -> table)
                .build();
        assertThat(config.outputSchema().toDdl()).isEqualTo("id INT, user STRING, name STRING, segment STRING");
        Joins joins = config.joins();
        joins.refresh();
        joins.refresh();
        assertThat(table.reads).as("read again only for a new version").isEqualTo(1);
        assertThat(Arrays.toString(config.transform().apply(joins.apply(new Object[] {1, "ann"}).get(0)))).isEqualTo("[1, ann, ann, gold]");

        table.version = 1;
        table.rows = List.of(new Object[] {"ann", "platinum"}, new Object[] {"bob", "new"});
        joins.refresh();
        assertThat(table.reads).isEqualTo(2);
        assertThat(Arrays.toString(config.transform().apply(joins.apply(new Object[] {1, "ann"}).get(0)))).isEqualTo("[1, ann, ann, platinum]");
        assertThat(Arrays.toString(config.transform().apply(joins.apply(new Object[] {2, "cy"}).get(0)))).isEqualTo("[2, cy, null, null]");

        table.version = 2;
        table.rows = java.util.Collections.nCopies(11, new Object[] {"x", "y"});
        assertThatThrownBy(joins::refresh).hasMessageContaining("transform.join.0.table").hasMessageContaining("has 11 rows, more than the 10");

        table.version = 3;
        table.schema = Schema.parse("name STRING");
        assertThatThrownBy(joins::refresh).hasMessageContaining("schema changed");
    }

    @Test
    void aTableThatIsNotThereIsRefusedNamingTheKey() {
        MemoryTable none = new MemoryTable();
        none.version = -1;
        assertThatThrownBy(() -> IngestConfig.builder("p", Path.of("in"), STREAM)
                .joins(List.of(new JoinSpec("nowhere", "u", "user = u.name", "inner", "transform.join.0")), 10)
                .staticTables(location -> none).build())
                .hasMessageContaining("transform.join.0.table").hasMessageContaining("no Delta table at 'nowhere'");
    }
}
