package io.tributary.service.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.service.spec.PipelineSpec;
import io.tributary.sink.SparkCreatedTables;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink table's rules as a run reads them before the broker starts: none without a table, the table's once it is there. */
class TableRulesTest {
    @TempDir
    Path dir;

    private PipelineSpec spec(String table) throws Exception {
        Path specFile = dir.resolve("pipeline.yaml");
        Files.writeString(specFile, """
                name: rules
                source:
                  files:
                    path: in/
                    schema: "id INT, user STRING"
                sink:
                  delta:
                    path: %s
                trigger: availableNow
                """.formatted(table));
        return PipelineSpec.load(specFile, Map.of(), Map.of());
    }

    @Test
    void aLocalPathWithoutADeltaLogHoldsNoTableAndNoRules() throws Exception {
        Files.createDirectories(dir.resolve("out"));
        Files.writeString(dir.resolve("out/notes.txt"), "not a table");
        PipelineSpec spec = spec("out/");
        assertThat(TableRules.noLocalTable(spec.location("sink.delta.path"))).isTrue();
        assertThat(TableRules.noLocalTable(dir.resolve("missing").toString())).isTrue();
        assertThat(TableRules.read(spec)).isEmpty();
    }

    @Test
    void aTableSparkCreatedGivesItsNotNullColumnsAndChecks() throws Exception {
        SparkCreatedTables.create(dir.resolve("out"), List.of("id integer NOT NULL", "user string"), List.of(SparkCreatedTables.CHECK_CONSTRAINTS),
                Map.of("delta.constraints.positive", "id > 0"));
        PipelineSpec spec = spec("out/");
        assertThat(TableRules.noLocalTable(spec.location("sink.delta.path"))).isFalse();
        assertThat(TableRules.read(spec)).hasValueSatisfying(rules -> {
            assertThat(rules.schema().field(rules.schema().indexOf("id")).nullable()).isFalse();
            assertThat(rules.constraints()).containsEntry("positive", "id > 0");
        });
    }

    @Test
    void objectStorageIsLeftToDeltaKernel() {
        assertThat(TableRules.noLocalTable("s3a://bucket/tables/out")).isFalse();
    }
}
