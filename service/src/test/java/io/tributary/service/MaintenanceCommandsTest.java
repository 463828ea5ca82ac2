package io.tributary.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.tributary.schema.Schema;
import io.tributary.schema.Timestamps;
import io.tributary.sink.DeltaTables;
import io.tributary.sink.SinkOffsets;
import io.tributary.sink.SinkTables;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** tributary describe / optimize / vacuum on a real partitioned table written as the sink writes it. */
class MaintenanceCommandsTest {
    private static final Schema SCHEMA = Schema.parse("id INT, user STRING, amt DOUBLE, ts TIMESTAMP");
    private static final String APP = "tributary-demo-sink";

    @TempDir
    Path dir;


    private CliRun tributary(String... args) {
        return CliRun.of(args);
    }

    private String writeTable(int commits) {
        String table = dir.resolve("events").toString();
        SinkTables w = new SinkTables(table, SCHEMA, List.of("date(ts) as day"), APP);
        for (int c = 0; c < commits; c++) {
            w.commit(List.of(new Object[] {c, "u", 1.0, Timestamps.parseMicros("2024-05-0" + (1 + c % 2) + "T10:00:00Z", true)},
                    new Object[] {100 + c, "v", 2.0, Timestamps.parseMicros("2024-05-0" + (1 + c % 2) + "T11:00:00Z", true)}));
        }
        return table;
    }

    private static List<String> rows(String table) {
        return DeltaTables.readRows(table).stream().map(Arrays::deepToString).sorted().toList();
    }

    @Test
    void describeOptimizeVacuumOnASinkTable() {
        String table = writeTable(12);
        List<String> before = rows(table);

        CliRun describe = tributary("describe", table);
        assertThat(describe.code()).as(describe.err()).isZero();
        assertThat(describe.out()).contains("versions  latest 11, oldest readable 0").contains("checkpoint  version 10")
                .contains("files  12,").contains("rows  24 (from the log's statistics, no data file read)").contains("partitions  by [day]: 2").contains("day=2024-05-01  6 files")
                .contains(APP + ": 11").contains(SinkOffsets.DOMAIN).contains("delta.checkpointInterval = 10");

        CliRun optimize = tributary("optimize", table, "--target-file-size", "64m", "--where", "day = '2024-05-02'");
        assertThat(optimize.code()).as(optimize.err()).isZero();
        assertThat(optimize.out()).contains("version 12, 6 small files").contains("in 1 partition(s) rewritten as 1 files");
        assertThat(tributary("optimize", table).out()).contains("version 13, 6 small files");
        assertThat(rows(table)).isEqualTo(before);
        assertThat(tributary("describe", table).out()).contains("files  2,").contains("rows  24 (");

        CliRun refused = tributary("vacuum", table, "--retain", "1h");
        assertThat(refused.code()).isEqualTo(1);
        assertThat(refused.err()).contains("tributary: error: vacuum").contains("such a low retention period").contains("--force");

        CliRun dry = tributary("vacuum", table, "--retain", "0h", "--force", "--dry-run");
        assertThat(dry.code()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("would delete day=2024-05-01/").contains("would delete 12 files");

        CliRun vacuum = tributary("vacuum", table, "--retain", "0h", "--force");
        assertThat(vacuum.out()).contains("deleted 12 files").contains("2 data files kept");
        assertThat(rows(table)).isEqualTo(before);
        assertThat(tributary("vacuum", table, "--retain", "0h", "--force").out()).contains("deleted 0 files");
    }

    @Test
    void aMissingTableIsOneClearLine() {
        CliRun r = tributary("describe", dir.resolve("nothing").toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.err()).startsWith("tributary: error: describe: no Delta table at");
    }
}
