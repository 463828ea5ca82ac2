package io.tributary.sink.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TableLayoutTest {
    private static final List<String> NONE = List.of();
    private static final List<String> DAY = List.of("day");

    @Test
    void theLogChecksumsAndTemporaryFilesAreHiddenButPartitionFoldersAndChangeDataAreNot() {
        assertThat(TableLayout.hidden("_delta_log/00000000000000000000.json", NONE)).isTrue();
        assertThat(TableLayout.hidden(".part-00000-x.parquet.crc", NONE)).isTrue();
        assertThat(TableLayout.hidden("day=2024-05-01/.a.parquet.crc", DAY)).isTrue();
        assertThat(TableLayout.hidden("_delta_index/x.bin", NONE)).isTrue();
        assertThat(TableLayout.hidden("_tmp/part-00000-x.parquet", NONE)).isTrue();
        assertThat(TableLayout.hidden("_change_data/cdc-00000-x.parquet", NONE)).isFalse();
        assertThat(TableLayout.hidden("_day=2024-05-01/a.parquet", List.of("_day"))).isFalse();
        assertThat(TableLayout.hidden("day=2024-05-01/a.parquet", DAY)).isFalse();
    }

    @Test
    void aWritersFileHasAUuidInItsNameAndLiesWhereTheTablePutsItsFiles() {
        String uuid = "0b6f7c42-5a59-4d0e-9a47-3f4f2d1c9e01";
        assertThat(TableLayout.looksWrittenByTable(uuid + "-000.parquet", NONE)).isTrue();
        assertThat(TableLayout.looksWrittenByTable("part-00003-" + uuid + "-c000.snappy.parquet", NONE)).isTrue();
        assertThat(TableLayout.looksWrittenByTable("day=2024-05-01/" + uuid + "-000.parquet", DAY)).isTrue();
        assertThat(TableLayout.looksWrittenByTable("_change_data/cdc-00000-" + uuid + ".c000.snappy.parquet", NONE)).isTrue();
        assertThat(TableLayout.looksWrittenByTable("deletion_vector_" + uuid + ".bin", NONE)).isTrue();

        assertThat(TableLayout.looksWrittenByTable("data.parquet", NONE)).as("no UUID").isFalse();
        assertThat(TableLayout.looksWrittenByTable(uuid + ".csv", NONE)).as("not Parquet").isFalse();
        assertThat(TableLayout.looksWrittenByTable("old/" + uuid + "-000.parquet", NONE)).as("a folder of the user's").isFalse();
        assertThat(TableLayout.looksWrittenByTable("month=5/" + uuid + "-000.parquet", DAY)).as("not a partition column").isFalse();
        assertThat(TableLayout.looksWrittenByTable(uuid + "-000.parquet", DAY)).as("a partitioned table's root").isFalse();
        assertThat(TableLayout.looksWrittenByTable("sub/deletion_vector_" + uuid + ".bin", NONE)).isFalse();

        assertThat(TableLayout.isKernelDataFile(uuid + "-000.parquet", NONE)).isTrue();
        assertThat(TableLayout.isKernelDataFile("part-00003-" + uuid + "-c000.snappy.parquet", NONE)).as("Spark's, not ours").isFalse();
    }
}
