package io.tributary.service.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's rows as CSV and Parquet are the rows of its JSON input. */
class BenchFilesTest {
    @TempDir
    Path dir;

    @Test
    void csvHoldsTheJsonRowsValuesUnderAHeader() throws IOException {
        BenchFiles.write("json", dir.resolve("json"), 5, 2, 0);
        BenchFiles.write("csv", dir.resolve("csv"), 5, 2, 0);
        List<String> json = Files.readAllLines(dir.resolve("json/part-00001.json"));
        List<String> csv = Files.readAllLines(dir.resolve("csv/part-00001.csv"));
        assertThat(csv).hasSize(json.size() + 1);
        assertThat(csv.get(0)).isEqualTo("id,user,amt,ts");
        for (int i = 0; i < json.size(); i++) {
            String[] v = csv.get(i + 1).split(",");
            assertThat(json.get(i)).isEqualTo("{\"id\":" + v[0] + ",\"user\":\"" + v[1] + "\",\"amt\":" + v[2] + ",\"ts\":\"" + v[3] + "\"}");
        }
    }

    @Test
    void parquetHoldsEveryRowInTheSchemasTypes() throws IOException {
        long bytes = BenchFiles.write("parquet", dir, 1001, 3, 0);
        long rows = 0;
        for (int f = 0; f < 3; f++) {
            Path file = dir.resolve(String.format("part-%05d.parquet", f));
            try (ParquetFileReader r = ParquetFileReader.open(new LocalInputFile(file),
                    ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
                rows += r.getRecordCount();
                assertThat(r.getFooter().getFileMetaData().getSchema().toString())
                        .contains("required int32 id").contains("required binary user (STRING)").contains("required double amt")
                        .contains("required int64 ts (TIMESTAMP(MICROS,true))");
            }
        }
        assertThat(rows).isEqualTo(1001);
        assertThat(bytes).isPositive();
    }
}
