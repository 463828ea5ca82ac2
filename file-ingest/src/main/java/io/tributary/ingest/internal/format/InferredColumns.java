package io.tributary.ingest.internal.format;

import io.tributary.ingest.FileFormat;
import io.tributary.ingest.IngestConfig;
import io.tributary.ingest.internal.FileDiscovery;
import io.tributary.ingest.internal.FileStat;
import io.tributary.schema.DataType;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * The columns of sampled input files, typed as Spark's readers infer them: JSON as Spark's JSON
 * inference (columns sorted by name, as Spark sorts them; malformed lines skipped; text TIMESTAMP only with inferTimestamp), CSV named by
 * the header ({@code _c0}, {@code _c1}... without one) and STRING unless {@code inferSchema} (then
 * INT, BIGINT, DECIMAL(n, 0), DOUBLE, DATE, TIMESTAMP, BOOLEAN or STRING, as Spark's CSV inference), Parquet as the
 * first file's footer says, XML as Spark's XML inference (columns sorted by name; malformed records skipped) ({@link JsonColumns},
 * {@link CsvColumns}, {@link ParquetColumns}, {@link XmlColumns}).
 */
public final class InferredColumns {
    private InferredColumns() {
    }

    /** The columns of {@code files} (read in full) for {@code config}'s format: one inferrer per format. */
    public static Map<String, DataType> of(IngestConfig config, FileDiscovery discovery, List<FileStat> files) throws IOException {
        FileFormat format = config.format();
        return switch (format.kind()) {
            case PARQUET -> ParquetColumns.columns(discovery, files.get(0));
            case CSV -> CsvColumns.columns(config, discovery, files);
            case XML -> XmlColumns.columns(config, discovery, files);
            default -> JsonColumns.columns(config, discovery, files);
        };
    }
}
